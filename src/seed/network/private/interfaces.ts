/** Normalised view of NetworkSpec interfaces shared by the v1, v2 and network_data.json renderers. */
import type { NetworkInterfaceSpec, NetworkSpec } from '../../model';
import { parseCidr } from '../../../ip';

export interface NormalisedInterface {
  /** Given name, or `eth<index>`. */
  name: string;
  nameGiven: boolean;
  mac?: string;
  dhcp4: boolean;
  dhcp6: boolean;
  v4: { address: string; prefix: number }[];
  v6: { address: string; prefix: number }[];
  gateway4?: string;
  gateway6?: string;
  nameservers: string[];
  search: string[];
  mtu?: number;
}

/** Applies defaults and `force_dhcp` (DHCPv4 only, static addresses and gateways dropped). */
export function normaliseInterfaces(spec: NetworkSpec): NormalisedInterface[] {
  return spec.interfaces.map((i: NetworkInterfaceSpec, index) => {
    const cidrs = (i.addresses ?? []).map((a) => parseCidr(a)).filter((c) => c !== undefined);
    const force = spec.force_dhcp === true;
    return {
      name: i.name ?? `eth${index}`,
      nameGiven: i.name !== undefined,
      ...(i.mac !== undefined ? { mac: i.mac.toLowerCase() } : {}),
      dhcp4: force || i.dhcp4 === true,
      dhcp6: !force && i.dhcp6 === true,
      v4: force ? [] : cidrs.filter((c) => c.family === 'ipv4').map(({ address, prefix }) => ({ address, prefix })),
      v6: force ? [] : cidrs.filter((c) => c.family === 'ipv6').map(({ address, prefix }) => ({ address, prefix })),
      ...(!force && i.gateway4 !== undefined ? { gateway4: i.gateway4 } : {}),
      ...(!force && i.gateway6 !== undefined ? { gateway6: i.gateway6 } : {}),
      nameservers: i.nameservers ?? [],
      search: i.search ?? [],
      ...(i.mtu !== undefined ? { mtu: i.mtu } : {}),
    };
  });
}
