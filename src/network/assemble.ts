/**
 * Building a NetworkSpec from input shaped the way users write it — subnets, and static DHCP hosts listed apart
 * from them — for the provider's `virtseed_network` and the `Network` construct alike: each static host goes into
 * the `<ip>` whose subnet holds its address (libvirt formatnetwork keeps `<dhcp><host>` inside its `<ip>`).
 * Input that cannot be placed is reported by position, for the caller to word in its own field names.
 */
import { inSubnet, parseCidr } from '../ip';
import type { NetworkDnsHost, NetworkForwardMode, NetworkIp, NetworkIpDhcpRange, NetworkSpec } from './model';

/**
 * A network as users write it. `mode` is `none` (isolated, no `<forward>`) or the `<forward mode=...>`; a value
 * that is neither goes into the spec as it is, for validateNetworkSpec to report.
 */
export interface NetworkInput {
  readonly name: string;
  readonly mode: string;
  readonly forwardDev?: string;
  readonly bridge?: string;
  readonly domain?: string;
  readonly mtu?: number;
  /** The host's address with prefix length (`192.168.150.1/24`) and the DHCP ranges of each subnet. */
  readonly subnets: readonly { readonly address: string; readonly dhcpRanges: readonly NetworkIpDhcpRange[] }[];
  readonly staticHosts: readonly { readonly ip: string; readonly mac?: string; readonly hostname?: string }[];
  readonly dnsHosts: readonly NetworkDnsHost[];
}

/** The spec, and where each input went. */
export interface AssembledNetwork {
  readonly spec: NetworkSpec;
  /** `spec.ips[i]` came from `subnets[ipSource[i]]`. */
  readonly ipSource: readonly number[];
  /** Subnets whose `address` is not an address with a prefix length (left out of the spec). */
  readonly badSubnets: readonly number[];
  /** `staticHosts[k]` went to `spec.ips[a].dhcpHosts[b]` as `[a, b]`; undefined when no subnet holds its address. */
  readonly placement: readonly ([number, number] | undefined)[];
}

/** Assembles `input` into a NetworkSpec (not validated: run validateNetworkSpec on `spec`). MACs are lowercased. */
export function assembleNetworkSpec(input: NetworkInput): AssembledNetwork {
  const ips: NetworkIp[] = [];
  const ipSource: number[] = [];
  const badSubnets: number[] = [];
  input.subnets.forEach((s, i) => {
    const cidr = parseCidr(s.address.trim());
    if (!cidr) {
      badSubnets.push(i);
      return;
    }
    ipSource.push(i);
    ips.push({
      family: cidr.family,
      address: cidr.address,
      prefix: cidr.prefix,
      dhcpRanges: s.dhcpRanges.map((r) => ({ start: r.start, end: r.end })),
      dhcpHosts: [],
    });
  });
  const placement = input.staticHosts.map((h): [number, number] | undefined => {
    const at = ips.findIndex((x) => inSubnet(h.ip, x.address, x.prefix));
    if (at < 0) return undefined;
    ips[at].dhcpHosts.push({ ...(h.mac ? { mac: h.mac.toLowerCase() } : {}), ...(h.hostname ? { name: h.hostname } : {}), ip: h.ip });
    return [at, ips[at].dhcpHosts.length - 1];
  });
  const { mode } = input;
  const spec: NetworkSpec = {
    name: input.name,
    ...(mode !== 'none' ? { forward: { mode: mode as NetworkForwardMode, ...(input.forwardDev ? { dev: input.forwardDev } : {}) } } : {}),
    ...(input.bridge !== undefined ? { bridge: input.bridge } : {}),
    ...(input.domain !== undefined ? { domain: input.domain } : {}),
    ...(input.mtu !== undefined ? { mtu: input.mtu } : {}),
    ips,
    dnsHosts: input.dnsHosts.map((h) => ({ ip: h.ip, hostnames: [...h.hostnames] })),
  };
  return { spec, ipSource, badSubnets, placement };
}
