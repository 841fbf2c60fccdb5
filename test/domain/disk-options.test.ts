/** src/domain/disk-options.ts: each disk option rendered where libvirt keeps it, parsed back, and checked. */
import { DISK_OPTIONS, parseDomainXml, renderDomainXml, validateDomainSpec, type DomainSpec } from '../../src/domain';
import { DOMAIN_FIELDS } from '../../src/fields';
import { minimalSpec } from './fixtures/specs';

const withDisk = (disk: Partial<DomainSpec['disks'][number]>): DomainSpec => ({
  ...minimalSpec,
  disks: [{ ...minimalSpec.disks[0], target: 'sda', bus: 'sata', ...disk }],
});

describe('DISK_OPTIONS', () => {
  test('GIVEN the table WHEN its disk fields are listed THEN every option is one of them, under its attribute name', () => {
    const fields = Object.keys(DOMAIN_FIELDS.fields.disk.fields);
    for (const o of Object.values(DISK_OPTIONS)) expect(fields).toContain(o.attribute);
  });

  test('GIVEN rotation_rate 1 on a sata disk WHEN rendered THEN it is <target rotation_rate=1> and parses back', () => {
    const spec = withDisk({ rotationRate: 1 });
    const xml = renderDomainXml(spec);
    expect(xml).toMatch(/<target dev=["']sda["'] bus=["']sata["'] rotation_rate=["']1["']\s*\/>/);
    expect(parseDomainXml(xml).disks[0].rotationRate).toBe(1);
  });

  test.each([
    [1, 'sata', true],
    [1025, 'scsi', true],
    [65534, 'sata', true],
    [1024, 'sata', false],
    [65535, 'sata', false],
    [0, 'sata', false],
    [7200.5, 'sata', false],
    [7200, 'virtio', false],
  ] as const)('GIVEN rotation_rate %s on bus %s WHEN validated THEN valid is %s', (rate, bus, valid) => {
    const errors = validateDomainSpec(withDisk({ rotationRate: rate, bus, target: bus === 'virtio' ? 'vda' : 'sda' })).filter(
      (d) => d.severity === 'error',
    );
    expect(errors.map((d) => d.path)).toEqual(valid ? [] : [['disks', 0, 'rotationRate']]);
  });
});
