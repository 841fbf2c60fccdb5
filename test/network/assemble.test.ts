/** assembleNetworkSpec: subnets and separately listed static hosts → one NetworkSpec, with where each input went. */
import { assembleNetworkSpec, type NetworkInput } from '../../src/network';

const BASE: NetworkInput = { name: 'lab', mode: 'none', subnets: [], staticHosts: [], dnsHosts: [] };

describe('assembleNetworkSpec', () => {
  it('GIVEN an isolated network WHEN assembled THEN the spec has no <forward> and the optional fields given', () => {
    const { spec } = assembleNetworkSpec({ ...BASE, bridge: 'virbr9', domain: 'lab', mtu: 9000, forwardDev: 'eth0' });
    expect(spec).toEqual({ name: 'lab', bridge: 'virbr9', domain: 'lab', mtu: 9000, ips: [], dnsHosts: [] });
  });

  it('GIVEN a forward mode WHEN assembled THEN <forward> carries it and the device', () => {
    expect(assembleNetworkSpec({ ...BASE, mode: 'nat', forwardDev: 'eth0' }).spec.forward).toEqual({ mode: 'nat', dev: 'eth0' });
  });

  it('GIVEN static hosts listed apart WHEN assembled THEN each sits in the subnet holding its address, MACs lowercased', () => {
    const r = assembleNetworkSpec({
      ...BASE,
      subnets: [
        { address: '10.0.0.1/24', dhcpRanges: [{ start: '10.0.0.100', end: '10.0.0.199' }] },
        { address: 'fd00::1/64', dhcpRanges: [] },
      ],
      staticHosts: [{ ip: 'fd00::10', hostname: 'six' }, { ip: '10.0.0.10', mac: '52:54:00:AA:BB:CC' }, { ip: '192.168.1.1' }],
    });
    expect(r.spec.ips.map((ip) => ip.dhcpHosts)).toEqual([
      [{ ip: '10.0.0.10', mac: '52:54:00:aa:bb:cc' }],
      [{ ip: 'fd00::10', name: 'six' }],
    ]);
    expect(r.placement).toEqual([[1, 0], [0, 0], undefined]);
    expect(r.badSubnets).toEqual([]);
  });

  it('GIVEN a subnet address with surrounding white space WHEN assembled THEN it is read without it', () => {
    const r = assembleNetworkSpec({ ...BASE, subnets: [{ address: ' 10.2.0.1/16 ', dhcpRanges: [] }] });
    expect([r.spec.ips.map((ip) => [ip.family, ip.address, ip.prefix]), r.badSubnets]).toEqual([[['ipv4', '10.2.0.1', 16]], []]);
  });

  it('GIVEN a subnet without a prefix length WHEN assembled THEN it is left out and named, and the others keep their source index', () => {
    const r = assembleNetworkSpec({
      ...BASE,
      subnets: [
        { address: '10.0.0.1', dhcpRanges: [] },
        { address: '10.1.0.1/16', dhcpRanges: [] },
      ],
    });
    expect(r.badSubnets).toEqual([0]);
    expect(r.ipSource).toEqual([1]);
    expect(r.spec.ips).toEqual([{ family: 'ipv4', address: '10.1.0.1', prefix: 16, dhcpRanges: [], dhcpHosts: [] }]);
  });
});
