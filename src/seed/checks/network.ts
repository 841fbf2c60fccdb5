/** Validation of `network` (typed) and `network_config` (raw). */
import { error, type Diagnostic } from '../../diagnostics';
import type { SeedFormat, SeedSpec } from '../model';
import { isIp, isIPv4, isIPv6, parseCidr } from '../../ip';
import { IFNAME, MAC, isHostname } from '../private/patterns';
import { isPlainObject, parseYaml } from '../private/yaml';
import { schemaDiagnostics } from './schema';
import { networkV1AddressDiagnostics, networkV2AddressDiagnostics } from './network-addresses';

export function validateNetwork(spec: SeedSpec, format: SeedFormat): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (spec.network !== undefined && spec.network_config !== undefined) {
    out.push(
      error(
        ['network_config'],
        'Conflicting network inputs',
        'Both network and network_config are set; give only one (typed network, or raw network_config).',
      ),
    );
  }
  if (spec.network !== undefined) out.push(...validateTypedNetwork(spec.network as unknown));
  if (spec.network_config !== undefined) out.push(...validateRawNetwork(spec.network_config as unknown, format));
  return out;
}

function validateTypedNetwork(network: unknown): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isPlainObject(network)) return [error(['network'], 'Invalid network', 'network must be an object {version, interfaces}.')];
  if (network.version !== 1 && network.version !== 2) {
    out.push(error(['network', 'version'], 'Invalid network version', `Got ${JSON.stringify(network.version)}; expected 1 or 2.`));
  }
  if (network.force_dhcp !== undefined && typeof network.force_dhcp !== 'boolean') {
    out.push(error(['network', 'force_dhcp'], 'Invalid force_dhcp', 'force_dhcp must be a boolean.'));
  }
  const interfaces = network.interfaces;
  if (!Array.isArray(interfaces) || interfaces.length === 0) {
    out.push(error(['network', 'interfaces'], 'No network interfaces', 'network.interfaces must list at least one interface.'));
    return out;
  }
  const names = new Set<string>();
  interfaces.forEach((iface: unknown, i) => {
    const at = (...k: (string | number)[]) => ['network', 'interfaces', i, ...k];
    if (!isPlainObject(iface)) {
      out.push(error(at(), 'Invalid interface', 'Each interface must be an object.'));
      return;
    }
    const name = iface.name === undefined ? `eth${i}` : iface.name;
    if (typeof name !== 'string' || !IFNAME.test(name)) {
      out.push(
        error(
          at('name'),
          'Invalid interface name',
          `Got ${JSON.stringify(iface.name)}; expected 1–15 characters of [A-Za-z0-9_.-], e.g. "eth0".`,
        ),
      );
    } else if (names.has(name)) {
      out.push(
        error(at('name'), 'Duplicate interface name', `"${name}" is used by an earlier interface (unnamed interfaces are eth<index>).`),
      );
    } else names.add(name);
    if (iface.mac !== undefined && (typeof iface.mac !== 'string' || !MAC.test(iface.mac))) {
      out.push(
        error(at('mac'), 'Invalid MAC address', `Got ${JSON.stringify(iface.mac)}; expected six hex pairs, e.g. "52:54:00:12:34:56".`),
      );
    }
    for (const k of ['dhcp4', 'dhcp6'] as const) {
      if (iface[k] !== undefined && typeof iface[k] !== 'boolean') out.push(error(at(k), `Invalid ${k}`, `${k} must be a boolean.`));
    }
    const addrs = iface.addresses;
    if (addrs !== undefined) {
      if (!Array.isArray(addrs)) out.push(error(at('addresses'), 'Invalid addresses', 'addresses must be a list of CIDR strings.'));
      else
        addrs.forEach((a: unknown, j) => {
          if (typeof a !== 'string' || !parseCidr(a)) {
            out.push(
              error(
                at('addresses', j),
                'Invalid address',
                `Got ${JSON.stringify(a)}; expected CIDR notation, e.g. "192.168.1.10/24" or "fd00::10/64".`,
              ),
            );
          }
        });
    }
    if (iface.gateway4 !== undefined && (typeof iface.gateway4 !== 'string' || !isIPv4(iface.gateway4))) {
      out.push(error(at('gateway4'), 'Invalid IPv4 gateway', `Got ${JSON.stringify(iface.gateway4)}; expected an IPv4 address.`));
    }
    if (iface.gateway6 !== undefined && (typeof iface.gateway6 !== 'string' || !isIPv6(iface.gateway6))) {
      out.push(error(at('gateway6'), 'Invalid IPv6 gateway', `Got ${JSON.stringify(iface.gateway6)}; expected an IPv6 address.`));
    }
    listOf(iface.nameservers, at('nameservers'), isIp, 'Invalid nameserver', 'an IPv4 or IPv6 address', out);
    listOf(iface.search, at('search'), isHostname, 'Invalid search domain', 'a DNS domain name', out);
    if (iface.mtu !== undefined && (!Number.isInteger(iface.mtu) || (iface.mtu as number) < 68 || (iface.mtu as number) > 65535)) {
      out.push(error(at('mtu'), 'Invalid MTU', `Got ${JSON.stringify(iface.mtu)}; expected an integer 68–65535.`));
    }
  });
  return out;
}

function listOf(
  value: unknown,
  path: (string | number)[],
  ok: (s: string) => boolean,
  summary: string,
  expected: string,
  out: Diagnostic[],
): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    out.push(error(path, summary, `Expected a list of strings, each ${expected}.`));
    return;
  }
  value.forEach((v: unknown, i) => {
    if (typeof v !== 'string' || !ok(v)) out.push(error([...path, i], summary, `Got ${JSON.stringify(v)}; expected ${expected}.`));
  });
}

function validateRawNetwork(raw: unknown, format: SeedFormat): Diagnostic[] {
  const path = ['network_config'];
  if (typeof raw !== 'string') return [error(path, 'Invalid network_config', 'network_config must be a string (YAML).')];
  const parsed = parseYaml(raw);
  if (parsed.problems.length > 0) {
    return parsed.problems.map((p) => error(path, 'Invalid YAML in network_config', `Line ${p.line}, column ${p.col}: ${p.message}`));
  }
  if (!isPlainObject(parsed.value)) return [error(path, 'Invalid network_config', 'network_config must be a YAML map.')];
  if (format === 'configdrive') {
    const v = parsed.value;
    if (
      !Array.isArray(v.links) ||
      (v.networks !== undefined && !Array.isArray(v.networks)) ||
      (v.services !== undefined && !Array.isArray(v.services))
    ) {
      return [
        error(
          path,
          'Invalid network_data',
          'For format configdrive, network_config is OpenStack network_data.json content: a map with a "links" list and optional "networks" and "services" lists.',
        ),
      ];
    }
    return [];
  }
  // cloud-init accepts the config either at the top or under a `network:` key.
  const config = isPlainObject(parsed.value.network) ? parsed.value.network : parsed.value;
  const base = config === parsed.value ? path : [...path, 'network'];
  if (config.version === 1)
    return [
      ...schemaDiagnostics('network-config-v1', config, base, 'Invalid network-config v1'),
      ...networkV1AddressDiagnostics(config, base),
    ];
  if (config.version === 2)
    return [
      ...schemaDiagnostics('network-config-v2', config, base, 'Invalid network-config v2'),
      ...networkV2AddressDiagnostics(config, base),
    ];
  return [error([...base, 'version'], 'Invalid network-config version', `Got ${JSON.stringify(config.version)}; expected 1 or 2.`)];
}
