import { renderNetworkData, renderNetworkV1, renderNetworkV2, type NetworkSpec } from '../../../src/seed';

const spec: NetworkSpec = {
  version: 2,
  interfaces: [
    {
      name: 'lan0',
      mac: '52:54:00:AA:00:01',
      addresses: ['192.168.1.10/24', 'fd00::10/64'],
      gateway4: '192.168.1.1',
      gateway6: 'fd00::1',
      nameservers: ['192.168.1.1'],
      search: ['lab'],
      mtu: 1400,
    },
    { dhcp4: true },
  ],
};

describe('network renderers', () => {
  it('GIVEN static and dhcp interfaces WHEN rendered as v1 THEN physical entries carry subnets', () => {
    expect(renderNetworkV1(spec)).toEqual({
      version: 1,
      config: [
        {
          type: 'physical',
          name: 'lan0',
          mac_address: '52:54:00:aa:00:01',
          mtu: 1400,
          subnets: [
            { type: 'static', address: '192.168.1.10/24', gateway: '192.168.1.1', dns_nameservers: ['192.168.1.1'], dns_search: ['lab'] },
            { type: 'static6', address: 'fd00::10/64', gateway: 'fd00::1', dns_nameservers: ['192.168.1.1'], dns_search: ['lab'] },
          ],
        },
        { type: 'physical', name: 'eth1', subnets: [{ type: 'dhcp4' }] },
      ],
    });
  });

  it('GIVEN the same input WHEN rendered as v2 THEN ethernets match by MAC and set the name', () => {
    expect(renderNetworkV2(spec)).toEqual({
      version: 2,
      ethernets: {
        lan0: {
          match: { macaddress: '52:54:00:aa:00:01' },
          'set-name': 'lan0',
          dhcp4: false,
          dhcp6: false,
          addresses: ['192.168.1.10/24', 'fd00::10/64'],
          gateway4: '192.168.1.1',
          gateway6: 'fd00::1',
          nameservers: { addresses: ['192.168.1.1'], search: ['lab'] },
          mtu: 1400,
        },
        eth1: { dhcp4: true, dhcp6: false },
      },
    });
  });

  it('GIVEN force_dhcp WHEN rendered THEN every interface is DHCPv4 only', () => {
    expect(renderNetworkV2({ ...spec, force_dhcp: true }).ethernets).toEqual({
      lan0: {
        match: { macaddress: '52:54:00:aa:00:01' },
        'set-name': 'lan0',
        dhcp4: true,
        dhcp6: false,
        nameservers: { addresses: ['192.168.1.1'], search: ['lab'] },
        mtu: 1400,
      },
      eth1: { dhcp4: true, dhcp6: false },
    });
  });

  it('GIVEN the same input WHEN rendered as network_data.json THEN links, networks and dns services follow the OpenStack format', () => {
    const nd = renderNetworkData(spec);
    expect(nd.links).toEqual([
      { id: 'lan0', name: 'lan0', type: 'phy', ethernet_mac_address: '52:54:00:aa:00:01', mtu: 1400 },
      { id: 'eth1', name: 'eth1', type: 'phy' },
    ]);
    expect(nd.networks).toEqual([
      {
        id: 'network0',
        link: 'lan0',
        type: 'ipv4',
        ip_address: '192.168.1.10',
        netmask: '255.255.255.0',
        gateway: '192.168.1.1',
        routes: [],
        dns_nameservers: ['192.168.1.1'],
        dns_search: ['lab'],
      },
      {
        id: 'network1',
        link: 'lan0',
        type: 'ipv6',
        ip_address: 'fd00::10',
        netmask: 'ffff:ffff:ffff:ffff:0:0:0:0',
        gateway: 'fd00::1',
        routes: [],
        dns_nameservers: ['192.168.1.1'],
        dns_search: ['lab'],
      },
      { id: 'network2', link: 'eth1', type: 'ipv4_dhcp' },
    ]);
    expect(nd.services).toEqual([{ type: 'dns', address: '192.168.1.1' }]);
  });
});
