/**
 * A running guest's IP addresses, as libvirt knows them: the DHCP leases of the libvirt networks its NICs are on
 * (virDomainInterfaceAddresses source `lease`, which reads the networks' dnsmasq leases) and, when asked and the
 * domain's QEMU guest agent channel is connected, what the agent reports (source `agent`).
 *
 * Never waits for a guest: a domain that is not running has no addresses; the agent is asked only when libvirt
 * shows its channel as connected, and an agent that does not answer (libvirt bounds the wait) counts as none.
 */
import {
  DomRef,
  LibvirtClient,
  LibvirtError,
  VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_AGENT,
  VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_LEASE,
  VIR_ERR_AGENT_UNRESPONSIVE,
  VIR_ERR_ARGUMENT_UNSUPPORTED,
  VIR_ERR_NO_SUPPORT,
  VIR_ERR_OPERATION_INVALID,
  VIR_ERR_OPERATION_UNSUPPORTED,
  VIR_ERR_OPERATION_FAILED,
} from '../../../../src/libvirt';
import type { CallOptions, DomainInterfaceAddresses } from '../../../../src/libvirt';
import { QEMU_AGENT_CHANNEL_NAME } from '../../../../src/domain';

/** One guest NIC and its addresses, from one source. */
export interface GuestInterfaceAddresses {
  /** MAC address, lowercase `52:54:00:..`. */
  mac: string;
  /** Interface name: the host's tap device (lease) or the guest's own (agent, e.g. `eth0`). */
  name?: string;
  /** Addresses without prefix length, e.g. `192.168.150.23`, `fd00::17`; IPv4 first. */
  addresses: string[];
  source: 'lease' | 'agent';
}

export interface DomainAddressesOptions extends CallOptions {
  /** Also ask the QEMU guest agent (only when its channel is connected). @default false */
  agent?: boolean;
  /** The domain is known to run (the caller has just asked libvirt): libvirt is not asked again. */
  active?: boolean;
}

/** libvirt errors meaning "no addresses from this source now" rather than a failure. */
const NOT_NOW = [
  VIR_ERR_OPERATION_INVALID,
  VIR_ERR_AGENT_UNRESPONSIVE,
  VIR_ERR_ARGUMENT_UNSUPPORTED,
  VIR_ERR_NO_SUPPORT,
  VIR_ERR_OPERATION_UNSUPPORTED,
];

/**
 * The addresses of the running domain `dom`: lease entries first (one per NIC with a lease), then agent entries
 * (one per guest NIC with a MAC, loopback and IPv6 link-local addresses left out) when `options.agent` is set.
 * Returns [] for a domain that is not running. Throws LibvirtError for failures other than "not available now".
 */
export async function domainAddresses(
  client: LibvirtClient,
  dom: DomRef,
  options: DomainAddressesOptions = {},
): Promise<GuestInterfaceAddresses[]> {
  const call: CallOptions = options.signal ? { signal: options.signal } : {};
  if (!options.active && !(await client.domainIsActive(dom, call))) return [];
  const out = toEntries(await ask(client, dom, VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_LEASE, call), 'lease');
  if (options.agent && agentConnected(await client.domainGetXmlDesc(dom, 0, call))) {
    out.push(...toEntries(await ask(client, dom, VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_AGENT, call), 'agent'));
  }
  return out;
}

/** Every address of `entries` once, in order (leases before agent). */
export function allAddresses(entries: readonly GuestInterfaceAddresses[]): string[] {
  return [...new Set(entries.flatMap((e) => e.addresses))];
}

/** True when the live domain XML has the guest agent channel and libvirt sees the agent connected. */
export function agentConnected(liveXml: string): boolean {
  for (const m of liveXml.matchAll(/<channel\b[\s\S]*?<\/channel>/g)) {
    const target = /<target\b[^>]*>/.exec(m[0])?.[0] ?? '';
    if (target.includes(`name='${QEMU_AGENT_CHANNEL_NAME}'`) || target.includes(`name="${QEMU_AGENT_CHANNEL_NAME}"`)) {
      return /state=['"]connected['"]/.test(target);
    }
  }
  return false;
}

async function ask(client: LibvirtClient, dom: DomRef, source: number, call: CallOptions): Promise<DomainInterfaceAddresses[]> {
  try {
    return await client.domainInterfaceAddresses(dom, source, call);
  } catch (err) {
    if (
      err instanceof LibvirtError &&
      (NOT_NOW.includes(err.code) || (source === VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_AGENT && err.code === VIR_ERR_OPERATION_FAILED))
    )
      return [];
    throw err;
  }
}

function toEntries(ifaces: DomainInterfaceAddresses[], source: 'lease' | 'agent'): GuestInterfaceAddresses[] {
  const out: GuestInterfaceAddresses[] = [];
  for (const i of ifaces) {
    const mac = i.hwaddr?.toLowerCase();
    if (!mac || mac === '00:00:00:00:00:00') continue; // loopback (agent)
    const addresses = i.addresses
      .filter((a) => !isLoopbackOrLinkLocal(a.address))
      .sort((a, b) => a.type - b.type)
      .map((a) => a.address);
    if (!addresses.length && source === 'lease') continue;
    out.push({ mac, ...(i.name ? { name: i.name } : {}), addresses, source });
  }
  return out;
}

function isLoopbackOrLinkLocal(address: string): boolean {
  const a = address.toLowerCase();
  return a.startsWith('127.') || a === '::1' || /^fe[89ab][0-9a-f]:/.test(a);
}

/** `virtseed_domain`'s computed `addresses` and `ip_address`. */
export interface AddressAttributes {
  /** Every address of the guest once, leases first (see allAddresses). */
  addresses: string[];
  /** The first IPv4 address of `addresses`, else its first address, else null. */
  ip_address: string | null;
}

/** The `addresses`/`ip_address` attributes of `entries`. */
export function addressAttributes(entries: readonly GuestInterfaceAddresses[]): AddressAttributes {
  const addresses = allAddresses(entries);
  return { addresses, ip_address: addresses.find((a) => !a.includes(':')) ?? addresses[0] ?? null };
}
