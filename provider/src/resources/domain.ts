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
import { Diagnostic, error, hasErrors } from '../../../src/diagnostics';
import { METADATA_KEYS, parseDomainXml, renderDomainXml, Reprovision, REPROVISION_POLICIES, validateDomainSpec } from '../../../src/domain';
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
} from '../../../src/libvirt';
import { isUuid } from '../../../src/uuid';
import type { HandlerContext, ResourceHandler } from '../plugin/handler';
import { DOMAIN_FIELDS } from '../../../src/fields';
import type { ResourceSchema } from '../plugin/schema';
import { schemaOf } from './private/fields';
import { addressAttributes, AddressAttributes, domainAddresses } from './private/addresses';
import { domainByName, forgetDomainListing, isNoDomain, lookupDomainByUuid } from './private/domain-directory';
import { resolveRefs, stateFromDomain } from './private/domain-refs';
import { DOMAIN_DEFAULTS, toDomainSpec, withDefaults } from './private/domain-state';
import type { DomainState } from './private/model';
import { keepNetworkRefs, missingNetworkDiagnostics } from './private/network-refs';
import { newDomainChecks, noteReplacement, planHost } from './private/plan-checks';
import { mapDiagnostics } from './private/paths';
import { replacePaths, settleComputed } from './private/plan';
import { decideReprovision } from './private/reprovision';
import {
  DEFAULT_WAIT_TIMEOUT_S,
  leaseDiagnostics,
  startAndWait,
  startAndWaitForLease,
  WAIT_FOR_VALUES,
  waitDiagnostics,
} from './private/wait-for';
import { deepEqual, isWhollyKnown, list, messageOf, num, str, UNKNOWN } from './private/values';

/** The provider schema, from the field table (src/fields/domain.ts). */
export const DOMAIN_SCHEMA: ResourceSchema = schemaOf(DOMAIN_FIELDS);

/** Attributes whose change needs the domain redefined (and a running guest restarted). */
const DEFINITION_ATTRS: readonly (keyof DomainState)[] = [
  'memory',
  'vcpu',
  'type',
  'cpu_mode',
  'kernel',
  'initrd',
  'cmdline',
  'disk',
  'network_interface',
  'cloudinit_seed_id',
  'ignition_id',
  'qemu_agent',
];

/** Computed attributes a plan cannot know: what the guest's addresses will be. */
const ADDRESS_ATTRS = ['addresses', 'ip_address'] as const;
const NO_ADDRESSES: AddressAttributes = { addresses: [], ip_address: null };

