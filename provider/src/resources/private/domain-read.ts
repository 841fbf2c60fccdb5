/**
 * What libvirt says a `virtseed_domain` is (read and import): its inactive definition and running state as state
 * attributes, the guest's current addresses, and how a read merges them into the state Terraform has.
 */
import { METADATA_KEYS, parseDomainXml } from '../../../../src/domain';
import { VIR_DOMAIN_XML_INACTIVE, type DomRef, type LibvirtClient } from '../../../../src/libvirt';
import { addressAttributes, domainAddresses, type AddressAttributes } from './addresses';
import { isActive } from './domain-lifecycle';
import { stateFromDomain } from './domain-refs';
import type { DomainState } from './model';
import { deepEqual, list } from './values';

/** The domain's definition and running state as state attributes, and the re-provision policy its metadata keeps. */
export async function readDomain(client: LibvirtClient, dom: DomRef): Promise<{ state: DomainState; policy?: string }> {
  // Both calls in flight at once on the one connection: one round trip instead of two.
  const [xml, info, autostart] = await Promise.all([
    client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE),
    client.domainGetState(dom),
    client.domainGetAutostart(dom),
  ]);
  const spec = parseDomainXml(xml);
  const running = isActive(info.state);
  const state = { ...(await stateFromDomain(client, spec, running)), autostart };
  return { state, policy: spec.metadata?.[METADATA_KEYS.reprovisionPolicy] };
}

/** The guest's addresses now (none while shut off), asking the guest agent when the domain has its channel. */
export async function currentAddresses(client: LibvirtClient, dom: DomRef, s: DomainState): Promise<AddressAttributes> {
  return addressAttributes(await domainAddresses(client, dom, { agent: s.qemu_agent === true }));
}

/** Attributes read back from libvirt: `current` keeps its value where libvirt agrees, takes libvirt's where not. */
const OBSERVED_ATTRS: readonly (keyof DomainState)[] = [
  'name',
  'memory',
  'max_memory',
  'vcpu',
  'max_vcpu',
  'autostart',
  'type',
  'cpu_mode',
  'firmware',
  'secure_boot',
  'kernel',
  'initrd',
  'cmdline',
  'cloudinit_seed_id',
  'ignition_id',
  'running',
  'uuid',
  'id',
  'qemu_agent',
  'addresses',
  'ip_address',
];

function take<S, K extends keyof S>(to: S, from: S, key: K): void {
  to[key] = from[key];
}

/** True when every observed block attribute equals the current one (a null observed value matches an absent one). */
function sameBlocks(current: object[], observed: object[]): boolean {
  return (
    current.length === observed.length &&
    current.every((c, i) => {
      const cur = new Map(Object.entries(c));
      return Object.entries(observed[i]).every(([k, v]) => (v === null && !cur.has(k)) || deepEqual(cur.get(k), v));
    })
  );
}

/** Keeps `current`'s value for every attribute libvirt agrees with, takes libvirt's where it differs (drift). */
export function mergeObserved(current: DomainState, observed: DomainState): DomainState {
  const out = { ...current };
  for (const key of OBSERVED_ATTRS) if (!deepEqual(current[key], observed[key])) take(out, observed, key);
  if (!sameBlocks(list<object>(current.disk), list<object>(observed.disk))) out.disk = observed.disk;
  if (!sameBlocks(list<object>(current.network_interface), list<object>(observed.network_interface)))
    out.network_interface = observed.network_interface;
  if (observed.console_log !== null) out.console_log = observed.console_log;
  return out;
}
