/**
 * `virtseed_domain`: a libvirt domain (formatdomain) defined from the shared domain model, with its cloud-init seed
 * as a read-only SATA cdrom or its Ignition config through fw_cfg.
 *
 * Re-provisioning: `instance_id` (wired from the seed's or Ignition config's `instance_id`) changing is the signal.
 * The plan records the decision in `reprovision_action` (`reboot` | `recreate` | `next-boot`, `none` otherwise) and
 * `previous_instance_id`, and warns with both ids, so `terraform show -json` and the human plan both show it.
 * - reboot: the domain is shut down cleanly (bounded by `shutdown_timeout`, then powered off) and started again;
 * - recreate: `instance_id` requires replacement — a new domain (new UUID);
 * - next-boot: nothing happens now; the guest sees the new seed whenever it next boots.
 * Other changes (memory, vCPUs, disks, interfaces, kernel) redefine the domain in place and restart a running guest
 * the same clean way; `running` starts or shuts it down.
 */
import { Diagnostic, error, warning } from '../../../src/diagnostics';
import { METADATA_KEYS, parseDomainXml, renderDomainXml, validateDomainSpec } from '../../../src/domain';
import {
  LibvirtClient,
  LibvirtError,
  DomRef,
  bytesToUuid,
  uuidToBytes,
  VIR_DOMAIN_PAUSED,
  VIR_DOMAIN_RUNNING,
  VIR_DOMAIN_BLOCKED,
  VIR_DOMAIN_SHUTOFF,
  VIR_DOMAIN_UNDEFINE_MANAGED_SAVE,
  VIR_DOMAIN_UNDEFINE_NVRAM,
  VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA,
  VIR_DOMAIN_XML_INACTIVE,
  VIR_ERR_NO_DOMAIN,
} from '../../../src/libvirt';
import { detectDomainType } from '../host-probe';
import { t } from '../plugin/cty';
import type { HandlerContext, ResourceHandler } from '../plugin/handler';
import type { ResourceSchema } from '../plugin/schema';
import { addressAttributes, AddressAttributes, domainAddresses } from './private/addresses';
import { clientOf } from './private/client';
import { forgetDomainListing, isNoDomain, lookupDomainByUuid } from './private/domain-directory';
import { REPROVISION_POLICIES, resolveRefs, stateFromDomain, toDomainSpec, withDefaults } from './private/domain-state';
import { missingNetworkDiagnostics, keepNetworkRefs } from './private/network-refs';
import { newDomainChecks, noteReplacement, planHost } from './private/plan-checks';
import { mapDiagnostics } from './private/paths';
import { DEFAULT_WAIT_TIMEOUT_S, leaseDiagnostics, startAndWait, startAndWaitForLease, WAIT_FOR_VALUES, waitDiagnostics } from './private/wait-for';
import { deepEqual, isWhollyKnown, list, num, str, UNKNOWN } from './private/values';

type State = Record<string, unknown>;

