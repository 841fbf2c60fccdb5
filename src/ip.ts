/**
 * IP addresses in text form (RFC 4291 text forms, checked by node:net): family, CIDR parsing, subnet membership,
 * netmask ⇄ prefix length. The one place the project parses addresses: libvirt networks (src/network) and seed
 * network-config (src/seed) both use it. Pure.
 */
import type * as Net from 'node:net';

let net: typeof Net | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: node:net (with its streams) costs every CLI start ~7 ms of CPU, and most seeds check no address (issue #25)
const loadNet = (): typeof Net => (net ??= require('node:net') as typeof Net);

/** True when `address` is an IPv4 address in dotted-decimal text form (node:net `isIPv4`). */
export const isIPv4 = (address: string): boolean => loadNet().isIPv4(address);

/** True when `address` is an IPv6 address in RFC 4291 text form (node:net `isIPv6`). */
export const isIPv6 = (address: string): boolean => loadNet().isIPv6(address);

export type IpFamily = 'ipv4' | 'ipv6';

/** The family of an address in text form, or undefined when it is neither. */
export function ipFamily(address: string): IpFamily | undefined {
  return isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
}

/** True for an IPv4 or IPv6 address in text form. */
export function isIp(text: string): boolean {
  return ipFamily(text) !== undefined;
}

/** An address as a 32-bit (IPv4) or 128-bit (IPv6) unsigned integer. Throws RangeError for non-addresses. */
export function ipToBigInt(address: string): bigint {
  if (isIPv4(address)) return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  if (!isIPv6(address)) throw new RangeError(`not an IP address: "${address}"`);
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipToBigInt(v4[1]);
    text = text.slice(0, -v4[1].length) + `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined ? (tail ? tail.split(':') : []) : [];
  const groups = tail !== undefined ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/**
 * `A/N` split and checked: a valid address and a prefix length within its family (0..32 or 0..128). Exact: no
 * white space is skipped (cloud-init rejects it too); undefined when malformed.
 */
export function parseCidr(cidr: string): { family: IpFamily; address: string; prefix: number } | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(cidr);
  if (!m) return undefined;
  const family = ipFamily(m[1]);
  const prefix = Number(m[2]);
  if (!family || prefix > (family === 'ipv4' ? 32 : 128)) return undefined;
  return { family, address: m[1], prefix };
}

/** True when `address` lies in the subnet `network/prefix` (same family). */
export function inSubnet(address: string, network: string, prefix: number): boolean {
  const family = ipFamily(address);
  if (!family || family !== ipFamily(network)) return false;
  const bits = BigInt(family === 'ipv4' ? 32 : 128);
  const shift = bits - BigInt(prefix);
  return ipToBigInt(address) >> shift === ipToBigInt(network) >> shift;
}

/** The prefix length of a dotted IPv4 netmask (`255.255.255.0` → 24); undefined for non-contiguous masks. */
export function netmaskToPrefix(netmask: string): number | undefined {
  if (!isIPv4(netmask)) return undefined;
  const n = ipToBigInt(netmask);
  const bin = n.toString(2).padStart(32, '0');
  return /^1*0*$/.test(bin) ? (bin.indexOf('0') === -1 ? 32 : bin.indexOf('0')) : undefined;
}

/** Dotted IPv4 netmask of a prefix length, e.g. 24 → 255.255.255.0. */
export function ipv4Netmask(prefix: number): string {
  const bits = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return [24, 16, 8, 0].map((s) => (bits >>> s) & 0xff).join('.');
}

/** Full-form IPv6 netmask of a prefix length, e.g. 64 → ffff:ffff:ffff:ffff:0:0:0:0. */
export function ipv6Netmask(prefix: number): string {
  const groups: string[] = [];
  for (let i = 0; i < 8; i++) {
    const bits = Math.max(0, Math.min(16, prefix - i * 16));
    groups.push((bits === 0 ? 0 : (0xffff << (16 - bits)) & 0xffff).toString(16));
  }
  return groups.join(':');
}

/**
 * True when the subnets `a` and `b` (`address/prefix` each, any address inside the subnet) share an address: same
 * family, and the one with the shorter prefix holds the other's address.
 */
export function subnetsOverlap(a: { address: string; prefix: number }, b: { address: string; prefix: number }): boolean {
  return inSubnet(b.address, a.address, Math.min(a.prefix, b.prefix));
}
