/** Properties of a {@link Network} and the types they use, in a file of their own (network-spec.ts reads them). */
/** How a libvirt network reaches beyond the host (libvirt formatnetwork `<forward mode=...>`). */
export enum NetworkMode {
  /** Isolated: guests reach each other and the host, nothing else (no `<forward>`). */
  ISOLATED = 'none',
  /** NAT to the host's outside interfaces. */
  NAT = 'nat',
  /** Routed, without NAT. */
  ROUTE = 'route',
  /** Routed, and the host adds no firewall rules. */
  OPEN = 'open',
  /** An existing host bridge (`bridge` names it); libvirt runs no DHCP or DNS on it. */
  BRIDGE = 'bridge',
}

/** A range of addresses DHCP hands out (inclusive). */
export interface DhcpRange {
  /** First address, e.g. `192.168.150.100`. */
  readonly start: string;
  /** Last address, e.g. `192.168.150.199`. */
  readonly end: string;
}

/** A subnet of a {@link Network}: the host's address on it (the guests' gateway and DNS server) and DHCP. */
export interface NetworkSubnet {
  /** Host address with prefix length, e.g. `192.168.150.1/24` or `fd00:150::1/64`. */
  readonly address: string;
  /**
   * Addresses DHCP hands out. At most one IPv4 and one IPv6 subnet of a network serve DHCP.
   * @default - no DHCP on this subnet
   */
  readonly dhcpRanges?: DhcpRange[];
}

/** A static DHCP lease: the guest with this MAC (IPv4) or hostname (IPv6) always gets `ip`. */
export interface StaticHost {
  /** The address, inside one of the network's subnets. */
  readonly ip: string;
  /**
   * Guest MAC address, e.g. `52:54:00:00:00:10` (give the VM the same one: `network.attach({ mac })`).
   * @default - matched by hostname only (required for IPv4 hosts without a MAC)
   */
  readonly mac?: string;
  /**
   * Hostname handed to the guest (how IPv6 hosts are matched).
   * @default - none
   */
  readonly hostname?: string;
}

/** Names the network's DNS server answers with an address. */
export interface DnsHost {
  /** IPv4 or IPv6 address. */
  readonly ip: string;
  /** Names for `ip`, e.g. `['web', 'web.lab']`. */
  readonly hostnames: string[];
}

/** Properties of a {@link Network}. */
export interface VirtualNetworkProps {
  /** libvirt network name, e.g. `lab`. Changing it: replaces the network. */
  readonly name: string;
  /**
   * How the network reaches beyond the host.
   * @default NetworkMode.ISOLATED
   */
  readonly mode?: NetworkMode;
  /**
   * Bridge device: for `NetworkMode.BRIDGE` the existing host bridge (required), else the bridge libvirt creates.
   * @default - libvirt picks `virbrN`
   */
  readonly bridge?: string;
  /**
   * With NAT, ROUTE or OPEN: forward only through this host device.
   * @default - any host device
   */
  readonly forwardDevice?: string;
  /**
   * Subnets with the host's address and DHCP.
   * @default - none (no IP on the host side: guests configure addresses themselves)
   */
  readonly subnets?: NetworkSubnet[];
  /**
   * Static DHCP leases; changes apply in place.
   * @default - none
   */
  readonly staticHosts?: StaticHost[];
  /**
   * DNS host entries; changes apply in place.
   * @default - none
   */
  readonly dnsHosts?: DnsHost[];
  /**
   * DNS domain of the guests (answered by the network's DNS server, never forwarded).
   * @default - none
   */
  readonly domain?: string;
  /**
   * MTU of the network's bridge in bytes.
   * @default - libvirt's default (1500)
   */
  readonly mtu?: number;
  /**
   * Start the network when libvirtd starts.
   * @default true
   */
  readonly autostart?: boolean;
}
