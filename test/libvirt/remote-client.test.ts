/**
 * The XDR arguments of the domain calls behind live changes (src/libvirt/remote-client.ts), against a stand-in
 * daemon: each call's procedure number (libvirt's remote_protocol.x) and its argument bytes, written out by hand
 * from the struct layout (remote_nonnull_domain = string name, 16-byte uuid, int id; then the call's fields). Also
 * the readers of replies whose structs are not trivial (`char model[32]`, unsigned char/short).
 */
import { readDomainInfo, readNodeInfo, RemoteLibvirtClient } from '../../src/libvirt/remote-client';
import { RpcConnection } from '../../src/libvirt/rpc';
import { XdrReader, XdrWriter } from '../../src/libvirt/xdr';
import { fakeDaemon } from './helpers/fake-daemon';

const DOM = { name: 'vm', uuid: Buffer.from('00112233445566778899aabbccddeeff', 'hex'), id: 7 };

/** remote_nonnull_domain "vm", uuid 0011..ff, id 7, as XDR. */
const DOM_XDR = '00000002' + '766d0000' + '00112233445566778899aabbccddeeff' + '00000007';

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Sends one call through a stand-in daemon that answers `reply`; returns the call's procedure and argument hex. */
async function sent(
  call: (c: RemoteLibvirtClient) => Promise<unknown>,
  reply = Buffer.alloc(0),
): Promise<{ proc: number; args: string; result: unknown }> {
  const d = fakeDaemon();
  d.onPacket = (p) => d.reply(p, reply);
  const client = new RemoteLibvirtClient(new RpcConnection(d.socket));
  const result = await call(client);
  await flush();
  const [p] = d.received;
  return { proc: p.header.procedure, args: Buffer.from(p.payload).toString('hex'), result };
}

const xmlXdr = (xml: string) => Buffer.from(new XdrWriter().string(xml).finish()).toString('hex');

describe('live-change calls', () => {
  test.each<[string, (c: RemoteLibvirtClient) => Promise<unknown>, number, string]>([
    [
      'domainSetMemoryFlags 2 GiB, LIVE|CONFIG',
      (c) => c.domainSetMemoryFlags(DOM, 2 * 1024 * 1024, 3),
      204,
      DOM_XDR + '0000000000200000' + '00000003',
    ],
    ['domainSetVcpusFlags 4, LIVE|CONFIG', (c) => c.domainSetVcpusFlags(DOM, 4, 3), 199, DOM_XDR + '00000004' + '00000003'],
    ['domainShutdownFlags GUEST_AGENT', (c) => c.domainShutdownFlags(DOM, 2), 258, DOM_XDR + '00000002'],
    [
      'domainBlockResize vdb 3 GiB in bytes',
      (c) => c.domainBlockResize(DOM, 'vdb', 3 * 1024 ** 3, 1),
      251,
      DOM_XDR + '00000003' + '76646200' + '00000000c0000000' + '00000001',
    ],
    ['domainAttachDeviceFlags', (c) => c.domainAttachDeviceFlags(DOM, '<disk/>', 3), 160, DOM_XDR + xmlXdr('<disk/>') + '00000003'],
    ['domainDetachDeviceFlags', (c) => c.domainDetachDeviceFlags(DOM, '<disk/>', 3), 161, DOM_XDR + xmlXdr('<disk/>') + '00000003'],
    [
      'domainUpdateDeviceFlags',
      (c) => c.domainUpdateDeviceFlags(DOM, '<interface/>', 3),
      174,
      DOM_XDR + xmlXdr('<interface/>') + '00000003',
    ],
    ['domainGetAutostart', (c) => c.domainGetAutostart(DOM), 15, DOM_XDR],
    [
      'domainSetMetadata TITLE "t", no key or uri, LIVE|CONFIG',
      (c) => c.domainSetMetadata(DOM, 1, 't', null, null, 3),
      264,
      // type, remote_string metadata (present, "t"), key and uri absent, flags
      DOM_XDR + '00000001' + '00000001' + '00000001' + '74000000' + '00000000' + '00000000' + '00000003',
    ],
    [
      'domainSetMetadata ELEMENT with key and uri, CONFIG',
      (c) => c.domainSetMetadata(DOM, 2, '<e/>', 'k', 'u', 2),
      264,
      DOM_XDR + '00000002' + '00000001' + xmlXdr('<e/>') + '00000001' + xmlXdr('k') + '00000001' + xmlXdr('u') + '00000002',
    ],
    [
      'domainSetLifecycleAction crash → coredump-destroy, LIVE|CONFIG',
      (c) => c.domainSetLifecycleAction(DOM, 2, 4, 3),
      390,
      DOM_XDR + '00000002' + '00000004' + '00000003',
    ],
  ])('GIVEN %s WHEN called THEN the procedure number and XDR arguments follow remote_protocol.x', async (_, call, proc, args) => {
    // The calls return nothing but virDomainGetAutostart (an int).
    const r = await sent(call, Buffer.from(proc === 15 ? '00000001' : '', 'hex'));
    expect({ proc: r.proc, args: r.args }).toEqual({ proc, args });
  });

  test('GIVEN autostart on WHEN asked THEN true (remote_domain_get_autostart_ret: int)', async () => {
    expect((await sent((c) => c.domainGetAutostart(DOM), Buffer.from('00000001', 'hex'))).result).toBe(true);
    expect((await sent((c) => c.domainGetAutostart(DOM), Buffer.from('00000000', 'hex'))).result).toBe(false);
  });
});

describe('readNodeInfo', () => {
  it('GIVEN remote_node_get_info_ret with model x86_64 WHEN read THEN each char took 4 bytes, the model ends at the first NUL and the rest follows', () => {
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
