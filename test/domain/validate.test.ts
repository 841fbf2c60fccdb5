import { validateDomainSpec, type DomainSpec } from '../../src/domain';
import { fixtureSpec, minimalSpec, specTable } from './fixtures/specs';

const cdrom = { source: { file: '/seed.iso' }, target: 'sda', bus: 'sata', device: 'cdrom', format: 'raw', readonly: true } as const;

describe('validateDomainSpec', () => {
  test.each(specTable)('GIVEN the valid spec "%s" WHEN validated THEN there are no diagnostics', (_name, spec) => {
    expect(validateDomainSpec(spec)).toEqual([]);
  });

  const invalid: [string, DomainSpec, (string | number)[]][] = [
    ['a name with a slash', { ...minimalSpec, name: 'a/b' }, ['name']],
    ['a name starting with a dash', { ...minimalSpec, name: '-vm' }, ['name']],
    ['a 65-character name', { ...minimalSpec, name: 'a'.repeat(65) }, ['name']],
    ['a malformed uuid', { ...minimalSpec, uuid: '1234' }, ['uuid']],
    ['an unknown domain type', { ...minimalSpec, type: 'xen' as 'kvm' }, ['type']],
    ['63 MiB of memory', { ...minimalSpec, memoryMiB: 63 }, ['memoryMiB']],
    ['fractional memory', { ...minimalSpec, memoryMiB: 100.5 }, ['memoryMiB']],
    ['0 vCPUs', { ...minimalSpec, vcpu: 0 }, ['vcpu']],
    ['256 vCPUs', { ...minimalSpec, vcpu: 256 }, ['vcpu']],
    ['custom CPU mode without model', { ...minimalSpec, cpuMode: 'custom' }, ['cpuModel']],
    ['a CPU model without custom mode', { ...minimalSpec, cpuModel: 'qemu64' }, ['cpuModel']],
    ['host-passthrough under TCG', { ...minimalSpec, cpuMode: 'host-passthrough' }, ['cpuMode']],
    ['an unknown firmware', { ...minimalSpec, firmware: 'coreboot' as 'efi' }, ['firmware']],
    ['secure boot without UEFI', { ...minimalSpec, secureBoot: true }, ['secureBoot']],
    ['secure boot with BIOS firmware', { ...minimalSpec, firmware: 'bios', secureBoot: true }, ['secureBoot']],
    ['a relative kernel path', { ...minimalSpec, os: { kernel: 'vmlinuz' } }, ['os', 'kernel']],
    ['an initrd without kernel', { ...minimalSpec, os: { initrd: '/initrd' } }, ['os', 'initrd']],
    ['a multi-line kernel command line', { ...minimalSpec, os: { kernel: '/k', cmdline: 'a\nb' } }, ['os', 'cmdline']],
    [
      'a relative disk file',
      { ...minimalSpec, disks: [{ ...minimalSpec.disks[0], source: { file: 'a.qcow2' } }] },
      ['disks', 0, 'source', 'file'],
    ],
    [
      'an empty pool name',
      { ...minimalSpec, disks: [{ ...minimalSpec.disks[0], source: { pool: '', volume: 'v' } }] },
      ['disks', 0, 'source', 'pool'],
    ],
    ['an sdX target on virtio', { ...minimalSpec, disks: [{ ...minimalSpec.disks[0], target: 'sda' }] }, ['disks', 0, 'target']],
    [
      'a duplicate disk target',
      { ...minimalSpec, disks: [minimalSpec.disks[0], { ...minimalSpec.disks[0], source: { file: '/b' } }] },
      ['disks', 1, 'target'],
    ],
    ['a writable cdrom', { ...minimalSpec, disks: [{ ...cdrom, readonly: undefined }] }, ['disks', 0, 'readonly']],
    ['a cdrom on virtio', { ...minimalSpec, disks: [{ ...cdrom, bus: 'virtio', target: 'vdb' }] }, ['disks', 0, 'bus']],
    ['an unknown disk format', { ...minimalSpec, disks: [{ ...minimalSpec.disks[0], format: 'vmdk' as 'raw' }] }, ['disks', 0, 'format']],
    ['a malformed MAC', { ...minimalSpec, interfaces: [{ type: 'user', mac: '52:54:00:00:00' }] }, ['interfaces', 0, 'mac']],
    ['a multicast MAC', { ...minimalSpec, interfaces: [{ type: 'user', mac: '01:00:5e:00:00:01' }] }, ['interfaces', 0, 'mac']],
    ['an empty network name', { ...minimalSpec, interfaces: [{ type: 'network', network: '' }] }, ['interfaces', 0, 'network']],
    ['an unknown NIC model', { ...minimalSpec, interfaces: [{ type: 'user', model: 'ne2k' as 'virtio' }] }, ['interfaces', 0, 'model']],
    ['a fw_cfg name outside opt/', { ...minimalSpec, fwCfg: [{ name: 'etc/x', file: '/x' }] }, ['fwCfg', 0, 'name']],
    ['a fw_cfg name of 56 characters', { ...minimalSpec, fwCfg: [{ name: `opt/${'x'.repeat(52)}`, file: '/x' }] }, ['fwCfg', 0, 'name']],
    ['a duplicate fw_cfg name', { ...minimalSpec, fwCfg: [fixtureSpec.fwCfg![0], fixtureSpec.fwCfg![0]] }, ['fwCfg', 1, 'name']],
    ['a relative fw_cfg file', { ...minimalSpec, fwCfg: [{ name: 'opt/x', file: 'x' }] }, ['fwCfg', 0, 'file']],
    ['a relative serial log', { ...minimalSpec, serialLogFile: 'serial.log' }, ['serialLogFile']],
    ['a metadata value with a carriage return', { ...minimalSpec, metadata: { note: 'a\rb' } }, ['metadata', 'note']],
  ];

  test.each(invalid)('GIVEN %s WHEN validated THEN one error points at the field', (_name, spec, path) => {
    const diagnostics = validateDomainSpec(spec);
    expect(diagnostics.map((d) => [d.severity, d.path])).toEqual([['error', path]]);
  });

  test('GIVEN an error WHEN validated THEN the detail says what was given', () => {
    const [diagnostic] = validateDomainSpec({ ...minimalSpec, vcpu: 300 });
    expect(diagnostic.detail).toContain('300');
  });
});
