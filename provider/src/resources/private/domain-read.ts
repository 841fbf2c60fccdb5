/**
 * What libvirt says a `virtseed_domain` is (read and import): its inactive definition and running state as state
 * attributes, the guest's current addresses, and how a read merges them into the state Terraform has.
 */
import { livePort, METADATA_KEYS, parseDomainXml, readGraphics } from '../../../../src/domain';
import type { DomRef, LibvirtClient } from '../../../../src/libvirt';
import { children, child, newParser, type XmlNode } from '../../../../src/xml';
import { addressAttributes, domainAddresses, type AddressAttributes } from './addresses';
import { isActive } from './domain-lifecycle';
import { stateFromDomain } from './domain-refs';
import { DEFINITION_XML_FLAGS, recordedEscapeHatch, unchangedSinceApply } from './domain-escape';
import type { DomainState } from './model';
import { deepEqual, list, str } from './values';

/**
 * The domain's definition and running state as state attributes, and the re-provision policy its metadata keeps.
 * A domain with the escape hatch whose definition is still the one the last apply left (its recorded digest,
 * ./domain-escape.ts) is `current` as it is: what the stylesheet or the extra devices did is not drift.
 * `display_uri` comes from the live XML of a running domain with graphics (one more call, only then).
 */
export async function readDomain(
  client: LibvirtClient,
  dom: DomRef,
  current?: DomainState,
): Promise<{ state: DomainState; policy?: string }> {
  // All calls in flight at once on the one connection: one round trip instead of three.
  const [xml, info, autostart] = await Promise.all([
    client.domainGetXmlDesc(dom, DEFINITION_XML_FLAGS),
    client.domainGetState(dom),
    client.domainGetAutostart(dom),
  ]);
  const running = isActive(info.state);
  const hatch = recordedEscapeHatch(xml);
  if (current && unchangedSinceApply(xml, hatch)) {
    const state = { ...current, running, autostart };
    return { state: { ...state, graphics: await withDisplayUris(client, dom, state) }, policy: str(current.reprovision) };
  }
  const spec = parseDomainXml(xml, { extraDevices: hatch?.devices });
  const state: DomainState = { ...(await stateFromDomain(client, spec, running)), autostart };
  if (hatch) state.xml = { devices: spec.extraDevices ?? null, xslt: hatch.xslt ?? null };
  return {
    state: { ...state, graphics: await withDisplayUris(client, dom, state) },
    policy: spec.metadata?.[METADATA_KEYS.reprovisionPolicy],
  };
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

/** Keeps `current`'s value for every attribute libvirt agrees with, takes libvirt's where it differs (drift). */
export function mergeObserved(current: DomainState, observed: DomainState): DomainState {
  const out = { ...current };
  for (const key of OBSERVED_ATTRS) if (!deepEqual(current[key], observed[key])) take(out, observed, key);
  for (const key of OBSERVED_BLOCKS) if (!sameBlocks(list<object>(current[key]), list<object>(observed[key]))) take(out, observed, key);
  if (!sameBootDevices(current.boot_devices, observed.boot_devices)) out.boot_devices = observed.boot_devices;
  if (observed.console_log !== null) out.console_log = observed.console_log;
  return out;
}
