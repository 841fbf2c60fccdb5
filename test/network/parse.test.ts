import { NetworkXmlParseError, parseNetworkXml, renderNetworkXml } from '../../src/network';
import { specTable } from './fixtures/specs';

describe('parseNetworkXml', () => {
  test.each(specTable)('GIVEN the spec "%s" WHEN rendered and parsed THEN the same spec comes back', (_name, spec) => {
    expect(parseNetworkXml(renderNetworkXml(spec))).toStrictEqual(spec);
  });

  test("GIVEN libvirt's default network as net-dumpxml prints it WHEN parsed THEN netmask becomes a prefix and libvirt's additions are ignored", () => {
    const xml = `<network connections='1'>
  <name>default</name>
  <uuid>3a1f9b59-1b3c-4f0e-8f1f-6a4c2f5b7c11</uuid>
  <forward mode='nat'>
    <nat>
      <port start='1024' end='65535'/>
    </nat>
  </forward>
  <bridge name='virbr0' stp='on' delay='0'/>
  <mac address='52:54:00:0e:8a:1c'/>
  <ip address='192.168.122.1' netmask='255.255.255.0'>
    <dhcp>
      <range start='192.168.122.2' end='192.168.122.254'/>
      <host mac='52:54:00:AA:BB:CC' ip='192.168.122.10'/>
    </dhcp>
  </ip>
</network>`;
    expect(parseNetworkXml(xml)).toStrictEqual({
      name: 'default',
      uuid: '3a1f9b59-1b3c-4f0e-8f1f-6a4c2f5b7c11',
      forward: { mode: 'nat' },
      bridge: 'virbr0',
      ips: [
        {
          family: 'ipv4',
          address: '192.168.122.1',
          prefix: 24,
          dhcpRanges: [{ start: '192.168.122.2', end: '192.168.122.254' }],
          dhcpHosts: [{ mac: '52:54:00:aa:bb:cc', ip: '192.168.122.10' }],
        },
      ],
      dnsHosts: [],
    });
  });

  test.each([
    ['<domain/>', '(document)'],
    ['<network><uuid>x</uuid></network>', 'network/name'],
    ["<network><name>n</name><forward mode='hostdev'/></network>", 'network/forward/@mode'],
    ["<network><name>n</name><ip address='10.0.0.1'/></network>", 'network/ip[0]/@prefix'],
  ])('GIVEN %s WHEN parsed THEN NetworkXmlParseError at %s', (xml, at) => {
    expect(() => parseNetworkXml(xml)).toThrow(NetworkXmlParseError);
    try {
      parseNetworkXml(xml);
    } catch (e) {
      expect((e as NetworkXmlParseError).at).toBe(at);
    }
  });
});
