/**
 * The domain model's room to grow and its single devices (src/domain): `<memory>` beside `<currentMemory>`,
 * `<vcpu current=...>`, `<interface><link state='down'/>`, round trips through libvirt's XML, the checks of the
 * maxima, and the device XML that live attach, detach and update send.
 */
import { parseDomainXml, renderDiskXml, renderDomainXml, renderInterfaceXml, validateDomainSpec, type DomainSpec } from '../../src/domain';

/** The XML on one line, attributes in double quotes as the builder writes them. */
const flat = (xml: string) => xml.replace(/>\s+</g, '><').trim();

const BASE: DomainSpec = { name: 'vstest-core-unit', type: 'qemu', memoryMiB: 1024, vcpu: 2, disks: [], interfaces: [] };

describe('maximum memory and vCPUs', () => {
  test('GIVEN maxima above the current values WHEN rendered THEN <memory> and <vcpu> hold the maxima, <currentMemory> and current= the values', () => {
    const xml = flat(renderDomainXml({ ...BASE, maxMemoryMiB: 4096, maxVcpu: 4 }));
    expect(xml).toContain('<memory unit="KiB">4194304</memory><currentMemory unit="KiB">1048576</currentMemory>');
    expect(xml).toContain('<vcpu placement="static" current="2">4</vcpu>');
  });

  test('GIVEN no maxima WHEN rendered THEN both memory elements and <vcpu> hold the values, as before', () => {
    const xml = flat(renderDomainXml(BASE));
    expect(xml).toContain('<memory unit="KiB">1048576</memory><currentMemory unit="KiB">1048576</currentMemory><vcpu>2</vcpu>');
  });

  test.each<[string, Partial<DomainSpec>]>([
    ['maxima', { maxMemoryMiB: 4096, maxVcpu: 4 }],
    ['no maxima', {}],
    ['a NIC with its link down', { interfaces: [{ type: 'network', network: 'n', mac: '52:54:00:00:00:01', linkState: 'down' }] }],
  ])('GIVEN %s WHEN rendered and parsed THEN the spec comes back in normal form', (_, over) => {
    const spec = { ...BASE, ...over };
    expect(parseDomainXml(renderDomainXml(spec))).toEqual(spec);
  });

  test.each<[string, Partial<DomainSpec>, (string | number)[]]>([
    ['max memory below memory', { maxMemoryMiB: 512 }, ['maxMemoryMiB']],
    ['max vCPUs below vCPUs', { maxVcpu: 1 }, ['maxVcpu']],
    ['max vCPUs above 255', { maxVcpu: 300 }, ['maxVcpu']],
    [
      'link down on a restricted user-mode NIC',
      { interfaces: [{ type: 'user', restrict: true, linkState: 'down' }] },
      ['interfaces', 0, 'linkState'],
    ],
  ])('GIVEN %s WHEN validated THEN an error names the field', (_, over, path) => {
    expect(validateDomainSpec({ ...BASE, ...over })).toEqual([expect.objectContaining({ severity: 'error', path })]);
  });
});

describe('single device XML', () => {
  test('GIVEN a volume disk WHEN rendered alone THEN one <disk> element with its source and target', () => {
    const disk = renderDiskXml({
      source: { pool: 'default', volume: 'data.qcow2' },
      target: 'vdb',
      bus: 'virtio',
      device: 'disk',
      format: 'qcow2',
    });
    expect(flat(disk)).toBe(
      '<disk type="volume" device="disk"><driver name="qemu" type="qcow2"/><source pool="default" volume="data.qcow2"/><target dev="vdb" bus="virtio"/></disk>',
    );
  });

  test('GIVEN a network NIC with its link down WHEN rendered alone THEN one <interface> with mac, source, model and link', () => {
    expect(flat(renderInterfaceXml({ type: 'network', network: 'lab', mac: '52:54:00:00:00:02', linkState: 'down' }))).toBe(
      '<interface type="network"><mac address="52:54:00:00:00:02"/><source network="lab"/><model type="virtio"/><link state="down"/></interface>',
    );
  });

  test('GIVEN a restricted user-mode NIC WHEN rendered alone THEN it is refused: it has no device XML', () => {
    expect(() => renderInterfaceXml({ type: 'user', restrict: true })).toThrow(/cannot be attached or updated live/);
  });
});
