/** subnetClashes (provider/src/resources/private/network-subnets.ts) and subnetsOverlap (src/ip.ts). */
import { subnetsOverlap } from '../../../src/ip';
import { subnetClashes } from '../../../provider/src/resources/private/network-subnets';

describe('subnetsOverlap', () => {
  test.each([
    ['10.0.0.1/24', '10.0.0.200/24', true],
    ['10.0.0.1/24', '10.0.1.1/24', false],
    ['10.0.0.1/16', '10.0.200.1/24', true],
    ['10.0.200.1/24', '10.0.0.1/16', true],
    ['fd00:1::1/64', 'fd00:1::99/64', true],
    ['10.0.0.1/24', 'fd00:1::1/64', false],
  ])('%s and %s: %s', (a, b, expected) => {
    const [aa, ap] = a.split('/');
    const [ba, bp] = b.split('/');
    expect(subnetsOverlap({ address: aa, prefix: Number(ap) }, { address: ba, prefix: Number(bp) })).toBe(expected);
  });
});

describe('subnetClashes', () => {
  const used = [
    { by: 'interface eth0', address: '172.16.5.10', prefix: 24 },
    { by: 'libvirt network default', address: '192.168.122.1', prefix: 24 },
  ];

  test("GIVEN a network in the host's eth0 subnet WHEN checked THEN one error on ip[0].address names eth0, both subnets and the fix", () => {
    expect(subnetClashes('lab', ['172.16.5.1/24'], used)).toEqual([
      {
        severity: 'error',
        summary: 'Subnet already in use on the host',
        detail:
          'Network lab: 172.16.5.1/24 overlaps 172.16.5.10/24 of interface eth0 on the libvirt host; libvirt would refuse to start the network. Choose a subnet the host does not use (ip addr; virsh net-dumpxml).',
        path: ['ip', 0, 'address'],
      },
    ]);
  });

  test('GIVEN a second ip block inside an active libvirt network WHEN checked THEN the error is on ip[1] and names that network', () => {
    const [d] = subnetClashes('lab', ['10.9.0.1/24', '192.168.0.1/16'], used);
    expect([d.path, d.detail]).toEqual([['ip', 1, 'address'], expect.stringContaining('of libvirt network default')]);
  });

  test('GIVEN free subnets WHEN checked THEN no error', () => {
    expect(subnetClashes('lab', ['10.9.0.1/24', 'fd00:9::1/64'], used)).toEqual([]);
  });
});
