import { formatPath } from '../../src/diagnostics';
import { validateNetworkSpec, type NetworkSpec } from '../../src/network';
import { isolatedSpec, specTable } from './fixtures/specs';

const ip4 = (over: Partial<NetworkSpec['ips'][number]> = {}): NetworkSpec['ips'][number] => ({ ...isolatedSpec.ips[0], ...over });

function problems(spec: NetworkSpec): string[] {
  return validateNetworkSpec(spec).map((d) => `${formatPath(d.path)}: ${d.summary}`);
}

describe('validateNetworkSpec', () => {
  test.each(specTable)('GIVEN the valid spec "%s" WHEN validated THEN no problems', (_n, spec) => {
    expect(problems(spec)).toEqual([]);
  });

  test.each<[string, Partial<NetworkSpec>, string]>([
    ['a name with a slash', { name: 'a/b' }, 'name: Invalid network name'],
    ['a bad uuid', { uuid: 'nope' }, 'uuid: Invalid UUID'],
    ['an unknown forward mode', { forward: { mode: 'hostdev' as never } }, 'forward.mode: Invalid forward mode'],
    [
      'a forward device in bridge mode',
      { forward: { mode: 'bridge', dev: 'eth0' }, bridge: 'br0', ips: [] },
      'forward.dev: Invalid forward device',
    ],
    ['bridge mode without a bridge', { forward: { mode: 'bridge' }, ips: [] }, 'bridge: Missing bridge'],
    ['bridge mode with addresses', { forward: { mode: 'bridge' }, bridge: 'br0' }, 'ips: Not allowed in bridge mode'],
    ['a too long bridge name', { bridge: 'a-very-long-bridge-name' }, 'bridge: Invalid bridge name'],
    ['an MTU of 20', { mtu: 20 }, 'mtu: Invalid MTU'],
    ['a bad domain', { domain: 'bad_domain!' }, 'domain: Invalid domain name'],
    ['a bad address', { ips: [ip4({ address: '10.0.0.300' })] }, 'ips[0].address: Invalid address'],
    ['a /31 subnet', { ips: [ip4({ prefix: 31, dhcpRanges: [] })] }, 'ips[0].prefix: Invalid prefix length'],
    [
      'a range outside the subnet',
      { ips: [ip4({ dhcpRanges: [{ start: '10.213.50.100', end: '10.213.51.5' }] })] },
      'ips[0].dhcpRanges[0].end: DHCP range outside the subnet',
    ],
    [
      'a backwards range',
      { ips: [ip4({ dhcpRanges: [{ start: '10.213.50.100', end: '10.213.50.50' }] })] },
      'ips[0].dhcpRanges[0].end: Empty DHCP range',
    ],
    [
      'a range over the host address',
      { ips: [ip4({ dhcpRanges: [{ start: '10.213.50.1', end: '10.213.50.50' }] })] },
      'ips[0].dhcpRanges[0].start: DHCP range holds the host address',
    ],
    [
      'a static host outside the subnet',
      { ips: [ip4({ dhcpHosts: [{ mac: '52:54:00:00:00:01', ip: '10.9.9.9' }] })] },
      'ips[0].dhcpHosts[0].ip: Address outside the subnet',
    ],
    [
      'a static host with a bad MAC',
      { ips: [ip4({ dhcpHosts: [{ mac: '52:54:00:00:01', ip: '10.213.50.9' }] })] },
      'ips[0].dhcpHosts[0].mac: Invalid MAC address',
    ],
    [
      'a static IPv4 host with neither MAC nor name',
      { ips: [ip4({ dhcpHosts: [{ ip: '10.213.50.9' }] })] },
      'ips[0].dhcpHosts[0].mac: Missing MAC address',
    ],
    [
      'two hosts with one MAC',
      {
        ips: [
          ip4({
            dhcpHosts: [
              { mac: '52:54:00:00:00:01', ip: '10.213.50.9' },
              { mac: '52:54:00:00:00:01', ip: '10.213.50.8' },
            ],
          }),
        ],
      },
      'ips[0].dhcpHosts[1].mac: Duplicate MAC address',
    ],
    [
      'two IPv4 subnets with DHCP',
      { ips: [ip4(), ip4({ address: '10.213.60.1', dhcpRanges: [{ start: '10.213.60.10', end: '10.213.60.20' }] })] },
      'ips[1].dhcpRanges: Second DHCP subnet',
    ],
    ['a DNS host without names', { dnsHosts: [{ ip: '10.213.50.5', hostnames: [] }] }, 'dnsHosts[0].hostnames: Missing hostnames'],
    ['a DNS host with a bad name', { dnsHosts: [{ ip: '10.213.50.5', hostnames: ['-x'] }] }, 'dnsHosts[0].hostnames[0]: Invalid hostname'],
  ])('GIVEN %s WHEN validated THEN "%s"', (_n, over, expected) => {
    expect(problems({ ...isolatedSpec, ...over })).toContain(expected);
  });
});
