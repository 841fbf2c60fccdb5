/**
 * What libvirt says a `virtseed_domain` is (read and import): its inactive definition and running state as state
 * attributes, the guest's current addresses, and how a read merges them into the state Terraform has.
 *
 * A read that finds the definition unchanged does almost nothing (issue #25): the resource's private state keeps a
 * digest of the inactive XML the last read parsed ({@link READ_DIGEST_VERSION}, the schema and the XML), and when
 * libvirt's XML has the same digest and every object the state refers to (volumes by key, plain files by path,
 * networks by UUID) is still there, the state Terraform has is what parsing would give again: only the running
 * state, autostart and the addresses are taken anew. The same holds for a domain with the escape hatch whose
 * definition is still the one the last apply left (its digest in the domain's metadata, ./domain-escape.ts): what
 * the stylesheet or the extra devices did is not drift, even at the first read after the apply. An apply keeps the
 * digest of the definition it leaves when a parse of it gives back the state it returns ({@link privateAfterApply}):
 * `terraform plan` does not save what its reads return, so without it every plan after an apply would parse.
 * `graphics[*].display_uri` comes from the live XML of a running domain with graphics (one more call, only then).
 */
import { createHash } from 'node:crypto';
import { livePort, METADATA_KEYS, parseDomainXml, readGraphics } from '../../../../src/domain';
import { DOMAIN_FIELDS } from '../../../../src/fields';
import type { DomRef, LibvirtClient } from '../../../../src/libvirt';
import { isUuid } from '../../../../src/uuid';
import { children, child, newParser, type XmlNode } from '../../../../src/xml';
import { addressAttributes, domainAddresses, type AddressAttributes } from './addresses';
import { asWritten } from './domain-as-written';
import { isActive } from './domain-lifecycle';
import { DEFINITION_XML_FLAGS, recordedEscapeHatch, unchangedSinceApply, type RecordedEscapeHatch } from './domain-escape';
import { stateFromDomain } from './domain-refs';
import { networkByUuid, volumeByKey, volumeByPath } from './lookups';
import type { DomainState } from './model';
import { keepNetworkRefs } from './network-refs';
import { deepEqual, list, str } from './values';

/** The domain's definition and running state as state attributes, and the re-provision policy its metadata keeps. */
export async function readDomain(client: LibvirtClient, dom: DomRef): Promise<{ state: DomainState; policy?: string }> {
  const { xml, running, autostart } = await describe(client, dom);
  const hatch = recordedEscapeHatch(xml);
  const { state, policy } = await observe(client, xml, running, hatch);
  return { state: { ...state, autostart, graphics: await withDisplayUris(client, dom, state) }, policy };
}

/** The state attributes a definition describes (the escape hatch's elements kept apart), and its policy. */
async function observe(
  client: LibvirtClient,
  xml: string,
  running: boolean,
  hatch: RecordedEscapeHatch | undefined,
): Promise<{ state: DomainState; policy?: string }> {
  const spec = parseDomainXml(xml, { extraDevices: hatch?.devices });
  const state = await stateFromDomain(client, spec, running);
  if (hatch) state.xml = { devices: spec.extraDevices ?? null, xslt: hatch.xslt ?? null };
  return { state, policy: spec.metadata?.[METADATA_KEYS.reprovisionPolicy] };
}

/** Where to connect to a display QEMU listens on: `vnc://127.0.0.1:5901`, `spice+unix:///path`, … */
export function displayUri(node: XmlNode): string | null {
  const g = readGraphics(node, 'graphics');
  if (g.listen.type === 'socket') return `${g.type}+unix://${g.listen.socket}`;
  const port = livePort(node);
  if (port === undefined) return null;
  const any = g.listen.address === '0.0.0.0' || g.listen.address === '::';
  const host = any ? '127.0.0.1' : g.listen.address.includes(':') ? `[${g.listen.address}]` : g.listen.address;
  return `${g.type}://${host}:${port}`;
}