export const DOMAIN_SCHEMA: ResourceSchema = {
  version: 0,
  description: 'A libvirt domain (virtual machine) provisioned by a cloud-init seed or an Ignition config.',
  attributes: {
    id: { type: t.string, computed: true, description: 'Domain UUID.' },
    uuid: { type: t.string, computed: true, description: 'Domain UUID.' },
    name: { type: t.string, required: true, description: 'Domain name.' },
    memory: { type: t.number, required: true, description: 'Memory in MiB.' },
    vcpu: { type: t.number, optional: true, computed: true, description: 'Virtual CPUs. Default 1.' },
    type: { type: t.string, optional: true, computed: true, description: '`kvm` or `qemu` (TCG). Default: `kvm` only where KVM really runs guests.' },
    cpu_mode: { type: t.string, optional: true, description: '`host-passthrough`, `host-model`, `maximum` or `custom`.' },
    kernel: { type: t.string, optional: true, description: 'Host path of a kernel for direct kernel boot.' },
    initrd: { type: t.string, optional: true, description: 'Host path of an initrd (with `kernel`).' },
    cmdline: { type: t.string, optional: true, description: 'Kernel command line (with `kernel`).' },
    cloudinit_seed_id: { type: t.string, optional: true, description: 'A `virtseed_cloudinit_seed.id`, attached as a read-only cdrom.' },
    ignition_id: { type: t.string, optional: true, description: 'A `virtseed_ignition.id`, passed through fw_cfg `opt/com.coreos/config`.' },
    instance_id: { type: t.string, optional: true, description: 'The seed\'s (or Ignition config\'s) `instance_id`. A change re-provisions the guest according to `reprovision`.' },
    reprovision: { type: t.string, optional: true, computed: true, description: 'What a changed `instance_id` does: `reboot` (default: restart the guest on the same disks), `recreate` (replace the domain), `next-boot` (only swap the seed).' },
    running: { type: t.bool, optional: true, computed: true, description: 'Whether the domain runs. Default true.' },
    shutdown_timeout: { type: t.number, optional: true, computed: true, description: 'Seconds to wait for a clean shutdown before powering off. Default 60.' },
    console_log: { type: t.string, computed: true, description: 'Host path of the serial console log.' },
    wait_for: { type: t.string, optional: true, computed: true, description: 'What an apply that starts the guest waits for, read through libvirt only (so it works for remote hosts too): `none` (default), `lease` (an address appeared: a DHCP lease on the domain\'s libvirt networks, or the guest agent\'s), `cloud-init` (cloud-init finished this boot; its module failures fail the apply), `ignition` (Ignition finished on the first boot).' },
    wait_timeout: { type: t.number, optional: true, computed: true, description: 'Seconds `wait_for` waits from the guest\'s start before the apply fails (the guest keeps running). Default 600.' },
    reprovision_action: { type: t.string, computed: true, description: 'What this plan does to the guest because of `instance_id`: `none`, `reboot`, `recreate` or `next-boot`.' },
    previous_instance_id: { type: t.string, computed: true, description: 'The instance-id before a re-provision decision (null when `reprovision_action` is `none`).' },
    qemu_agent: { type: t.bool, optional: true, computed: true, description: 'Give the guest a QEMU guest agent channel (virtio-serial `org.qemu.guest_agent.0`), so `addresses` also holds what a running qemu-guest-agent reports (NICs on user-mode networking or without DHCP). Default false.' },
    addresses: { type: t.list(t.string), computed: true, description: 'The running guest\'s IP addresses, without prefix length: DHCP leases of its libvirt networks first, then (with `qemu_agent`) what the guest agent reports; loopback and IPv6 link-local left out. Empty while the guest is shut off or has no address yet; refreshed at every read (which never waits for the guest).' },
    ip_address: { type: t.string, computed: true, description: 'The first IPv4 address of `addresses` (else its first address); null when there is none.' },
  },
  blocks: {
    disk: {
      nesting: 'list',
      block: {
        description: 'A disk. Exactly one of `volume_id` and `file`.',
        attributes: {
          volume_id: { type: t.string, optional: true, description: 'A `virtseed_volume.id` (volume key).' },
          file: { type: t.string, optional: true, description: 'Host path of an image file.' },
          target: { type: t.string, optional: true, computed: true, description: 'Guest device, default `vda`, `vdb`, … in order.' },
          bus: { type: t.string, optional: true, computed: true, description: '`virtio` (default), `sata` or `scsi`.' },
          readonly: { type: t.bool, optional: true, computed: true, description: 'Default false.' },
        },
      },
    },
    network_interface: {
      nesting: 'list',
      block: {
        description: 'A network interface: a libvirt network (`network`), or QEMU user networking (`user = true`).',
        attributes: {
          network: { type: t.string, optional: true, description: 'A libvirt network: a `virtseed_network.id` (UUID) or a network name, e.g. `default`.' },
          user: { type: t.bool, optional: true, computed: true, description: 'QEMU user-mode networking.' },
          restrict: { type: t.bool, optional: true, computed: true, description: 'With `user`: isolate the guest (no traffic leaves the host). Default true.' },
          mac: { type: t.string, optional: true, computed: true, description: 'MAC address. Default: stable, derived from the domain name and position.' },
          model: { type: t.string, optional: true, computed: true, description: 'NIC model, default `virtio`.' },
        },
      },
    },
  },
};

/** Attributes whose change needs the domain redefined (and a running guest restarted). */
const DEFINITION_ATTRS = ['memory', 'vcpu', 'type', 'cpu_mode', 'kernel', 'initrd', 'cmdline', 'disk', 'network_interface', 'cloudinit_seed_id', 'ignition_id', 'qemu_agent'];

