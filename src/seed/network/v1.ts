/** network-config version 1 (cloud-init docs, "Networking config Version 1"): one `physical` entry per interface. */
import type { NetworkSpec } from '../model';
import { normaliseInterfaces } from './private/interfaces';

/**
 * `{version: 1, config: [{type: physical, name, mac_address?, mtu?, subnets}]}`. Subnets: `dhcp4`, `dhcp6`,
 * `static` / `static6` per address (CIDR form; the interface's first address of a family carries its gateway);
 * nameservers and search domains go on every subnet (`dns_nameservers`, `dns_search`). An interface without a
 * name is named `eth<index>` (with a MAC it is renamed to that).
 */
export function renderNetworkV1(spec: NetworkSpec): Record<string, unknown> {
  const config = normaliseInterfaces(spec).map((i) => {
    const dns = {
      ...(i.nameservers.length ? { dns_nameservers: i.nameservers } : {}),
      ...(i.search.length ? { dns_search: i.search } : {}),
    };
    const subnets: Record<string, unknown>[] = [];
    if (i.dhcp4) subnets.push({ type: 'dhcp4', ...dns });
    if (i.dhcp6) subnets.push({ type: 'dhcp6', ...dns });
    i.v4.forEach((a, n) =>
      subnets.push({
        type: 'static',
        address: `${a.address}/${a.prefix}`,
        ...(n === 0 && i.gateway4 ? { gateway: i.gateway4 } : {}),
        ...dns,
      }),
    );
    i.v6.forEach((a, n) =>
      subnets.push({
        type: 'static6',
        address: `${a.address}/${a.prefix}`,
        ...(n === 0 && i.gateway6 ? { gateway: i.gateway6 } : {}),
        ...dns,
      }),
    );
    return {
      type: 'physical',
      name: i.name,
      ...(i.mac ? { mac_address: i.mac } : {}),
      ...(i.mtu !== undefined ? { mtu: i.mtu } : {}),
      subnets,
    };
  });
  return { version: 1, config };
}
