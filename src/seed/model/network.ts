/**
 * Typed network configuration, rendered as cloud-init network-config v1 or v2 (NoCloud) or as OpenStack
 * `network_data.json` (ConfigDrive) — cloud-init docs "Network configuration" v1/v2, OpenStack metadata service
 * network_data format.
 */

/** One guest network interface. */
export interface NetworkInterfaceSpec {
  /** Interface name in the guest, e.g. `eth0`. With `mac` it becomes the new name (v2 `set-name`).
   *  @default 'eth<index>' */
  name?: string;
  /** MAC address `aa:bb:cc:dd:ee:ff`; matches the interface by hardware address. */
  mac?: string;
  /** Configure IPv4 by DHCP. @default false */
  dhcp4?: boolean;
  /** Configure IPv6 by DHCPv6. @default false */
  dhcp6?: boolean;
  /** Static addresses in CIDR form, IPv4 or IPv6, e.g. `['192.168.1.10/24', 'fd00::10/64']`. */
  addresses?: string[];
  /** IPv4 default gateway. */
  gateway4?: string;
  /** IPv6 default gateway. */
  gateway6?: string;
  /** DNS server addresses. */
  nameservers?: string[];
  /** DNS search domains. */
  search?: string[];
  /** MTU in bytes (68–65535). */
  mtu?: number;
}

/** Typed network input. */
export interface NetworkSpec {
  /** network-config version for NoCloud (ConfigDrive always writes network_data.json). */
  version: 1 | 2;
  /** Render every interface as DHCPv4 only, ignoring static addresses (Virtlet's switch). @default false */
  force_dhcp?: boolean;
  /** At least one interface. */
  interfaces: NetworkInterfaceSpec[];
}