/** Computed attributes a plan cannot know: what the guest's addresses will be. */
const ADDRESS_ATTRS = ['addresses', 'ip_address'];
const NO_ADDRESSES: AddressAttributes = { addresses: [], ip_address: null };

function validateConfig(c: State): Diagnostic[] {
  const d: Diagnostic[] = [];
  if (c.cloudinit_seed_id != null && c.ignition_id != null) // unknown (a resource not created yet) counts as set
    d.push(error(['ignition_id'], 'Conflicting provisioning', 'A domain gets either a cloud-init seed (cloudinit_seed_id) or an Ignition config (ignition_id), not both. Remove one.'));
  const policy = str(c.reprovision);
  if (policy !== undefined && !(REPROVISION_POLICIES as readonly string[]).includes(policy))
    d.push(error(['reprovision'], 'Invalid reprovision policy', `reprovision is "${policy}"; expected one of ${REPROVISION_POLICIES.join(', ')}.`));
  const type = str(c.type);
  if (type !== undefined && type !== 'kvm' && type !== 'qemu') d.push(error(['type'], 'Invalid domain type', `type is "${type}"; expected kvm or qemu.`));
  const timeout = num(c.shutdown_timeout);
  if (timeout !== undefined && !(timeout >= 0)) d.push(error(['shutdown_timeout'], 'Invalid shutdown_timeout', `shutdown_timeout is ${timeout}; expected seconds ≥ 0.`));
  const waitFor = str(c.wait_for);
  if (waitFor !== undefined && !(WAIT_FOR_VALUES as readonly string[]).includes(waitFor))
    d.push(error(['wait_for'], 'Invalid wait_for', `wait_for is "${waitFor}"; expected one of ${WAIT_FOR_VALUES.join(', ')}.`));
  if (waitFor === 'cloud-init' && c.cloudinit_seed_id === null)
    d.push(error(['wait_for'], 'Nothing to wait for', 'wait_for = "cloud-init" needs a cloud-init seed (cloudinit_seed_id). Attach a seed or set wait_for = "none".'));
  if (waitFor === 'ignition' && c.ignition_id === null)
    d.push(error(['wait_for'], 'Nothing to wait for', 'wait_for = "ignition" needs an Ignition config (ignition_id). Attach one or set wait_for = "none".'));
  if (waitFor === 'lease' && !list<State>(c.network_interface).some((n) => n.user !== true))
    d.push(error(['wait_for'], 'Nothing to wait for', 'wait_for = "lease" needs a network_interface on a libvirt network (network = ...): DHCP leases come from libvirt networks, not from user-mode networking. Add one or set wait_for = "none".'));
  const waitTimeout = num(c.wait_timeout);
  if (waitTimeout !== undefined && !(waitTimeout > 0)) d.push(error(['wait_timeout'], 'Invalid wait_timeout', `wait_timeout is ${waitTimeout}; expected seconds > 0.`));
  list<State>(c.disk).forEach((disk, i) => {
    const n = (disk.volume_id !== null ? 1 : 0) + (disk.file !== null ? 1 : 0);
    if (n !== 1) d.push(error(['disk', i], 'Invalid disk', `disk ${i} must set exactly one of volume_id and file.`));
  });
  list<State>(c.network_interface).forEach((n, i) => {
    if (n.network !== null && n.user === true) d.push(error(['network_interface', i, 'user'], 'Invalid network_interface', 'Set either network or user = true, not both.'));
    if (n.network === null && n.user !== true && n.user !== null && n.user !== UNKNOWN)
      d.push(error(['network_interface', i], 'Invalid network_interface', 'Set network (a virtseed_network.id or a libvirt network name) or user = true.'));
  });
  const known = isWhollyKnown(c);
  if (known && str(c.name) && num(c.memory) !== undefined) {
    const planned = withDefaults({ ...c }, null);
    const spec = toDomainSpec(planned, { disks: [] });
    d.push(...mapDiagnostics(validateDomainSpec(spec), { rename: { memoryMiB: 'memory', disks: 'disk', interfaces: 'network_interface', serialLogFile: 'console_log' } }));
  }
  return d;
}

function isActive(state: number): boolean {
  return state === VIR_DOMAIN_RUNNING || state === VIR_DOMAIN_PAUSED || state === VIR_DOMAIN_BLOCKED;
}

