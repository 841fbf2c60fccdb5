import { BaseImage, Snapshot, VirtualMachine } from '../../../constructs';
import { byName, synth } from '../synth-helpers';

describe('Snapshot', () => {
  test('GIVEN a VirtualMachine WHEN snapshotted THEN virtseed_snapshot refers to its domain id with name and description', () => {
    const out = synth((s) => {
      const vm = new VirtualMachine(s, 'vm', { name: 'web1', baseImage: BaseImage.fromVolume('/var/lib/libvirt/images/base.qcow2') });
      new Snapshot(s, 'snap', { machine: vm, name: 'before-upgrade', description: 'web1 before 2.0' });
    });
    const domain = Object.keys(out.resource?.virtseed_domain ?? {})[0];
    expect(byName(out, 'virtseed_snapshot', 'before-upgrade').body).toEqual({
      domain_id: `\${virtseed_domain.${domain}.uuid}`,
      name: 'before-upgrade',
      description: 'web1 before 2.0',
    });
  });

  test('GIVEN a domain name and memory = false WHEN synthesized THEN both are passed through', () => {
    const out = synth((s) => new Snapshot(s, 'snap', { machine: 'web1', name: 's1', memory: false }));
    expect(byName(out, 'virtseed_snapshot', 's1').body).toEqual({ domain_id: 'web1', name: 's1', memory: false });
  });

  test('GIVEN a VirtualMachine on host h2 WHEN snapshotted THEN the snapshot is on host h2 too', () => {
    const out = synth((s) => {
      const vm = new VirtualMachine(s, 'vm', {
        name: 'web1',
        host: 'h2',
        baseImage: BaseImage.fromVolume('/var/lib/libvirt/images/base.qcow2'),
      });
      new Snapshot(s, 'snap', { machine: vm, name: 's1' });
    });
    expect(byName(out, 'virtseed_snapshot', 's1').body.host).toBe('h2');
  });

  test('GIVEN a domain name and a host WHEN synthesized THEN the host is passed through', () => {
    const out = synth((s) => new Snapshot(s, 'snap', { machine: 'web1', name: 's1', host: 'h3' }));
    expect(byName(out, 'virtseed_snapshot', 's1').body).toEqual({ domain_id: 'web1', name: 's1', host: 'h3' });
  });

  test('GIVEN a name with a space WHEN constructed THEN it throws naming Snapshot.name', () => {
    expect(() => synth((s) => new Snapshot(s, 'snap', { machine: 'web1', name: 'before upgrade' }))).toThrow(
      /Snapshot\.name: invalid name/,
    );
  });
});