function validateConfig(c: DomainState): Diagnostic[] {
  const d: Diagnostic[] = [];
  if (c.cloudinit_seed_id != null && c.ignition_id != null)
    // unknown (a resource not created yet) counts as set
    d.push(
      error(
        ['ignition_id'],
        'Conflicting provisioning',
        'A domain gets either a cloud-init seed (cloudinit_seed_id) or an Ignition config (ignition_id), not both. Remove one.',
      ),
    );
  const policy = str(c.reprovision);
  if (policy !== undefined && !REPROVISION_POLICIES.includes(policy))
    d.push(
      error(
        ['reprovision'],
        'Invalid reprovision policy',
        `reprovision is "${policy}"; expected one of ${REPROVISION_POLICIES.join(', ')}.`,
      ),
    );
  const type = str(c.type);
  if (type !== undefined && type !== 'kvm' && type !== 'qemu')
    d.push(error(['type'], 'Invalid domain type', `type is "${type}"; expected kvm or qemu.`));
  const timeout = num(c.shutdown_timeout);
  if (timeout !== undefined && !(timeout >= 0))
    d.push(error(['shutdown_timeout'], 'Invalid shutdown_timeout', `shutdown_timeout is ${timeout}; expected seconds ≥ 0.`));
  const waitFor = str(c.wait_for);
  if (waitFor !== undefined && !WAIT_FOR_VALUES.some((v) => v === waitFor))
    d.push(error(['wait_for'], 'Invalid wait_for', `wait_for is "${waitFor}"; expected one of ${WAIT_FOR_VALUES.join(', ')}.`));
  if (waitFor === 'cloud-init' && c.cloudinit_seed_id === null)
    d.push(
      error(
        ['wait_for'],
        'Nothing to wait for',
        'wait_for = "cloud-init" needs a cloud-init seed (cloudinit_seed_id). Attach a seed or set wait_for = "none".',
      ),
    );
  if (waitFor === 'ignition' && c.ignition_id === null)
    d.push(
      error(
        ['wait_for'],
        'Nothing to wait for',
        'wait_for = "ignition" needs an Ignition config (ignition_id). Attach one or set wait_for = "none".',
      ),
    );
  if (waitFor === 'lease' && !list(c.network_interface).some((n) => n.user !== true))
    d.push(
      error(
        ['wait_for'],
        'Nothing to wait for',
        'wait_for = "lease" needs a network_interface on a libvirt network (network = ...): DHCP leases come from libvirt networks, not from user-mode networking. Add one or set wait_for = "none".',
      ),
    );
  const waitTimeout = num(c.wait_timeout);
  if (waitTimeout !== undefined && !(waitTimeout > 0))
    d.push(error(['wait_timeout'], 'Invalid wait_timeout', `wait_timeout is ${waitTimeout}; expected seconds > 0.`));
  list(c.disk).forEach((disk, i) => {
    const n = (disk.volume_id !== null ? 1 : 0) + (disk.file !== null ? 1 : 0);
    if (n !== 1) d.push(error(['disk', i], 'Invalid disk', `disk ${i} must set exactly one of volume_id and file.`));
  });
  list(c.network_interface).forEach((n, i) => {
    if (n.network !== null && n.user === true)
      d.push(error(['network_interface', i, 'user'], 'Invalid network_interface', 'Set either network or user = true, not both.'));
    if (n.network === null && n.user !== true && n.user !== null && n.user !== UNKNOWN)
      d.push(
        error(
          ['network_interface', i],
          'Invalid network_interface',
          'Set network (a virtseed_network.id or a libvirt network name) or user = true.',
        ),
      );
  });
  const known = isWhollyKnown(c);
  if (known && str(c.name) && num(c.memory) !== undefined) {
    const planned = withDefaults(c, null);
    const spec = toDomainSpec(planned, { disks: [] });
    d.push(
      ...mapDiagnostics(validateDomainSpec(spec), {
        rename: {
          memoryMiB: 'memory',
          disks: 'disk',
          interfaces: 'network_interface',
          serialLogFile: 'console_log',
          secureBoot: 'secure_boot',
        },
      }),
    );
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
    if (isNoDomain(err)) return null;
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
export async function stopDomain(
  client: LibvirtClient,
  dom: DomRef,
  timeoutS: number,
  ctx: HandlerContext<LibvirtClient>,
): Promise<'off' | 'interrupted'> {
  if (!isActive((await client.domainGetState(dom)).state)) return 'off';
  if (ctx.signal.aborted) return 'interrupted';
  const deadline = Date.now() + timeoutS * 1000;
  try {
    await client.domainShutdown(dom);
  } catch (err) {
    ctx.log.warn(`domain ${dom.name}: shutdown request failed (${messageOf(err)}); powering off`);
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
 *
 * A create that fails after the define (the wait failed or timed out, StopProvider interrupted it, the connection
 * was lost) keeps the mark: Terraform records the domain tainted, and plans a tainted object like a new one —
 * PlanResourceChange with no prior state (checked with TF_LOG=trace on Terraform 1.11: `plan`, `apply`, and the
 * refresh of `destroy` all call it so), turned into a replacement by Terraform itself. That call's "name taken"
 * check only passes because the domain still carries the mark; the create half of the replacement then removes it.
 */
export const CREATE_PENDING_KEY = 'virtseed-create-pending';

async function define(client: LibvirtClient, s: DomainState, uuid?: string, pending = false): Promise<DomRef> {
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

async function readDomain(client: LibvirtClient, dom: DomRef): Promise<{ state: DomainState; policy?: string }> {
  // Both calls in flight at once on the one connection: one round trip instead of two.
  const [xml, info] = await Promise.all([client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE), client.domainGetState(dom)]);
  const spec = parseDomainXml(xml);
  const running = isActive(info.state);
  return { state: await stateFromDomain(client, spec, running), policy: spec.metadata?.[METADATA_KEYS.reprovisionPolicy] };
}

/** Attributes read back from libvirt: `current` keeps its value where libvirt agrees, takes libvirt's where not. */
const OBSERVED_ATTRS: readonly (keyof DomainState)[] = [
  'name',
  'memory',
  'vcpu',
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
  ...ADDRESS_ATTRS,
];

/** Keeps `current`'s value for every attribute libvirt agrees with, takes libvirt's where it differs (drift). */
function mergeObserved(current: DomainState, observed: DomainState): DomainState {
  const out = { ...current };
  for (const key of OBSERVED_ATTRS) if (!deepEqual(current[key], observed[key])) take(out, observed, key);
  if (!sameBlocks(list<object>(current.disk), list<object>(observed.disk))) out.disk = observed.disk;
  if (!sameBlocks(list<object>(current.network_interface), list<object>(observed.network_interface)))
    out.network_interface = observed.network_interface;
  if (observed.console_log !== null) out.console_log = observed.console_log;
  return out;
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

export const domain: ResourceHandler<DomainState, LibvirtClient> = {
  typeName: 'virtseed_domain',
  schema: DOMAIN_SCHEMA,

  validate(config) {
    return validateConfig(config);
  },

  async plan({ prior, proposed, config }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    const diagnostics = validateConfig(config);
    const planned = withDefaults(
      {
        ...proposed,
        ...pickNulls(config, [
          'vcpu',
          'firmware',
          'secure_boot',
          'running',
          'reprovision',
          'shutdown_timeout',
          'wait_for',
          'wait_timeout',
          'qemu_agent',
        ]),
      },
      prior,
      ctx.uri,
    );
    if (planned.type === null) planned.type = str(prior?.type) ?? ctx.host.domainType(ctx.uri);
    if (!prior) {
      // Also the create half of a `recreate` replacement: Terraform plans it with no prior state, again at apply
      // after the old domain is gone, so the decision shows as the replacement (replace_paths and the warning).
      diagnostics.push(...(await hostChecks(ctx, planned, true)));
      return {
        planned: {
          ...settleComputed(planned, null, true, ['id', 'uuid', ...ADDRESS_ATTRS]),
          reprovision_action: 'none',
          previous_instance_id: null,
        },
        requiresReplace: [],
        diagnostics,
      };
    }
    const decision = decideReprovision(prior, { ...planned, id: prior.id, uuid: prior.uuid });
    diagnostics.push(...decision.diagnostics);
    // A new firmware means a new machine (and NVRAM): replace. State written before these attributes has them null.
    const priorFirmware: DomainState = {
      ...prior,
      firmware: prior.firmware ?? DOMAIN_DEFAULTS.firmware,
      secure_boot: prior.secure_boot ?? DOMAIN_DEFAULTS.secure_boot,
    };
    const requiresReplace = [
      ...replacePaths(priorFirmware, planned, ['name', 'firmware', 'secure_boot'], 'wait'),
      ...(decision.replace ? [['instance_id']] : []),
    ];
    const settled = settleComputed(planned, prior, requiresReplace.length > 0, ['id', 'uuid']);
    // Addresses stay as they are unless this apply may (re)start or stop the guest (or the state predates them).
    const touchesGuest =
      requiresReplace.length > 0 ||
      !deepEqual(planned.instance_id, prior.instance_id) ||
      planned.running !== prior.running ||
      DEFINITION_ATTRS.some((k) => !deepEqual(planned[k], prior[k])) ||
      prior.addresses === null;
    const withAddresses = settleComputed(settled, prior, touchesGuest, ADDRESS_ATTRS);
    if (requiresReplace.length) noteReplacement('domain', str(prior.name) ?? '');
    diagnostics.push(...(await hostChecks(ctx, planned, prior.name !== planned.name)));
    return {
      planned: { ...withAddresses, reprovision_action: decision.action, previous_instance_id: decision.previousInstanceId },
      requiresReplace,
      diagnostics,
    };
  },

  async apply({ prior, planned }, ctx) {
    const client = await ctx.client();
    forgetDomainListing(client);
    const priorUuid = str(prior?.uuid);
    if (!planned) {
      const dom = priorUuid ? await lookup(client, priorUuid) : null;
      if (dom) await removeDomain(client, dom);
      return { newState: null, diagnostics: [] };
    }
    const name = str(planned.name) ?? '';
    const missing = await missingNetworkDiagnostics(client, planned);
    if (missing.length) return { newState: prior, diagnostics: missing }; // nothing changed
    const timeout = num(planned.shutdown_timeout) ?? 60;
    let waited: Diagnostic[] = [];
    let dom = priorUuid && priorUuid === planned.uuid ? await lookup(client, priorUuid) : null;
    if (!dom || !prior || !priorUuid) {
      const existing = await domainByName(client, name, CREATE_PENDING_KEY);
      if (existing && !existing.interrupted)
        return { newState: null, diagnostics: [domainExistsDiagnostic(name, bytesToUuid(existing.dom.uuid))] };
      if (existing) {
        ctx.log.info(`domain ${name}: removing what an interrupted create left`);
        await removeDomain(client, existing.dom);
      }
      if (planned.running === false) {
        // Defined and never started: nothing follows the define, so no pending mark and no addresses to ask for.
        const uuid = bytesToUuid((await define(client, planned)).uuid);
        return { newState: { ...planned, id: uuid, uuid, ...NO_ADDRESSES }, diagnostics: [] };
      }
      // Defined with the pending mark, started (and waited for), then defined again without it. A failure after the
      // first define still returns the domain, so Terraform records it (tainted) and the next apply replaces it; the
      // domain keeps the mark (see CREATE_PENDING_KEY), else the next plan would take it for someone else's.
      dom = await define(client, planned, undefined, true);
      const tainted = `The domain is recorded as tainted; the next terraform apply replaces it.`;
      try {
        waited = await start(client, dom, planned, ctx, true);
      } catch (err) {
        const uuid = bytesToUuid(dom.uuid);
        return {
          newState: { ...planned, id: uuid, uuid, ...NO_ADDRESSES },
          diagnostics: [error([], `Domain ${name} was defined but not finished`, `${messageOf(err)}. ${tainted}`)],
        };
      }
      if (hasErrors(waited)) {
        // The wait failed (agent error, timeout, guest stopped, StopProvider, console lost with the connection).
        const uuid = bytesToUuid(dom.uuid);
        const addresses = await currentAddresses(client, dom, planned).catch(() => NO_ADDRESSES);
        const diagnostics = waited.map((d) => (d.severity === 'error' ? { ...d, detail: `${d.detail}\n${tainted}` } : d));
        return { newState: { ...planned, id: uuid, uuid, ...addresses }, diagnostics };
      }
      dom = await define(client, planned, bytesToUuid(dom.uuid));
    } else {
      const definitionChanged = DEFINITION_ATTRS.some((k) => !deepEqual(prior[k], planned[k]));
      const reprovisionNow = planned.reprovision_action === Reprovision.REBOOT && prior.instance_id !== planned.instance_id;
      dom = await define(client, planned, priorUuid);
      const active = isActive((await client.domainGetState(dom)).state);
      let stopped: 'off' | 'interrupted' = 'off';
      if (planned.running === false) {
        if (active) stopped = await stopDomain(client, dom, timeout, ctx);
      } else if (!active) {
        waited = await start(client, dom, planned, ctx, false);
      } else if (definitionChanged || reprovisionNow) {
        ctx.log.info(`domain ${name}: restarting (${reprovisionNow ? 're-provision' : 'definition changed'})`);
        stopped = await stopDomain(client, dom, timeout, ctx);
        if (stopped === 'off') waited = await start(client, dom, planned, ctx, false);
      }
      if (stopped === 'interrupted') return interrupted(planned, prior, dom, reprovisionNow);
    }
    const uuid = bytesToUuid(dom.uuid);
    // The domain exists whatever the wait found: it stays in state, so the next plan starts from the truth.
    return { newState: { ...planned, id: uuid, uuid, ...(await currentAddresses(client, dom, planned)) }, diagnostics: waited };
  },

  async read({ current }, ctx) {
    const client = await ctx.client();
    const uuid = str(current.uuid);
    const dom = uuid ? await lookupDomainByUuid(client, uuid) : null;
    const observed = dom ? await readDomain(client, dom).catch((err) => (isNoDomain(err) ? null : Promise.reject(err))) : null;
    if (!observed) return { newState: null, diagnostics: [] }; // gone (undefined outside Terraform)
    observed.state.network_interface = await keepNetworkRefs(client, current.network_interface, observed.state.network_interface);
    return {
      newState: mergeObserved(current, { ...observed.state, ...(await currentAddresses(client, dom!, observed.state)) }),
      diagnostics: [],
    };
  },

  async importState(id, ctx) {
    const client = await ctx.client();
    let dom: DomRef;
    try {
      dom = isUuid(id) ? await client.domainLookupByUuid(uuidToBytes(id)) : await client.domainLookupByName(id);
    } catch (err) {
      if (isNoDomain(err)) throw new Error(`cannot import domain "${id}": libvirt has no domain with that name or UUID`);
      throw err;
    }
    const { state: observed, policy } = await readDomain(client, dom);
    return [
      {
        ...observed,
        ...(await currentAddresses(client, dom, observed)),
        reprovision: policy ?? DOMAIN_DEFAULTS.reprovision,
        shutdown_timeout: DOMAIN_DEFAULTS.shutdown_timeout,
        wait_for: DOMAIN_DEFAULTS.wait_for,
        wait_timeout: DOMAIN_DEFAULTS.wait_timeout,
        reprovision_action: 'none',
        previous_instance_id: null,
      },
    ];
  },
};

/**
 * Starts the shut-off domain and, per `wait_for`, waits for its provisioning agent; returns the wait's diagnostics.
 * cloud-init runs (and reports "finished") at every boot; Ignition only on the first, so `ignition` waits only when
 * `firstBoot`.
 */
async function start(
  client: LibvirtClient,
  dom: DomRef,
  planned: DomainState,
  ctx: HandlerContext<LibvirtClient>,
  firstBoot: boolean,
): Promise<Diagnostic[]> {
  const name = str(planned.name) ?? '';
  const waitFor = str(planned.wait_for) ?? 'none';
  const timeoutS = num(planned.wait_timeout) ?? DEFAULT_WAIT_TIMEOUT_S;
  if (waitFor === 'lease') {
    ctx.log.info(`domain ${name}: starting and waiting for an address (up to ${timeoutS} s)`);
    return leaseDiagnostics(name, timeoutS, await startAndWaitForLease(client, dom, { timeoutS, signal: ctx.signal, log: ctx.log }));
  }
  const agent = waitFor === 'cloud-init' ? 'cloud-init' : waitFor === 'ignition' && firstBoot ? 'ignition' : null;
  if (!agent) {
    await client.domainCreate(dom);
    return [];
  }
  ctx.log.info(`domain ${name}: starting and waiting for ${agent} (up to ${timeoutS} s)`);
  const result = await startAndWait(client, dom, agent, { timeoutS, signal: ctx.signal, log: ctx.log });
  return waitDiagnostics(name, timeoutS, result, agent);
}

/**
 * The state after StopProvider interrupted a shutdown: the new definition is in libvirt, the guest still runs its
 * old one. A pending re-provision keeps the old instance_id and `running = false` stays pending (`running` is
 * true), so the next plan offers them again; a changed definition takes effect at the guest's next start.
 */
function interrupted(
  planned: DomainState,
  prior: DomainState,
  dom: DomRef,
  reprovisionNow: boolean,
): { newState: DomainState; diagnostics: Diagnostic[] } {
  const uuid = bytesToUuid(dom.uuid);
  const newState: DomainState = {
    ...planned,
    id: uuid,
    uuid,
    running: true,
    addresses: prior.addresses ?? [],
    ip_address: prior.ip_address ?? null,
  };
  if (reprovisionNow) {
    newState.instance_id = prior.instance_id;
    newState.reprovision_action = prior.reprovision_action ?? 'none';
    newState.previous_instance_id = prior.previous_instance_id ?? null;
  }
  const next = reprovisionNow || planned.running === false ? 'Apply again to finish.' : 'It uses the new definition from its next start.';
  return {
    newState,
    diagnostics: [
      error(
        [],
        'Interrupted',
        `Terraform was interrupted while domain ${String(planned.name)} was shutting down; the guest keeps running. ${next}`,
      ),
    ],
  };
}

/** The diagnostic for a create that would take the name of a domain virtseed did not make. */
function domainExistsDiagnostic(name: string, uuid: string): Diagnostic {
  return error(
    ['name'],
    'Domain exists already',
    `libvirt already has a domain named ${name} (UUID ${uuid}). Import it (terraform import <address> ${name}) or choose another name.`,
  );
}

/**
 * Plan-time checks against the host (when it can be reached): the networks the NICs name exist and, when the plan
 * creates a domain under a new name (`creates`), no other domain has that name.
 */
async function hostChecks(ctx: HandlerContext<LibvirtClient>, planned: DomainState, creates: boolean): Promise<Diagnostic[]> {
  const name = str(planned.name);
  const out = name && creates ? await newDomainChecks(ctx, name, CREATE_PENDING_KEY, domainExistsDiagnostic) : [];
  const { client } = await planHost(ctx);
  return client ? [...out, ...(await missingNetworkDiagnostics(client, planned))] : out;
}

/** The guest's addresses now (none while shut off), asking the guest agent when the domain has its channel. */
async function currentAddresses(client: LibvirtClient, dom: DomRef, s: DomainState): Promise<AddressAttributes> {
  return addressAttributes(await domainAddresses(client, dom, { agent: s.qemu_agent === true }));
}

/** The config's null values for `keys` (so defaults apply when the user removes a setting). */
function pickNulls(config: DomainState, keys: readonly (keyof DomainState)[]): Partial<DomainState> {
  return Object.fromEntries(keys.filter((k) => config[k] === null).map((k) => [k, null]));
}