async function lookup(client: LibvirtClient, uuid: string): Promise<DomRef | null> {
  try {
    return await client.domainLookupByUuid(uuidToBytes(uuid));
  } catch (err) {
    if (err instanceof LibvirtError && err.code === VIR_ERR_NO_DOMAIN) return null;
    throw err;
  }
}

/** Waits `ms`, or less when `signal` aborts (the listener is removed either way). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Clean shutdown (ACPI) bounded by `timeoutS`, then power off. Resolves `'off'` once the domain is shut off, or
 * `'interrupted'` as soon as `ctx.signal` aborts (StopProvider): the guest is then left as it is, not powered off.
 */
export async function stopDomain(client: LibvirtClient, dom: DomRef, timeoutS: number, ctx: HandlerContext): Promise<'off' | 'interrupted'> {
  if (!isActive((await client.domainGetState(dom)).state)) return 'off';
  if (ctx.signal.aborted) return 'interrupted';
  const deadline = Date.now() + timeoutS * 1000;
  try {
    await client.domainShutdown(dom);
  } catch (err) {
    ctx.log.warn(`domain ${dom.name}: shutdown request failed (${(err as Error).message}); powering off`);
  }
  while (Date.now() < deadline && !ctx.signal.aborted) {
    if ((await client.domainGetState(dom)).state === VIR_DOMAIN_SHUTOFF) return 'off';
    await sleep(500, ctx.signal);
  }
  if (ctx.signal.aborted) return 'interrupted';
  if ((await client.domainGetState(dom)).state !== VIR_DOMAIN_SHUTOFF) {
    ctx.log.info(`domain ${dom.name}: no clean shutdown within ${timeoutS} s; powering off`);
    await client.domainDestroy(dom).catch((err) => {
      if (!(err instanceof LibvirtError)) throw err;
    });
  }
  return 'off';
}

/**
 * Metadata key set while a domain is being created (defined, started) and removed once that finished: a domain of
 * the wanted name that still carries it was left by an interrupted create (libvirtd or the provider killed, the
 * connection dropped) and is replaced instead of reported as someone else's.
 */
export const CREATE_PENDING_KEY = 'virtseed-create-pending';

async function define(client: LibvirtClient, s: State, uuid?: string, pending = false): Promise<DomRef> {
  const refs = await resolveRefs(client, s);
  const spec = toDomainSpec(s, refs, uuid);
  if (pending) spec.metadata = { ...spec.metadata, [CREATE_PENDING_KEY]: '1' };
  return client.domainDefineXml(renderDomainXml(spec));
}

/** Removes a domain: powered off when running, then undefined with its managed save, snapshots and NVRAM. */
async function removeDomain(client: LibvirtClient, dom: DomRef): Promise<void> {
  if (isActive((await client.domainGetState(dom)).state)) await client.domainDestroy(dom);
  await client.domainUndefine(dom, VIR_DOMAIN_UNDEFINE_MANAGED_SAVE | VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA | VIR_DOMAIN_UNDEFINE_NVRAM);
}

async function readDomain(client: LibvirtClient, dom: DomRef): Promise<{ state: State; policy?: string }> {
  // Both calls in flight at once on the one connection: one round trip instead of two.
  const [xml, info] = await Promise.all([client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE), client.domainGetState(dom)]);
  const spec = parseDomainXml(xml);
  const running = isActive(info.state);
  return { state: await stateFromDomain(client, spec, running), policy: spec.metadata?.[METADATA_KEYS.reprovisionPolicy] };
}

/** Keeps `current`'s value for every attribute libvirt agrees with, takes libvirt's where it differs (drift). */
function mergeObserved(current: State, observed: State): State {
  const out: State = { ...current };
  for (const key of ['name', 'memory', 'vcpu', 'type', 'cpu_mode', 'kernel', 'initrd', 'cmdline', 'cloudinit_seed_id', 'ignition_id', 'running', 'uuid', 'id', 'qemu_agent', ...ADDRESS_ATTRS]) {
    if (!deepEqual(current[key], observed[key])) out[key] = observed[key];
  }
  for (const key of ['disk', 'network_interface']) {
    const cur = list<State>(current[key]);
    const obs = list<State>(observed[key]);
    const same = cur.length === obs.length && cur.every((c, i) => Object.keys(obs[i]).every((k) => obs[i][k] === null && c[k] === undefined || deepEqual(c[k], obs[i][k])));
    if (!same) out[key] = obs;
  }
  if (observed.console_log !== null) out.console_log = observed.console_log;
  return out;
}

