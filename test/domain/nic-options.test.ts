/**
 * src/domain/nic-options.ts: each NIC option rendered where libvirt keeps it in <interface>, parsed back, and
 * checked; every allowed value the table lists parses, and one it does not is refused by parse and checks alike.
 */
import { NIC_OPTIONS, parseDomainXml, renderDomainXml, validateDomainSpec, type DomainInterface, type DomainSpec } from '../../src/domain';
import { DOMAIN_FIELDS } from '../../src/fields';
import { minimalSpec } from './fixtures/specs';

const withNic = (nic: Partial<DomainInterface>): DomainSpec => ({
  ...minimalSpec,
  interfaces: [{ type: 'network', network: 'default', mac: '52:54:00:00:00:01', ...nic } as DomainInterface],
});
const errorPaths = (spec: DomainSpec) =>
  validateDomainSpec(spec)
    .filter((d) => d.severity === 'error')
    .map((d) => d.path);
const T = DOMAIN_FIELDS.fields.network_interface.fields;

describe('NIC_OPTIONS', () => {
  test('GIVEN the table WHEN its NIC fields are listed THEN every option is one of them, under its attribute name', () => {
    for (const o of Object.values(NIC_OPTIONS)) expect(Object.keys(T)).toContain(o.attribute);
  });

  test('GIVEN mtu, vlan and link state down WHEN rendered THEN each is where libvirt keeps it and parses back', () => {
    const xml = renderDomainXml(withNic({ mtu: 9000, vlan: 42, linkState: 'down', model: 'e1000' }));
    expect(xml).toMatch(/<mtu size=["']9000["']\s*\/>/);
    expect(xml).toMatch(/<vlan>\s*<tag id=["']42["']\s*\/>\s*<\/vlan>/);
    expect(xml).toMatch(/<link state=["']down["']\s*\/>/);
    expect(xml).toMatch(/<model type=["']e1000["']\s*\/>/);
    expect(parseDomainXml(xml).interfaces[0]).toEqual({
      type: 'network',
      network: 'default',
      mac: '52:54:00:00:00:01',
      mtu: 9000,
      vlan: 42,
      linkState: 'down',
      model: 'e1000',
    });
  });

  test('GIVEN a NIC without options WHEN rendered THEN the model is virtio (libvirt would pick another) and parse leaves the defaults out', () => {
    const xml = renderDomainXml(withNic({}));
    expect(xml).toMatch(/<model type=["']virtio["']\s*\/>/);
    expect(xml).not.toMatch(/<link /);
    expect(parseDomainXml(xml).interfaces[0]).toEqual({ type: 'network', network: 'default', mac: '52:54:00:00:00:01' });
  });

  test.each(Object.entries(NIC_OPTIONS).flatMap(([key, o]) => ('values' in o ? Object.keys(o.values).map((v) => [key, v] as const) : [])))(
    'GIVEN %s %s, a value of the table, WHEN checked, rendered and parsed THEN it is accepted and read back',
    (key, value) => {
      const spec = withNic({ [key]: value });
      expect(errorPaths(spec)).toEqual([]);
      expect(parseDomainXml(renderDomainXml(spec)).interfaces[0][key as 'model'] ?? NIC_OPTIONS[key as 'model'].default).toBe(value);
    },
  );

  test.each([
    ['model', 'ne2k_pci', /<model type=["']virtio["']\s*\/>/, "<model type='ne2k_pci'/>"],
    ['linkState', 'sideways', /<link state=/, "<link state='sideways'/>"],
  ])('GIVEN %s %s, outside the table, WHEN checked or parsed THEN both refuse it', (key, value, _, element) => {
    expect(errorPaths(withNic({ [key]: value }))).toEqual([['interfaces', 0, key]]);
    const xml = renderDomainXml(withNic({})).replace(/<model type=["']virtio["']\s*\/>/, element);
    expect(() => parseDomainXml(xml)).toThrow(/unsupported/);
  });

  test.each([
    ['an MTU of 67', { mtu: 67 }, 'mtu'],
    ['an MTU of 65536', { mtu: 65536 }, 'mtu'],
    ['a VLAN tag of 4096', { vlan: 4096 }, 'vlan'],
    ['a VLAN tag of 1.5', { vlan: 1.5 }, 'vlan'],
    ['an mtu on a direct NIC', { type: 'direct', dev: 'eth0', mode: 'vepa', mtu: 1500 }, 'mtu'],
    ['a vlan on a restricted user NIC', { type: 'user', restrict: true, vlan: 5 }, 'vlan'],
    ['link state down on a restricted user NIC', { type: 'user', restrict: true, linkState: 'down' }, 'linkState'],
  ] as const)('GIVEN %s WHEN checked THEN the option is refused', (_, nic, key) => {
    expect(errorPaths(withNic(nic as Partial<DomainInterface>))).toEqual([['interfaces', 0, key]]);
  });

  test('GIVEN two VLAN tags or a trunk WHEN parsed THEN it is refused (the model holds one tag)', () => {
    const xml = renderDomainXml(withNic({ vlan: 7 }));
    expect(() => parseDomainXml(xml.replace(/<tag id=["']7["']\s*\/>/, "<tag id='7'/><tag id='8'/>"))).toThrow(/more than one <tag>/);
    expect(() => parseDomainXml(xml.replace('<vlan>', "<vlan trunk='yes'>"))).toThrow(/single VLAN tag/);
  });
});
