/**
 * What libvirt says a `virtseed_domain` is (read and import): its inactive definition and running state as state
 * attributes, the guest's current addresses, and how a read merges them into the state Terraform has.
 *
 * A read that finds the definition unchanged does almost nothing (issue #25): the resource's private state keeps a
 * digest of the inactive XML the last read parsed ({@link READ_DIGEST_VERSION}, the schema and the XML), and when
 * libvirt's XML has the same digest and every object the state refers to (volumes by key, plain files by path,
 * networks by UUID) is still there, the state Terraform has is what parsing would give again: only the running
 * state, autostart and the addresses are taken anew.
 */
import { createHash } from 'node:crypto';
import { METADATA_KEYS, parseDomainXml } from '../../../../src/domain';
import { DOMAIN_FIELDS } from '../../../../src/fields';
import { VIR_DOMAIN_XML_INACTIVE, type DomRef, type LibvirtClient } from '../../../../src/libvirt';
import { isUuid } from '../../../../src/uuid';
import { addressAttributes, domainAddresses, type AddressAttributes } from './addresses';
import { isActive } from './domain-lifecycle';
import { stateFromDomain } from './domain-refs';
import { networkByUuid, volumeByKey, volumeByPath } from './lookups';
import type { DomainState } from './model';
import { keepNetworkRefs } from './network-refs';
import { deepEqual, list, str } from './values';

/** The domain's definition and running state as state attributes, and the re-provision policy its metadata keeps. */
export async function readDomain(client: LibvirtClient, dom: DomRef): Promise<{ state: DomainState; policy?: string }> {
  const { xml, running, autostart } = await describe(client, dom);
  const spec = parseDomainXml(xml);
  const state = { ...(await stateFromDomain(client, spec, running)), autostart };
  return { state, policy: spec.metadata?.[METADATA_KEYS.reprovisionPolicy] };
}

/** The inactive XML, whether the domain runs and whether it starts with the host. The calls are in flight at once
 *  on the one connection: one round trip. */
async function describe(client: LibvirtClient, dom: DomRef): Promise<{ xml: string; running: boolean; autostart: boolean }> {
  const [xml, info, autostart] = await Promise.all([
    client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE),
    client.domainGetState(dom),
    client.domainGetAutostart(dom),
  ]);
  return { xml, running: isActive(info.state), autostart };
}

/**
 * The guest's addresses now (none while shut off), asking the guest agent when the domain has its channel.
 * `running`: whether libvirt has just said the domain runs (a read knows it), so libvirt is not asked again.
 */
export async function currentAddresses(client: LibvirtClient, dom: DomRef, s: DomainState, running?: boolean): Promise<AddressAttributes> {
  if (running === false) return addressAttributes([]);
  return addressAttributes(await domainAddresses(client, dom, { agent: s.qemu_agent === true, ...(running ? { active: true } : {}) }));
}

/**
 * Bump when the state read from an unchanged XML changes (parsing, the state mapping, OBSERVED_ATTRS): every
 * digest kept before then stops matching, so the next read parses. A schema change does that by itself.
 * test/provider/resources/domain-read.test.ts fails when the mapping of its fixtures changes and this does not.
 */
export const READ_DIGEST_VERSION = 3;

let salt: string | undefined;

/** The digest a read keeps for `xml`: sha256 over READ_DIGEST_VERSION, the resource's schema and the XML. */
export function xmlDigest(xml: string): string {
  salt ??= createHash('sha256')
    .update(`${READ_DIGEST_VERSION}\n${JSON.stringify(DOMAIN_FIELDS)}`)
    .digest('base64');
  return createHash('sha256').update(salt).update(xml).digest('base64');
}

/** The private state of a domain: what the last read kept (JSON; unknown keys are kept for others' use). */
interface DomainPrivate {
  /** {@link xmlDigest} of the inactive XML the last read parsed. */
  readonly xml?: string;
  readonly [key: string]: unknown;
}

function parsePrivate(bytes: Buffer | undefined): DomainPrivate {
  if (!bytes || bytes.length === 0) return {};
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as DomainPrivate) : {};
  } catch {
    return {}; // not ours (or from a provider version without a digest): the read parses
  }
}

/** True when every object `s` refers to is still the one a read found: volumes by key, plain files by path (no
 *  volume there now), networks named by UUID. Anything else (a missing volume's `pool/volume`) is false. */
async function referencesHold(client: LibvirtClient, s: DomainState): Promise<boolean> {
  const checks: Promise<boolean>[] = [];
  const byKeyOrFile = async (id: string) =>
    (await volumeByKey(client, id)) !== null || (id.startsWith('/') && (await volumeByPath(client, id)) === null);
  for (const d of list(s.disk)) {
    const key = str(d.volume_id);
    const file = str(d.file);
    if (key) checks.push(volumeByKey(client, key).then((v) => v !== null));
    else if (file) checks.push(volumeByPath(client, file).then((v) => v === null));
  }
  for (const id of [str(s.cloudinit_seed_id), str(s.ignition_id)]) if (id) checks.push(byKeyOrFile(id));
  for (const n of list(s.network_interface)) {
    const ref = str(n.network);
    if (ref && isUuid(ref)) checks.push(networkByUuid(client, ref).then((net) => net !== null));
  }
  return (await Promise.all(checks)).every(Boolean);
}

/**
 * ReadResource of a domain: the state Terraform should now have, and the private state to keep with it. Parses
 * the definition only when it changed since the last read (see the module docstring). Throws LibvirtError (a
 * domain undefined meanwhile: VIR_ERR_NO_DOMAIN).
 */
export async function refreshDomain(
  client: LibvirtClient,
  dom: DomRef,
  current: DomainState,
  priv: Buffer | undefined,
): Promise<{ state: DomainState; private: Buffer }> {
  const { xml, running, autostart } = await describe(client, dom);
  const kept = parsePrivate(priv);
  const digest = xmlDigest(xml);
  const keep = Buffer.from(JSON.stringify({ ...kept, xml: digest }));
  if (kept.xml === digest && (await referencesHold(client, current))) {
    return {
      state: mergeObserved(current, { ...current, running, autostart, ...(await currentAddresses(client, dom, current, running)) }),
      private: keep,
    };
  }
  const observed = { ...(await stateFromDomain(client, parseDomainXml(xml), running)), autostart };
  observed.network_interface = await keepNetworkRefs(client, current.network_interface, observed.network_interface);
  return { state: mergeObserved(current, { ...observed, ...(await currentAddresses(client, dom, observed, running)) }), private: keep };
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

/** `priv` without the read's digest (after an apply: the next read parses), other keys kept. */
export function withoutReadDigest(priv: Buffer | undefined): Buffer {
  const { xml: _dropped, ...rest } = parsePrivate(priv);
  return Object.keys(rest).length ? Buffer.from(JSON.stringify(rest)) : Buffer.alloc(0);
}
