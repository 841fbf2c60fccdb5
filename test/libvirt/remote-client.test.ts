/** XDR readers of src/libvirt/remote-client.ts whose structs are not trivial (`char model[32]`, unsigned char/short). */
import { readDomainInfo, readNodeInfo, XdrReader, XdrWriter } from '../../src/libvirt';

describe('readNodeInfo', () => {
  it('GIVEN remote_node_get_info_ret with model x86_64 WHEN read THEN each char took 4 bytes and the rest follows', () => {
    const w = new XdrWriter();
    const model = Buffer.from('x86_64');
    for (let i = 0; i < 32; i++) w.int(model[i] ?? 0);
    w.uhyper(6777036).int(2).int(2596).int(1).int(1).int(2).int(1);
    const r = new XdrReader(w.finish());
    expect(readNodeInfo(r)).toEqual({
      model: 'x86_64',
      memoryKiB: 6777036,
      cpus: 2,
      mhz: 2596,
      nodes: 1,
      sockets: 1,
      cores: 2,
      threads: 1,
    });
    expect(() => r.end()).not.toThrow();
  });
});

describe('readDomainInfo', () => {
  it('GIVEN remote_domain_get_info_ret WHEN read THEN state, memory in KiB, vCPUs and CPU time', () => {
    const w = new XdrWriter();
    w.uint(5).uhyper(524288).uhyper(524288).uint(2).uhyper(123456789n);
    const r = new XdrReader(w.finish());
    expect(readDomainInfo(r)).toEqual({ state: 5, maxMemoryKiB: 524288, memoryKiB: 524288, vcpus: 2, cpuTimeNs: 123456789n });
    expect(() => r.end()).not.toThrow();
  });
});
