import { inSubnet, ipToBigInt, ipv4Netmask, ipv6Netmask, isIp, netmaskToPrefix, parseCidr } from '../src/ip';

describe('address arithmetic', () => {
  test.each([
    ['10.0.0.1', 0x0a000001n],
    ['::1', 1n],
    ['fd00::1:0', 0xfd000000000000000000000000010000n],
    ['::ffff:10.0.0.1', 0xffff0a000001n],
  ])('GIVEN %s WHEN converted THEN %s', (a, n) => expect(ipToBigInt(a)).toBe(n));

  test.each([
    ['10.1.2.3', '10.1.0.1', 16, true],
    ['10.2.0.3', '10.1.0.1', 16, false],
    ['fd00:1::5', 'fd00:1::1', 64, true],
    ['fd00:2::5', 'fd00:1::1', 64, false],
    ['10.1.2.3', 'fd00:1::1', 64, false],
  ])('GIVEN %s in %s/%d WHEN tested THEN %s', (a, net, p, expected) => expect(inSubnet(a, net, p)).toBe(expected));

  test.each([
    ['255.255.255.0', 24],
    ['255.255.0.0', 16],
    ['255.255.255.255', 32],
    ['255.0.255.0', undefined],
  ])('GIVEN netmask %s THEN prefix %s', (m, p) => {
    expect(netmaskToPrefix(m)).toBe(p);
  });

  test.each([
    ['10.0.0.1/24', { family: 'ipv4', address: '10.0.0.1', prefix: 24 }],
    ['fd00::1/64', { family: 'ipv6', address: 'fd00::1', prefix: 64 }],
    ['10.0.0.1/33', undefined],
    ['10.0.0.1', undefined],
    ['fd00::1/129', undefined],
    [' 10.0.0.1/24', undefined],
    ['10.0.0.1/24 ', undefined],
  ])('GIVEN %j WHEN parsed as CIDR THEN %j', (c, expected) => expect(parseCidr(c)).toEqual(expected));

  test.each([
    ['10.0.0.1', true],
    ['fd00::1', true],
    ['::ffff:10.0.0.1', true],
    ['300.1.1.1', false],
    ['fd00::1/64', false],
  ])('GIVEN %s WHEN tested as an address THEN %s', (a, expected) => expect(isIp(a)).toBe(expected));

  test.each([
    [0, '0.0.0.0'],
    [8, '255.0.0.0'],
    [20, '255.255.240.0'],
    [32, '255.255.255.255'],
  ])('GIVEN IPv4 prefix %d THEN netmask %s', (p, m) => expect(ipv4Netmask(p)).toBe(m));

  test.each([
    [0, '0:0:0:0:0:0:0:0'],
    [48, 'ffff:ffff:ffff:0:0:0:0:0'],
    [52, 'ffff:ffff:ffff:f000:0:0:0:0'],
    [128, 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ])('GIVEN IPv6 prefix %d THEN netmask %s', (p, m) => expect(ipv6Netmask(p)).toBe(m));
});
