/**
 * The typed libvirt virtual network model: the subset of libvirt's network XML (https://libvirt.org/formatnetwork.html)
 * virtseed renders and reads back. Types are named after the XML element paths they stand for
 * (`NetworkIpDhcpHost` = `<network><ip><dhcp><host>`). Pure data, no I/O.
 */
import type { NETWORK_FIELDS, ValuesOf } from '../fields';

/**
 * `<forward mode=...>`: `nat` (NAT to the host's uplink), `route` (routed, no NAT), `open` (routed, no firewall
 * rules), `bridge` (an existing host bridge, `NetworkSpec.bridge`). No `<forward>` at all is an isolated network:
 * guests reach each other and the host, nothing else.
 */
export type NetworkForwardMode = Exclude<ValuesOf<(typeof NETWORK_FIELDS)['fields']['mode']>, 'none'>;

/** `<forward>`. */
export interface NetworkForward {
  mode: NetworkForwardMode;
  /** `<forward dev=...>`: restrict forwarding (nat/route/open) to this host device. @default - any device */
  dev?: string;
}

/** `<ip><dhcp><range start=... end=...>`: addresses handed out dynamically (inclusive). */
export interface NetworkIpDhcpRange {
  start: string;
  end: string;
}

/**
 * `<ip><dhcp><host>`: a static DHCP lease. IPv4 hosts are matched by `mac` (or `name`); IPv6 hosts by `name`
 * (libvirt: no MAC matching for DHCPv6).
 */
export interface NetworkIpDhcpHost {
  /** `mac`: `52:54:00:..`, lowercase when parsed. */
  mac?: string;
  /** `name`: the hostname the guest gets. */
  name?: string;
  /** `ip`: inside this `<ip>`'s subnet. */
  ip: string;
}

/** `<ip>`: one subnet of the network, the host's address on its bridge, and its DHCP service. */
export interface NetworkIp {
  /** `family`; `ipv4` is rendered without the attribute. */
  family: 'ipv4' | 'ipv6';
  /** `address`: the host's address on the network's bridge (the guests' gateway/DNS), e.g. `192.168.150.1`. */
  address: string;
  /** `prefix`: subnet prefix length (IPv4 `netmask` is read back as a prefix). */
  prefix: number;
  /** `<dhcp><range>`; none = no dynamic DHCP (static hosts still work). */
  dhcpRanges: NetworkIpDhcpRange[];
  dhcpHosts: NetworkIpDhcpHost[];
}

/** `<dns><host ip=...><hostname>`: names the network's DNS server answers for `ip`. */
export interface NetworkDnsHost {
  ip: string;
  hostnames: string[];
}

/** A libvirt virtual network as virtseed defines it. */
export interface NetworkSpec {
  /** `<name>`: letters, digits, `.`, `_`, `-`; starts with a letter or digit; at most 64 characters. */
  name: string;
  /** `<uuid>` (8-4-4-4-12 hex). @default - libvirt generates one */
  uuid?: string;
  /** `<forward>`. @default - none: an isolated network */
  forward?: NetworkForward;
  /**
   * `<bridge name=...>`: the bridge device. For `forward.mode: 'bridge'` the existing host bridge (required); for
   * other modes the bridge libvirt creates. @default - libvirt picks `virbrN`
   */
  bridge?: string;
  /** `<domain name=... localOnly='yes'>`: DNS domain of the guests, answered only locally. */
  domain?: string;
  /** `<mtu size=...>` in bytes (68..65535). @default - the host's default (1500) */
  mtu?: number;
  ips: NetworkIp[];
  dnsHosts: NetworkDnsHost[];
}
