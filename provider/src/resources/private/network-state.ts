/**
 * `virtseed_network` state ⇄ the shared network model (src/network `NetworkSpec`). Terraform lists static DHCP
 * hosts at the top level (`dhcp_host`); the model keeps them inside the `<ip>` whose subnet holds their address.
 */
import { error, type Diagnostic } from '../../../../src/diagnostics';
import { assembleNetworkSpec, validateNetworkSpec, type AssembledNetwork, type NetworkSpec } from '../../../../src/network';
import type { NetworkState } from './model';
import { known, list, str, num } from './values';
import { NETWORK_FIELDS } from '../../../../src/fields';

/** Where each `dhcp_host[k]` went in the spec: `[ip index, host index]` (undefined: no subnet holds it). */
export type HostPlacement = AssembledNetwork['placement'];

/** The spec of a (wholly known) state or config, and problems found converting it, with Terraform paths. */
export function toNetworkSpec(s: NetworkState): {
  spec: NetworkSpec;
  placement: HostPlacement;
  ipSource: readonly number[];
  diagnostics: Diagnostic[];
} {
  const diagnostics: Diagnostic[] = [];
  const mode = known(s.mode) ?? NETWORK_FIELDS.fields.mode.default;
  const ipBlocks = list(s.ip);
  const hosts = list(s.dhcp_host);
  const { spec, ipSource, badSubnets, placement } = assembleNetworkSpec({
    name: str(s.name) ?? '',
    mode,
    forwardDev: str(s.forward_dev),
    bridge: str(s.bridge) || undefined,
    domain: str(s.domain) || undefined,
    mtu: num(s.mtu),
    subnets: ipBlocks.map((ip) => ({
      address: str(ip.address) ?? '',
      dhcpRanges: list(ip.dhcp_range).map((r) => ({ start: str(r.start) ?? '', end: str(r.end) ?? '' })),
    })),
    staticHosts: hosts.map((h) => ({ ip: str(h.ip) ?? '', mac: str(h.mac), hostname: str(h.hostname) })),
    dnsHosts: list(s.dns_host).map((h) => ({ ip: str(h.ip) ?? '', hostnames: list(h.hostnames) })),
  });
  for (const i of badSubnets)
    diagnostics.push(
      error(
        ['ip', i, 'address'],
        'Invalid address',
        `address is ${JSON.stringify(ipBlocks[i].address)}; expected the host's address and prefix length, e.g. 192.168.150.1/24 or fd00:150::1/64.`,
      ),
    );
  placement.forEach((at, k) => {
    if (!at)
      diagnostics.push(
        error(
          ['dhcp_host', k, 'ip'],
          'Address outside the network',
          `ip ${JSON.stringify(str(hosts[k].ip) ?? '')} is in no subnet of this network's ip blocks; use an address of one of them.`,
        ),
      );
  });
  if (mode === 'none' && str(s.forward_dev))
    diagnostics.push(
      error(
        ['forward_dev'],
        'Invalid forward_dev',
        'An isolated network (mode none) forwards nothing; forward_dev is for nat, route and open.',
      ),
    );
  return { spec, placement, ipSource, diagnostics };
}

/** validateNetworkSpec with paths in Terraform's terms (ips[i] → ip[i], dhcpHosts → the top-level dhcp_host). */
export function validateNetworkState(s: NetworkState): Diagnostic[] {
  const { spec, placement, ipSource, diagnostics } = toNetworkSpec(s);
  for (const d of validateNetworkSpec(spec)) {
    const p = d.path;
    let path: (string | number)[];
    if (p[0] === 'ips' && typeof p[1] === 'number' && p[2] === 'dhcpHosts' && typeof p[3] === 'number') {
      const k = placement.findIndex((x) => x && x[0] === p[1] && x[1] === p[3]);
      path = ['dhcp_host', k, ...p.slice(4).map((x) => (x === 'name' ? 'hostname' : x))];
    } else if (p[0] === 'ips' && typeof p[1] === 'number') {
      path = ['ip', ipSource[p[1]], ...p.slice(2).map((x) => (x === 'dhcpRanges' ? 'dhcp_range' : x === 'prefix' ? 'address' : x))];
    } else if (p[0] === 'ips') path = ['ip'];
    else if (p[0] === 'dnsHosts') path = ['dns_host', ...p.slice(1)];
    else if (p[0] === 'forward') path = [p[1] === 'dev' ? 'forward_dev' : 'mode'];
    else path = p;
    diagnostics.push({ ...d, path });
  }
  return diagnostics;
}

/** The state attributes of a network libvirt describes (`autostart` read separately). */
export function stateFromNetwork(spec: NetworkSpec, autostart: boolean): NetworkState {
  return {
    id: spec.uuid ?? null,
    uuid: spec.uuid ?? null,
    name: spec.name,
    host: null, // where the network is: known to the caller, not to libvirt
    mode: spec.forward?.mode ?? 'none',
    forward_dev: spec.forward?.dev ?? null,
    bridge: spec.bridge ?? null,
    domain: spec.domain ?? null,
    mtu: spec.mtu ?? null,
    autostart,
    ip: spec.ips.map((ip) => ({
      address: `${ip.address}/${ip.prefix}`,
      dhcp_range: ip.dhcpRanges.map((r) => ({ start: r.start, end: r.end })),
    })),
    dhcp_host: spec.ips.flatMap((ip) => ip.dhcpHosts.map((h) => ({ mac: h.mac ?? null, hostname: h.name ?? null, ip: h.ip }))),
    dns_host: spec.dnsHosts.map((h) => ({ ip: h.ip, hostnames: h.hostnames })),
  };
}
