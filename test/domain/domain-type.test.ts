import { chooseDomainType, type DomainTypeProbe } from '../../src/domain';

describe('chooseDomainType', () => {
  const cases: [DomainTypeProbe, 'kvm' | 'qemu'][] = [
    [{ kvmDeviceUsable: true, cpuHasVirtExtensions: true, probeBootWorked: true }, 'kvm'],
    [{ kvmDeviceUsable: true, cpuHasVirtExtensions: true, probeBootWorked: false }, 'qemu'],
    [{ kvmDeviceUsable: true, cpuHasVirtExtensions: true }, 'qemu'],
    [{ kvmDeviceUsable: false, cpuHasVirtExtensions: true, probeBootWorked: true }, 'qemu'],
    [{ kvmDeviceUsable: true, cpuHasVirtExtensions: false, probeBootWorked: true }, 'qemu'],
  ];
  test.each(cases)('GIVEN probe %o WHEN choosing THEN the type is %s', (probe, expected) => {
    expect(chooseDomainType(probe)).toBe(expected);
  });
});