/** The state's graphics with `display_uri` from the running domain's live XML (null while it is shut off). */
export async function withDisplayUris(client: LibvirtClient, dom: DomRef, s: DomainState): Promise<DomainState['graphics']> {
  const graphics = list(s.graphics);
  if (!graphics.length) return s.graphics;
  if (s.running !== true) return graphics.map((g) => ({ ...g, display_uri: null }));
  const live = child(newParser().parse(await client.domainGetXmlDesc(dom, 0), true) as XmlNode, 'domain');
  const nodes = children(child(live, 'devices'), 'graphics');
  return graphics.map((g) => {
    const node = nodes.find((n) => n['@_type'] === g.type);
    return { ...g, display_uri: node ? displayUri(node) : null };
  });
}

/** The inactive XML, whether the domain runs and whether it starts with the host. The calls are in flight at once
 *  on the one connection: one round trip. `shutOff`: what a domain listing just said of a shut-off domain (its
 *  autostart flag), so only the XML is asked for. */
async function describe(
  client: LibvirtClient,
  dom: DomRef,
  shutOff?: { readonly autostart: boolean },
): Promise<{ xml: string; running: boolean; autostart: boolean }> {
  if (shutOff) return { xml: await client.domainGetXmlDesc(dom, DEFINITION_XML_FLAGS), running: false, autostart: shutOff.autostart };
  const [xml, info, autostart] = await Promise.all([
    client.domainGetXmlDesc(dom, DEFINITION_XML_FLAGS),
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
export const READ_DIGEST_VERSION = 5;

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
 * the definition only when it changed since the last read (see the module docstring). `shutOff`: the domain was
 * shut off, with this autostart flag, in the listing that found it (./domain-directory.ts), so libvirt is not asked
 * again. Throws LibvirtError (a domain undefined meanwhile: VIR_ERR_NO_DOMAIN).
 */
export async function refreshDomain(
  client: LibvirtClient,
  dom: DomRef,
  current: DomainState,
  priv: Buffer | undefined,
  shutOff?: { readonly autostart: boolean },
): Promise<{ state: DomainState; private: Buffer }> {
  const { xml, running, autostart } = await describe(client, dom, shutOff);
  const kept = parsePrivate(priv);
  const digest = xmlDigest(xml);
  const keep = Buffer.from(JSON.stringify({ ...kept, xml: digest }));
  const hatch = recordedEscapeHatch(xml);
  if ((kept.xml === digest || unchangedSinceApply(xml, hatch)) && (await referencesHold(client, current))) {
    const same = { ...current, running, autostart };
    return {
      state: mergeObserved(current, {
        ...same,
        ...(await currentAddresses(client, dom, current, running)),
        graphics: await withDisplayUris(client, dom, same),
      }),
      private: keep,
    };
  }
  const observed = { ...(await observe(client, xml, running, hatch)).state, autostart };
  observed.network_interface = await keepNetworkRefs(client, current.network_interface, observed.network_interface);
  observed.graphics = await withDisplayUris(client, dom, observed);
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
  'anti_affinity',
  'running',
  'uuid',
  'id',
  'qemu_agent',
  'addresses',
  'ip_address',
  // issue 22: settings and single devices
  'title',
  'description',
  'metadata',
  'on_poweroff',
  'on_reboot',
  'on_crash',
  'boot_menu',
  'boot_menu_timeout',
  'video',
  'cpu_topology',
  'tpm',
  'rng',
  'watchdog',
  'xml',
];

/** Device lists read back element by element. */
const OBSERVED_BLOCKS = [
  'disk',
  'network_interface',
  'graphics',
  'filesystem',
  'serial',
  'console',
  'channel',
  'input',
  'hostdev',
] as const;

/** `boot_devices` null and `["hd"]` are the same order (the default). */
function sameBootDevices(a: DomainState['boot_devices'], b: DomainState['boot_devices']): boolean {
  const norm = (v: DomainState['boot_devices']) => (Array.isArray(v) ? v : ['hd']);
  return deepEqual(norm(a), norm(b));
}

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

/** `observed`'s displays with `current`'s passwords and their keyed digests (of `password_wo`): reads do not ask
 *  libvirt for them (DEFINITION_XML_FLAGS). */
function keepPasswords(current: DomainState, observed: DomainState): DomainState['graphics'] {
  const known = list(current.graphics);
  return Array.isArray(observed.graphics)
    ? observed.graphics.map((g, i) => ({
        ...g,
        password: g.password ?? known[i]?.password ?? null,
        password_wo: null,
        password_keyed_digest: g.password_keyed_digest ?? known[i]?.password_keyed_digest ?? null,
      }))
    : observed.graphics;
}

/** Keeps `current`'s value for every attribute libvirt agrees with (also in another spelling: ./domain-as-written.ts),
 *  takes libvirt's where it differs (drift). */
export function mergeObserved(current: DomainState, seen: DomainState): DomainState {
  const observed: DomainState = { ...asWritten(current, seen), graphics: keepPasswords(current, seen) };
  const out = { ...current };
  for (const key of OBSERVED_ATTRS) if (!deepEqual(current[key], observed[key])) take(out, observed, key);
  for (const key of OBSERVED_BLOCKS) if (!sameBlocks(list<object>(current[key]), list<object>(observed[key]))) take(out, observed, key);
  if (!sameBootDevices(current.boot_devices, observed.boot_devices)) out.boot_devices = observed.boot_devices;
  if (observed.console_log !== null) out.console_log = observed.console_log;
  return out;
}

/**
 * The private state an apply leaves for a domain it just defined (issue #25): `priv`'s other keys, and the digest
 * of the definition libvirt now has when a read parsing it would give `applied` back (every attribute a read
 * observes as the apply recorded it, with the running state, autostart, addresses and display URIs the apply
 * took), so the plans that follow find it unchanged and do not parse it. Otherwise, or when libvirt cannot be
 * asked, no digest: the next read parses and reports what differs. One call and one parse per applied domain.
 */
export async function privateAfterApply(
  client: LibvirtClient,
  dom: DomRef,
  applied: DomainState,
  priv: Buffer | undefined,
): Promise<Buffer> {
  const rest = withoutReadDigest(priv);
  try {
    const xml = await client.domainGetXmlDesc(dom, DEFINITION_XML_FLAGS);
    const observed = (await observe(client, xml, applied.running === true, recordedEscapeHatch(xml))).state;
    const took = list(applied.graphics);
    const seen: DomainState = {
      ...observed,
      running: applied.running,
      autostart: applied.autostart,
      addresses: applied.addresses,
      ip_address: applied.ip_address,
      network_interface: await keepNetworkRefs(client, applied.network_interface, observed.network_interface),
      graphics: Array.isArray(observed.graphics)
        ? observed.graphics.map((g, i) => ({ ...g, display_uri: took[i]?.display_uri ?? null }))
        : observed.graphics,
    };
    if (!sameOnTheWire(mergeObserved(applied, seen), applied)) return rest;
    const { xml: _before, ...others } = parsePrivate(priv);
    return Buffer.from(JSON.stringify({ ...others, xml: xmlDigest(xml) }));
  } catch {
    return rest;
  }
}

/** Equal once encoded for Terraform, where an absent attribute is null (the state a read gets has every one). */
function sameOnTheWire(a: unknown, b: unknown): boolean {
  if ((a ?? null) === (b ?? null)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameOnTheWire(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return [...new Set([...Object.keys(ra), ...Object.keys(rb)])].every((k) => sameOnTheWire(ra[k], rb[k]));
  }
  return false;
}

/** `priv` without the read's digest (after an apply: the next read parses), other keys kept. */
export function withoutReadDigest(priv: Buffer | undefined): Buffer {
  const { xml: _dropped, ...rest } = parsePrivate(priv);
  return Object.keys(rest).length ? Buffer.from(JSON.stringify(rest)) : Buffer.alloc(0);
}