export const domain: ResourceHandler<State> = {
  typeName: 'virtseed_domain',
  schema: DOMAIN_SCHEMA,

  validate(config) {
    return validateConfig(config);
  },

  async plan({ prior, proposed, config }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    const diagnostics = validateConfig(config);
    const planned = withDefaults({ ...proposed, ...pickNulls(config, ['vcpu', 'running', 'reprovision', 'shutdown_timeout', 'wait_for', 'wait_timeout', 'qemu_agent']) }, prior);
    if (planned.type === null) planned.type = str(prior?.type) ?? detectDomainType(ctx.uri);
    const requiresReplace: (string | number)[][] = [];
    if (!prior) {
      planned.id = UNKNOWN;
      planned.uuid = UNKNOWN;
      // Also the create half of a `recreate` replacement: Terraform plans it with no prior state, again at apply
      // after the old domain is gone, so the decision shows as the replacement (replace_paths and the warning).
      planned.reprovision_action = 'none';
      planned.previous_instance_id = null;
      for (const k of ADDRESS_ATTRS) planned[k] = UNKNOWN;
      diagnostics.push(...(await hostChecks(ctx, planned, true)));
      return { planned, requiresReplace, diagnostics };
    }
    planned.id = prior.id;
    planned.uuid = prior.uuid;
    if (prior.name !== planned.name && isWhollyKnown(planned.name)) requiresReplace.push(['name']);
    const policy = str(planned.reprovision) ?? 'reboot';
    const from = (prior.instance_id as string | null) ?? null;
    const to = planned.instance_id;
    if (to === UNKNOWN) {
      planned.reprovision_action = UNKNOWN;
      planned.previous_instance_id = from;
      if (policy === 'recreate') requiresReplace.push(['instance_id']);
    } else if (to !== from && to !== null) {
      planned.reprovision_action = policy;
      planned.previous_instance_id = from;
      if (policy === 'recreate') requiresReplace.push(['instance_id']);
      const how = policy === 'reboot' ? 'a clean restart of the guest on the same disks' : policy === 'recreate' ? 'replacing the domain (new UUID)' : 'nothing now: the guest sees the new seed when it next boots';
      diagnostics.push(warning(['instance_id'], `Guest ${planned.name} will be re-provisioned (${policy})`,
        `instance-id ${from ?? '(none)'} → ${to}: cloud-init (or Ignition) provisions the guest again. Policy "${policy}": ${how}.`));
    } else {
      const changed = Object.keys(planned).some((k) => !['reprovision_action', 'previous_instance_id', ...ADDRESS_ATTRS].includes(k) && !deepEqual(planned[k], prior[k]));
      planned.reprovision_action = changed ? 'none' : prior.reprovision_action ?? 'none';
      planned.previous_instance_id = changed ? null : prior.previous_instance_id ?? null;
    }
    if (requiresReplace.length) {
      planned.id = UNKNOWN;
      planned.uuid = UNKNOWN;
    }
    // Addresses stay as they are unless this apply may (re)start or stop the guest.
    const touchesGuest = requiresReplace.length > 0 || !deepEqual(planned.instance_id, prior.instance_id) || DEFINITION_ATTRS.some((k) => !deepEqual(planned[k], prior[k])) || planned.running !== prior.running;
    for (const k of ADDRESS_ATTRS) planned[k] = touchesGuest || prior[k] === undefined ? UNKNOWN : prior[k];
    if (requiresReplace.length) noteReplacement('domain', prior.name as string);
    diagnostics.push(...(await hostChecks(ctx, planned, prior.name !== planned.name)));
    return { planned, requiresReplace, diagnostics };
  },

  async apply({ prior, planned }, ctx) {
    const client = await clientOf(ctx);
    forgetDomainListing(client);
    if (!planned) {
      if (prior && str(prior.uuid)) {
        const dom = await lookup(client, prior.uuid as string);
        if (dom) await removeDomain(client, dom);
      }
      return { newState: null, diagnostics: [] };
    }
    const missing = await missingNetworkDiagnostics(client, planned);
    if (missing.length) return { newState: prior, diagnostics: missing }; // nothing changed
    const timeout = num(planned.shutdown_timeout) ?? 60;
    let waited: Diagnostic[] = [];
    let dom = prior && str(prior.uuid) && prior.uuid === planned.uuid ? await lookup(client, prior.uuid as string) : null;
    if (!dom) {
      try {
        const existing = await client.domainLookupByName(planned.name as string);
        const left = parseDomainXml(await client.domainGetXmlDesc(existing, VIR_DOMAIN_XML_INACTIVE)).metadata?.[CREATE_PENDING_KEY];
        if (!left) return { newState: null, diagnostics: [domainExistsDiagnostic(planned.name as string, bytesToUuid(existing.uuid))] };
        ctx.log.info(`domain ${planned.name}: removing what an interrupted create left`);
        await removeDomain(client, existing);
      } catch (err) {
        if (!(err instanceof LibvirtError && err.code === VIR_ERR_NO_DOMAIN)) throw err;
      }
      // Defined with the pending mark, started (and waited for), then defined again without it. A failure after the
      // first define still returns the domain, so Terraform records it (tainted) and the next apply replaces it.
      dom = await define(client, planned, undefined, true);
      try {
        if (planned.running !== false) waited = await start(client, dom, planned, ctx, true);
        dom = await define(client, planned, bytesToUuid(dom.uuid));
      } catch (err) {
        const uuid = bytesToUuid(dom.uuid);
        return { newState: { ...planned, id: uuid, uuid, ...NO_ADDRESSES }, diagnostics: [error([], `Domain ${planned.name} was defined but not finished`, `${err instanceof Error ? err.message : String(err)}. The domain is recorded as tainted; the next terraform apply replaces it.`)] };
      }
    } else {
      const definitionChanged = DEFINITION_ATTRS.some((k) => !deepEqual(prior![k], planned[k]));
      const reprovisionNow = planned.reprovision_action === 'reboot' && prior!.instance_id !== planned.instance_id;
      dom = await define(client, planned, planned.uuid as string);
      const active = isActive((await client.domainGetState(dom)).state);
      let stopped: 'off' | 'interrupted' = 'off';
      if (planned.running === false) {
        if (active) stopped = await stopDomain(client, dom, timeout, ctx);
      } else if (!active) {
        waited = await start(client, dom, planned, ctx, false);
      } else if (definitionChanged || reprovisionNow) {
        ctx.log.info(`domain ${planned.name}: restarting (${reprovisionNow ? 're-provision' : 'definition changed'})`);
        stopped = await stopDomain(client, dom, timeout, ctx);
        if (stopped === 'off') waited = await start(client, dom, planned, ctx, false);
      }
      if (stopped === 'interrupted') return interrupted(planned, prior!, dom, reprovisionNow);
    }
    const uuid = bytesToUuid(dom.uuid);
    // The domain exists whatever the wait found: it stays in state, so the next plan starts from the truth.
    return { newState: { ...planned, id: uuid, uuid, ...(await currentAddresses(client, dom, planned)) }, diagnostics: waited };
  },

  async read({ current }, ctx) {
    const client = await clientOf(ctx);
    const dom = str(current.uuid) ? await lookupDomainByUuid(client, current.uuid as string) : null;
    const observed = dom ? await readDomain(client, dom).catch((err) => (isNoDomain(err) ? null : Promise.reject(err))) : null;
    if (!observed) return { newState: null, diagnostics: [] }; // gone (undefined outside Terraform)
    observed.state.network_interface = await keepNetworkRefs(client, current.network_interface, observed.state.network_interface);
    return { newState: mergeObserved(current, { ...observed.state, ...(await currentAddresses(client, dom!, observed.state)) }), diagnostics: [] };
  },

  async importState(id, ctx) {
    const client = await clientOf(ctx);
    let dom: DomRef;
    try {
      dom = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
        ? await client.domainLookupByUuid(uuidToBytes(id))
        : await client.domainLookupByName(id);
    } catch (err) {
      if (err instanceof LibvirtError && err.code === VIR_ERR_NO_DOMAIN) throw new Error(`cannot import domain "${id}": libvirt has no domain with that name or UUID`);
      throw err;
    }
    const { state: observed, policy } = await readDomain(client, dom);
    return [{ ...observed, ...(await currentAddresses(client, dom, observed)), reprovision: policy ?? 'reboot', shutdown_timeout: 60, wait_for: 'none', wait_timeout: DEFAULT_WAIT_TIMEOUT_S, reprovision_action: 'none', previous_instance_id: null }];
  },
};

