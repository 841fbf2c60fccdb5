/** network-config version 2 (cloud-init docs, "Networking config Version 2", a netplan subset): `ethernets`. */
import type { NetworkSpec } from '../model';
import { normaliseInterfaces } from './private/interfaces';

/**
 * `{version: 2, ethernets: {<id>: {...}}}`; the id is the interface name (or `eth<index>`). With a MAC:
 * `match: {macaddress}` plus `set-name` when a name was given. `dhcp4`/`dhcp6` are always written; `addresses`
 * in CIDR form; gateways as `gateway4`/`gateway6` (cloud-init's v2 keys): cloud-init turns them into each
 * renderer's native default gateway (ENI `gateway`, netplan `routes: [{to: default}]`, networkd, sysconfig),
 * whereas default `routes` (`to: 0.0.0.0/0`) become `post-up route add …` on ENI distributions (Debian), which
 * silently fails where net-tools is not installed (seen with cloud-init 22.4 on Debian 12);
 * `nameservers: {addresses, search}`; `mtu`.
 */
export function renderNetworkV2(spec: NetworkSpec): Record<string, unknown> {
  const ethernets: Record<string, unknown> = {};
  for (const i of normaliseInterfaces(spec)) {
    const addresses = [...i.v4, ...i.v6].map((a) => `${a.address}/${a.prefix}`);
    ethernets[i.name] = {
      ...(i.mac ? { match: { macaddress: i.mac }, ...(i.nameGiven ? { 'set-name': i.name } : {}) } : {}),
      dhcp4: i.dhcp4,
      dhcp6: i.dhcp6,
      ...(addresses.length ? { addresses } : {}),
      ...(i.gateway4 ? { gateway4: i.gateway4 } : {}),
      ...(i.gateway6 ? { gateway6: i.gateway6 } : {}),
      ...(i.nameservers.length || i.search.length
        ? {
            nameservers: {
              ...(i.nameservers.length ? { addresses: i.nameservers } : {}),
              ...(i.search.length ? { search: i.search } : {}),
            },
          }
        : {}),
      ...(i.mtu !== undefined ? { mtu: i.mtu } : {}),
    };
  }
  return { version: 2, ethernets };
}
