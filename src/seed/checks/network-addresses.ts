/**
 * Address checks of network-config v1/v2 (cloud-init docs "Networking config Version 1/2"), the ones cloud-init's
 * own parser makes in the guest (`ipaddress` in cloudinit/net/network_state.py): every address, gateway,
 * nameserver and route of a parsed config. Used for raw `network_config`; the typed `network` uses the same
 * parsers (src/ip.ts) on its fields. Pure.
 */
import { error, type AttributePath, type Diagnostic } from '../../diagnostics';
import { isIp, isIPv4, isIPv6, parseCidr } from '../../ip';
import { isPlainObject } from '../private/yaml';

/** v1 `address`: a plain IP (netmask given separately) or CIDR. */
const isIpOrCidr = (v: string) => isIp(v) || parseCidr(v) !== undefined;

function check(out: Diagnostic[], value: unknown, path: AttributePath, ok: (v: string) => boolean, expected: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' || !ok(value)) {
    out.push(
      error(
        path,
        'Invalid network address',
        `Got ${JSON.stringify(value)}; expected ${expected}. cloud-init rejects it when it parses the network-config in the guest.`,
      ),
    );
  }
}

function checkList(out: Diagnostic[], value: unknown, path: AttributePath, ok: (v: string) => boolean, expected: string): void {
  if (Array.isArray(value)) value.forEach((v: unknown, i) => check(out, v, [...path, i], ok, expected));
  else if (typeof value === 'string') check(out, value, path, ok, expected);
}

const CIDR = 'CIDR notation, e.g. "192.168.1.10/24" or "fd00::10/64"';
const IP = 'an IPv4 or IPv6 address';

/** Address errors of a network-config v2 (`ethernets`, `bonds`, `bridges`, `vlans`, `wifis` devices). */
export function networkV2AddressDiagnostics(config: Record<string, unknown>, base: AttributePath): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const kind of ['ethernets', 'bonds', 'bridges', 'vlans', 'wifis']) {
    const devices = config[kind];
    if (!isPlainObject(devices)) continue;
    for (const [name, dev] of Object.entries(devices)) {
      if (!isPlainObject(dev)) continue;
      const at = (...k: (string | number)[]) => [...base, kind, name, ...k];
      if (Array.isArray(dev.addresses))
        dev.addresses.forEach((a: unknown, i) => {
          if (!isPlainObject(a)) check(out, a, at('addresses', i), (v) => parseCidr(v) !== undefined, CIDR);
        });
      check(out, dev.gateway4, at('gateway4'), isIPv4, 'an IPv4 address');
      check(out, dev.gateway6, at('gateway6'), isIPv6, 'an IPv6 address');
      if (isPlainObject(dev.nameservers)) checkList(out, dev.nameservers.addresses, at('nameservers', 'addresses'), isIp, IP);
      if (Array.isArray(dev.routes)) {
        dev.routes.forEach((r: unknown, i) => {
          if (!isPlainObject(r)) return;
          check(out, r.to, at('routes', i, 'to'), (v) => v === 'default' || isIpOrCidr(v), `"default" or ${CIDR}`);
          check(out, r.via, at('routes', i, 'via'), isIp, IP);
        });
      }
    }
  }
  return out;
}

/** Address errors of a network-config v1 (`config` entries: subnets, routes, nameserver). */
export function networkV1AddressDiagnostics(config: Record<string, unknown>, base: AttributePath): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!Array.isArray(config.config)) return out;
  config.config.forEach((entry: unknown, i) => {
    if (!isPlainObject(entry)) return;
    const at = (...k: (string | number)[]) => [...base, 'config', i, ...k];
    if (entry.type === 'nameserver') checkList(out, entry.address, at('address'), isIp, IP);
    if (entry.type === 'route') {
      check(out, entry.destination, at('destination'), isIpOrCidr, CIDR);
      check(out, entry.gateway, at('gateway'), isIp, IP);
    }
    if (Array.isArray(entry.subnets)) {
      entry.subnets.forEach((s: unknown, j) => {
        if (!isPlainObject(s)) return;
        check(out, s.address, at('subnets', j, 'address'), isIpOrCidr, `an IP address or ${CIDR}`);
        check(out, s.gateway, at('subnets', j, 'gateway'), isIp, IP);
        checkList(out, s.dns_nameservers, at('subnets', j, 'dns_nameservers'), isIp, IP);
        if (Array.isArray(s.routes)) {
          s.routes.forEach((r: unknown, k) => {
            if (!isPlainObject(r)) return;
            check(out, r.gateway, at('subnets', j, 'routes', k, 'gateway'), isIp, IP);
            check(out, r.network, at('subnets', j, 'routes', k, 'network'), isIp, IP);
          });
        }
      });
    }
  });
  return out;
}