/**
 * Starts the shut-off domain and, per `wait_for`, waits for its provisioning agent; returns the wait's diagnostics.
 * cloud-init runs (and reports "finished") at every boot; Ignition only on the first, so `ignition` waits only when
 * `firstBoot`.
 */
async function start(client: LibvirtClient, dom: DomRef, planned: State, ctx: HandlerContext, firstBoot: boolean): Promise<Diagnostic[]> {
  const waitFor = str(planned.wait_for) ?? 'none';
  const timeoutS = num(planned.wait_timeout) ?? DEFAULT_WAIT_TIMEOUT_S;
  if (waitFor === 'lease') {
    ctx.log.info(`domain ${planned.name}: starting and waiting for an address (up to ${timeoutS} s)`);
    return leaseDiagnostics(planned.name as string, timeoutS, await startAndWaitForLease(client, dom, { timeoutS, signal: ctx.signal, log: ctx.log }));
  }
  const agent = waitFor === 'cloud-init' ? 'cloud-init' : waitFor === 'ignition' && firstBoot ? 'ignition' : null;
  if (!agent) {
    await client.domainCreate(dom);
    return [];
  }
  ctx.log.info(`domain ${planned.name}: starting and waiting for ${agent} (up to ${timeoutS} s)`);
  const result = await startAndWait(client, dom, agent, { timeoutS, signal: ctx.signal, log: ctx.log });
  return waitDiagnostics(planned.name as string, timeoutS, result, agent);
}

