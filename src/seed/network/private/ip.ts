/** Small IP address helpers (no I/O). */
import { isIPv4, isIPv6 } from 'node:net';

/** Splits `addr/prefix`; `undefined` when malformed (prefix out of range, bad address). */
export function parseCidr(text: string): { address: string; prefix: number; family: 4 | 6 } | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const address = m[1] as string;
  const prefix = Number(m[2]);
  if (isIPv4(address) && prefix <= 32) return { address, prefix, family: 4 };
  if (isIPv6(address) && prefix <= 128) return { address, prefix, family: 6 };
  return undefined;
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
