import { ValidationError } from '../../src/diagnostics';
import { renderDhcpHostXml, renderDnsHostXml, renderNetworkXml } from '../../src/network';
import { isolatedSpec, specTable } from './fixtures/specs';

describe('renderNetworkXml', () => {
  test('GIVEN an isolated network WHEN rendered THEN it has no <forward> and DHCP on its subnet', () => {
    expect(renderNetworkXml(isolatedSpec)).toBe(
      `<network>
  <name>isolated</name>
  <ip address="10.213.50.1" prefix="24">
    <dhcp>
      <range start="10.213.50.100" end="10.213.50.199"/>
    </dhcp>
  </ip>
</network>
`,
    );
  });

  test.each([
    ['nat', '<forward mode="nat"/>'],
    ['route with a device', '<forward mode="route" dev="lo"/>'],
    ['open', '<forward mode="open"/>'],
    ['bridge', '<forward mode="bridge"/>\n  <bridge name="br0"/>'],
  ])('GIVEN the "%s" network WHEN rendered THEN the forward element is %s', (name, expected) => {
    expect(renderNetworkXml(specTable.find(([n]) => n === name)![1])).toContain(expected);
  });

  test('GIVEN every option WHEN rendered THEN domain is local-only, MTU, DNS hosts, IPv6 and static hosts appear', () => {
    const xml = renderNetworkXml(specTable[1][1]);
    expect(xml).toContain('<domain name="vms.test" localOnly="yes"/>');
    expect(xml).toContain('<mtu size="9000"/>');
    expect(xml).toContain('<host ip="10.213.51.20">\n      <hostname>db</hostname>\n      <hostname>db.vms.test</hostname>');
    expect(xml).toContain('<ip family="ipv6" address="fd00:213:51::1" prefix="64">');
    expect(xml).toContain('<host mac="52:54:00:aa:00:01" name="web1" ip="10.213.51.10"/>');
  });

  test('GIVEN an invalid spec WHEN rendered THEN it throws ValidationError naming the field', () => {
    expect(() => renderNetworkXml({ ...isolatedSpec, mtu: 10 })).toThrow(ValidationError);
    expect(() => renderNetworkXml({ ...isolatedSpec, mtu: 10 })).toThrow(/mtu: Invalid MTU/);
  });
});

describe('update fragments', () => {
  test('GIVEN a static DHCP host WHEN rendered THEN it is one <host> element with a lowercase MAC', () => {
    expect(renderDhcpHostXml({ mac: '52:54:00:AA:00:01', name: 'web1', ip: '10.0.0.5' })).toBe(
      '<host mac="52:54:00:aa:00:01" name="web1" ip="10.0.0.5"/>',
    );
  });
  test('GIVEN a DNS host WHEN rendered THEN its hostnames are child elements', () => {
    expect(renderDnsHostXml({ ip: '10.0.0.5', hostnames: ['a', 'b'] })).toBe(
      '<host ip="10.0.0.5">\n  <hostname>a</hostname>\n  <hostname>b</hostname>\n</host>',
    );
  });
});
