/**
 * OpenStack `network_data.json` (config drive, metadata format "2015-10-15" and later) from a NetworkSpec, as
 * cloud-init's ConfigDrive datasource converts it (links → physical devices, networks → subnets by `link`,
 * services → nameservers).
 */
import type { NetworkSpec } from '../model';
import { ipv4Netmask, ipv6Netmask } from '../../ip';
import { normaliseInterfaces } from './private/interfaces';

/**
 * `{links, networks, services}`. One link per interface: `id` = `name` = interface name (cloud-init names the
 * guest device by `name`), `type: phy`, `ethernet_mac_address`, `mtu`. Networks `network<N>` (N counts over all
 * interfaces): `ipv4_dhcp` / `ipv6_dhcp`, and `ipv4` / `ipv6` per static address with `ip_address`, `netmask`
 * (dotted for IPv4, full form for IPv6), the gateway as a `gateway` key on the first address of a family (cloud-init
 * passes it to the subnet, which renderers turn into a native default gateway; the OpenStack-style default route in
 * `routes` became a `route add` that fails on guests without net-tools, e.g. Debian), and
 * `dns_nameservers` / `dns_search`. Every nameserver also becomes a `dns` service (deduplicated, in order).
 * `version` is ignored (network_data.json has one format).
 */
export function renderNetworkData(spec: NetworkSpec): Record<string, unknown> {
  const links: Record<string, unknown>[] = [];
  const networks: Record<string, unknown>[] = [];
  const dnsServers: string[] = [];
  for (const i of normaliseInterfaces(spec)) {
    links.push({
      id: i.name,
      name: i.name,
      type: 'phy',
      ...(i.mac ? { ethernet_mac_address: i.mac } : {}),
      ...(i.mtu !== undefined ? { mtu: i.mtu } : {}),
    });
    const dns = {
      ...(i.nameservers.length ? { dns_nameservers: i.nameservers } : {}),
      ...(i.search.length ? { dns_search: i.search } : {}),
    };
    const add = (n: Record<string, unknown>) => networks.push({ id: `network${networks.length}`, link: i.name, ...n, ...dns });
    if (i.dhcp4) add({ type: 'ipv4_dhcp' });
    if (i.dhcp6) add({ type: 'ipv6_dhcp' });
    i.v4.forEach((a, n) =>
      add({
        type: 'ipv4',
        ip_address: a.address,
        netmask: ipv4Netmask(a.prefix),
        ...(n === 0 && i.gateway4 ? { gateway: i.gateway4 } : {}),
        routes: [],
      }),
    );
    i.v6.forEach((a, n) =>
      add({
        type: 'ipv6',
        ip_address: a.address,
        netmask: ipv6Netmask(a.prefix),
        ...(n === 0 && i.gateway6 ? { gateway: i.gateway6 } : {}),
        routes: [],
      }),
    );
    for (const s of i.nameservers) if (!dnsServers.includes(s)) dnsServers.push(s);
  }
  return { links, networks, services: dnsServers.map((address) => ({ type: 'dns', address })) };
}