/**
 * The state after StopProvider interrupted a shutdown: the new definition is in libvirt, the guest still runs its
 * old one. A pending re-provision keeps the old instance_id and `running = false` stays pending (`running` is
 * true), so the next plan offers them again; a changed definition takes effect at the guest's next start.
 */
function interrupted(planned: State, prior: State, dom: DomRef, reprovisionNow: boolean): { newState: State; diagnostics: Diagnostic[] } {
  const uuid = bytesToUuid(dom.uuid);
  const newState: State = { ...planned, id: uuid, uuid, running: true, addresses: prior.addresses ?? [], ip_address: prior.ip_address ?? null };
  if (reprovisionNow) {
    newState.instance_id = prior.instance_id;
    newState.reprovision_action = prior.reprovision_action ?? 'none';
    newState.previous_instance_id = prior.previous_instance_id ?? null;
  }
  const next = reprovisionNow || planned.running === false ? 'Apply again to finish.' : 'It uses the new definition from its next start.';
  return {
    newState,
    diagnostics: [error([], 'Interrupted', `Terraform was interrupted while domain ${planned.name} was shutting down; the guest keeps running. ${next}`)],
  };
}

/** The diagnostic for a create that would take the name of a domain virtseed did not make. */
function domainExistsDiagnostic(name: string, uuid: string): Diagnostic {
  return error(['name'], 'Domain exists already', `libvirt already has a domain named ${name} (UUID ${uuid}). Import it (terraform import <address> ${name}) or choose another name.`);
}

/**
 * Plan-time checks against the host (when it can be reached): the networks the NICs name exist and, when the plan
 * creates a domain under a new name (`creates`), no other domain has that name.
 */
async function hostChecks(ctx: HandlerContext, planned: State, creates: boolean): Promise<Diagnostic[]> {
  const name = str(planned.name);
  const out = name && creates ? await newDomainChecks(ctx, name, CREATE_PENDING_KEY, domainExistsDiagnostic) : [];
  const { client } = await planHost(ctx);
  return client ? [...out, ...(await missingNetworkDiagnostics(client, planned))] : out;
}

/** The guest's addresses now (none while shut off), asking the guest agent when the domain has its channel. */
async function currentAddresses(client: LibvirtClient, dom: DomRef, s: State): Promise<AddressAttributes> {
  return addressAttributes(await domainAddresses(client, dom, { agent: s.qemu_agent === true }));
}

/** The config's null values for `keys` (so defaults apply when the user removes a setting). */
function pickNulls(config: State, keys: string[]): State {
  const out: State = {};
  for (const k of keys) if (config[k] === null) out[k] = null;
  return out;
}
