/**
 * `virtseed_domain`: a libvirt domain (formatdomain) defined from the shared domain model, with its cloud-init seed
 * as a read-only SATA cdrom or its Ignition config through fw_cfg.
 *
 * What an update does to the guest is decided once (./private/domain-changes.ts) from the field table's rules
 * (src/fields/domain.ts): the plan records it (replacement, `reprovision_action`, `previous_instance_id`, which
 * computed attributes become unknown, the re-provision warning) and the apply does it: redefine, then start, stop
 * or restart the guest cleanly (./private/domain-lifecycle.ts). A changed `instance_id` re-provisions by the
 * domain's `reprovision` policy: `reboot` restarts the guest, `recreate` replaces the domain, `next-boot` only
 * swaps the seed.
 */
import { hasErrors } from '../../../src/diagnostics';
import { DOMAIN_FIELDS } from '../../../src/fields';
import { bytesToUuid, DomRef, LibvirtClient, uuidToBytes, VIR_DOMAIN_XML_INACTIVE } from '../../../src/libvirt';
import { isUuid } from '../../../src/uuid';
import type { Diagnostic } from '../../../src/diagnostics';
import type { HandlerContext, ResourceHandler } from '../handler';
import type { ResourceSchema } from '../plugin/schema';
import type { AddressAttributes } from './private/addresses';
import { changeWarning, decideDomainChange } from './private/domain-changes';
import { liveSteps } from './private/domain-live';
import { resolveRefs } from './private/domain-refs';
import { findDomainByUuid, forgetDomainListing } from './private/domain-directory';
import {
  CREATE_PENDING_KEY,
  clearLivePendingMark,
  defineDomain,
  domainExistsDiagnostic,
  interruptedState,
  isActive,
  removeDomain,
  startDomain,
  stopDiagnostic,
  stopGuest,
  type StopResult,
} from './private/domain-lifecycle';
import { isMove, moveDomain, movedRecord, planMove, unmoved } from './private/domain-move';
import { usesEscapeHatch } from './private/domain-devices';
import { escapeHatchPlanDiagnostics, recordDefinitionDigest } from './private/domain-escape';
import { currentAddresses, privateAfterApply, readDomain, refreshDomain, withDisplayUris, withoutReadDigest } from './private/domain-read';
import { toDomainSpec, withDefaults } from './private/domain-state';
import { validateDomainConfig } from './private/domain-validate';
import {
  comparable,
  hasWriteOnlyPassword,
  passwordTwinDiagnostics,
  withConfigPasswords,
  withoutConfigPasswords,
  withPasswordDigests,
} from './private/domain-secrets';
import { keyFor, keyOf, privateWithKey } from './private/keyed';
import { isValueOf, schemaOf, withTableDefaults } from './private/fields';
import { domainByName, domainByUuid, isNoDomain } from './private/lookups';
import type { DomainState } from './private/model';
import { missingNetworkDiagnostics } from './private/network-refs';
import { notFinishedDiagnostic, recordedTainted } from './private/not-finished';
import {
  keepSnapshotsTidy,
  notePlannedDisks,
  removeAutoSnapshots,
  revertAfterFailure,
  snapshotBeforeApply,
  snapshotHostDiagnostics,
  snapshotPlanDiagnostics,
  snapshotPlanOf,
} from './private/domain-snapshots';
import { domainHostChecks, noteManaged, plannedPrivateOf, reachableClient, withoutReplaceMark } from './private/plan-checks';
import { settleComputed } from './private/plan';
import { known, list, num, str, UNKNOWN } from './private/values';

/** The planned displays with no `display_uri` (the guest is shut off, or the apply did not get to read it). */
function noDisplays(planned: DomainState): DomainState['graphics'] {
  return list(planned.graphics).map((g) => ({ ...g, display_uri: null }));
}

/**
 * `graphics[*].display_uri` as a plan knows it: null when the guest will be shut off, unknown when the apply
 * (re)starts the guest or changes its displays (QEMU picks the port at start), else as it is.
 */
function plannedDisplays(planned: DomainState, restarts: boolean, graphicsChanged: boolean): DomainState['graphics'] {
  const graphics = list(planned.graphics);
  if (!graphics.length) return planned.graphics;
  if (planned.running === false) return graphics.map((g) => ({ ...g, display_uri: null }));
  return restarts || graphicsChanged ? graphics.map((g) => ({ ...g, display_uri: UNKNOWN })) : graphics;
}

/** The provider schema, from the field table (src/fields/domain.ts). */
export const DOMAIN_SCHEMA: ResourceSchema = schemaOf(DOMAIN_FIELDS);

/** Computed attributes a plan cannot know: what the guest's addresses will be. */
const ADDRESS_ATTRS = ['addresses', 'ip_address'] as const;
const NO_ADDRESSES: AddressAttributes = { addresses: [], ip_address: null };

/** What a create or update path ends with: the domain and the notes of its wait, or the result, when it ends early. */
type PathEnd = { done: ApplyResult } | { dom: DomRef; waited: Diagnostic[] };
type ApplyResult = { newState: DomainState | null; diagnostics: Diagnostic[] };

/** ApplyResourceChange of a domain (see the module docstring): the delete, create or update path, then `finish`. */
async function applyChange(
  { prior, planned }: { prior: DomainState | null; planned: DomainState | null },
  ctx: HandlerContext<LibvirtClient>,
): Promise<ApplyResult> {
  const client = await ctx.client();
  forgetDomainListing(client);
  const priorUuid = str(prior?.uuid);
  if (!planned) return deletePath(client, priorUuid);
  const missing = await missingNetworkDiagnostics(client, planned);
  if (missing.length) return { newState: prior, diagnostics: missing }; // nothing changed
  // A move planned as an update: the guest goes to the new host first (live, or cold when it no longer runs).
  const moved = !!prior && !!priorUuid && priorUuid === planned.uuid && isMove(prior, planned);
  if (moved) await moveDomain(ctx, prior, planned);
  const dom = priorUuid && priorUuid === planned.uuid ? await domainByUuid(client, priorUuid) : null;
  if (!dom || !prior || !priorUuid) {
    const end = await createPath(client, planned, ctx);
    if ('done' in end) return end.done;
    return finish(client, end.dom, planned, end.waited).catch((err: unknown) => definedNotFinished(end.dom, planned, err));
  }
  const end = await updatePath(client, dom, prior, priorUuid, planned, moved, ctx);
  return 'done' in end ? end.done : finish(client, end.dom, planned, end.waited);
}

/** The result of a create that failed after the define (`err`): the domain as a partial new state (./private/not-finished.ts). */
function definedNotFinished(dom: DomRef, planned: DomainState, err: unknown): ApplyResult {
  const uuid = bytesToUuid(dom.uuid);
  return {
    newState: { ...planned, id: uuid, uuid, ...NO_ADDRESSES, graphics: noDisplays(planned) },
    diagnostics: [notFinishedDiagnostic('domain', dom.name, 'defined', err)],
  };
}

/** The delete path: the domain (stopped first), its automatic snapshots and what virtseed made for it go. Its
 *  definition is read once, after the stop, for both. */
async function deletePath(client: LibvirtClient, priorUuid: string | undefined): Promise<ApplyResult> {
  const dom = priorUuid ? await domainByUuid(client, priorUuid) : null;
  if (dom) {
    if (isActive((await client.domainGetState(dom)).state)) await client.domainDestroy(dom);
    const xml = await client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE);
    await removeAutoSnapshots(client, dom, xml);
    await removeDomain(client, dom, { xml });
  }
  return { newState: null, diagnostics: [] };
}

/**
 * Defines a new domain (`define`: with no UUID, so libvirt refuses a name it has already). When libvirt refuses, the
 * domain of that name is looked up: one an interrupted create of virtseed's left (CREATE_PENDING_KEY) is removed and
 * the define tried again; another one gives domainExistsDiagnostic; none, the refusal itself. The name is looked up
 * only then: a create that meets no domain of its name costs the define alone (issue #38).
 */
async function defineNew(
  client: LibvirtClient,
  name: string,
  define: () => Promise<DomRef>,
  ctx: HandlerContext<LibvirtClient>,
): Promise<DomRef | Diagnostic> {
  try {
    return await define();
  } catch (err) {
    const existing = await domainByName(client, name, CREATE_PENDING_KEY);
    if (!existing) throw err;
    if (!existing.interrupted) return domainExistsDiagnostic(name, bytesToUuid(existing.dom.uuid));
    ctx.log.info(`domain ${name}: removing what an interrupted create left`);
    await removeDomain(client, existing.dom);
    return define();
  }
}

/** The create path: defined (and started and waited for, unless `running = false`). */
async function createPath(client: LibvirtClient, planned: DomainState, ctx: HandlerContext<LibvirtClient>): Promise<PathEnd> {
  const name = str(planned.name) ?? '';
  let waited: Diagnostic[] = [];
  if (planned.running === false) {
    // Defined and never started: nothing follows the define, so no pending mark and no addresses to ask for.
    const defined = await defineNew(client, name, () => defineDomain(client, planned), ctx);
    if (!('uuid' in defined)) return { done: { newState: null, diagnostics: [defined] } };
    try {
      if (planned.autostart === true) await client.domainSetAutostart(defined, true);
      if (usesEscapeHatch(planned)) await recordDefinitionDigest(client, defined);
    } catch (err) {
      return { done: definedNotFinished(defined, planned, err) };
    }
    const uuid = bytesToUuid(defined.uuid);
    return { done: { newState: { ...planned, id: uuid, uuid, ...NO_ADDRESSES, graphics: noDisplays(planned) }, diagnostics: [] } };
  }
  // Defined with the pending mark, started (and waited for), then defined again without it. A failure after the
  // first define still returns the domain, so Terraform records it (tainted) and the next apply replaces it; until
  // the second define the domain keeps the mark (see CREATE_PENDING_KEY), after it the tainted state holds it.
  // One spec for both definitions (with the pending mark, then without it): the references resolved once.
  const spec = toDomainSpec(planned, await resolveRefs(client, planned));
  const dom = await defineNew(client, name, () => defineDomain(client, planned, undefined, true, undefined, spec), ctx);
  if (!('uuid' in dom)) return { done: { newState: null, diagnostics: [dom] } };
  try {
    waited = await startDomain(client, dom, planned, ctx, true);
    if (hasErrors(waited)) {
      // The wait failed (agent error, timeout, guest stopped, StopProvider, console lost with the connection).
      const uuid = bytesToUuid(dom.uuid);
      const addresses = await currentAddresses(client, dom, planned).catch(() => NO_ADDRESSES);
      const diagnostics = waited.map((d) => (d.severity === 'error' ? { ...d, detail: `${d.detail}\n${recordedTainted('domain')}` } : d));
      return { done: { newState: { ...planned, id: uuid, uuid, ...addresses, graphics: noDisplays(planned) }, diagnostics } };
    }
    const final = await defineDomain(client, planned, bytesToUuid(dom.uuid), false, undefined, spec);
    await clearLivePendingMark(client, final);
    if (planned.autostart === true) await client.domainSetAutostart(final, true);
    waited.push(...(await keepSnapshotsTidy(client, final, null, planned, true, ctx)));
    return { dom: final, waited };
  } catch (err) {
    return { done: definedNotFinished(dom, planned, err) };
  }
}

/** The update path: a snapshot if asked, live changes, the new definition, then stop, start or restart. */
async function updatePath(
  client: LibvirtClient,
  found: DomRef,
  prior: DomainState,
  priorUuid: string,
  planned: DomainState,
  moved: boolean,
  ctx: HandlerContext<LibvirtClient>,
): Promise<PathEnd> {
  const name = str(planned.name) ?? '';
  const timeout = num(planned.shutdown_timeout) ?? DOMAIN_FIELDS.fields.shutdown_timeout.default;
  const waited: Diagnostic[] = [];
  let dom = found;
  const decision = decideDomainChange(comparable(prior), comparable(moved ? unmoved(prior, planned) : planned));
  // snapshot_before: a snapshot of the guest as it is, before any change (./private/domain-snapshots).
  const before = await snapshotBeforeApply(client, dom, prior, planned, decision, timeout, ctx);
  if ('stop' in before) return { done: { newState: prior, diagnostics: before.stop } };
  const taken = before.taken;
  waited.push(...before.notes);
  const active = isActive((await client.domainGetState(dom)).state);
  const refs = await resolveRefs(client, planned);
  const spec = toDomainSpec(planned, refs); // built once: for the live changes and the new definition
  if (active && planned.running !== false && !decision.restart) {
    // Live changes first, on the running guest and its definition together; then the whole planned definition.
    for (const step of liveSteps(client, dom, prior, planned, decision.changes, refs, spec)) {
      ctx.log.info(`domain ${name}: ${step.what}`);
      await step.run();
    }
  }
  dom = await defineDomain(client, planned, priorUuid, false, refs, spec);
  if (typeof planned.autostart === 'boolean' && planned.autostart !== prior.autostart)
    await client.domainSetAutostart(dom, planned.autostart);
  let stopped: StopResult | undefined;
  let started = false;
  if (planned.running === false) {
    if (active) stopped = await stopGuest(client, dom, timeout, ctx);
    if (stopped?.state === 'off') waited.push(stopDiagnostic(name, 'was stopped', stopped, timeout));
  } else if (!active) {
    waited.push(...(await startDomain(client, dom, planned, ctx, false)));
    started = true;
  } else if (decision.restart) {
    ctx.log.info(`domain ${name}: restarting (${decision.reprovisionNow ? 're-provision' : 'definition changed'})`);
    stopped = await stopGuest(client, dom, timeout, ctx);
    if (stopped.state === 'off') {
      waited.push(stopDiagnostic(name, 'was restarted', stopped, timeout), ...(await startDomain(client, dom, planned, ctx, false)));
      started = true;
    }
  }
  if (stopped?.state === 'interrupted')
    return { done: interruptedState({ ...planned, graphics: noDisplays(planned) }, prior, bytesToUuid(dom.uuid), decision.reprovisionNow) };
  if (taken && hasErrors(waited)) {
    // The wait failed: back to the snapshot; Terraform keeps the prior state (./private/domain-snapshots).
    const diagnostics = await revertAfterFailure(client, dom, taken, prior, planned, waited, ctx);
    diagnostics.push(...(await keepSnapshotsTidy(client, dom, prior, prior, false, ctx)));
    const uuid = bytesToUuid(dom.uuid);
    // The reverted definition is the prior one (its escape-hatch digest included); QEMU picked new display ports.
    const graphics = list(prior.graphics).length
      ? await withDisplayUris(client, dom, { ...prior, running: isActive((await client.domainGetState(dom)).state) })
      : prior.graphics;
    return { done: { newState: { ...prior, id: uuid, uuid, ...(await currentAddresses(client, dom, prior)), graphics }, diagnostics } };
  }
  if (!hasErrors(waited)) waited.push(...(await keepSnapshotsTidy(client, dom, prior, planned, started, ctx)));
  return { dom, waited };
}

/** After a create or update: the escape hatch's digest, the display URIs and the addresses of the domain. */
async function finish(client: LibvirtClient, dom: DomRef, planned: DomainState, waited: Diagnostic[]): Promise<ApplyResult> {
  const uuid = bytesToUuid(dom.uuid);
  // The digest of the definition as the apply leaves it (after a start, which may complete it).
  if (usesEscapeHatch(planned)) await recordDefinitionDigest(client, dom);
  const graphics = list(planned.graphics).length
    ? await withDisplayUris(client, dom, { ...planned, running: isActive((await client.domainGetState(dom)).state) })
    : planned.graphics;
  // The domain exists whatever the wait found: it stays in state, so the next plan starts from the truth.
  return { newState: { ...planned, id: uuid, uuid, ...(await currentAddresses(client, dom, planned)), graphics }, diagnostics: waited };
}

export const domain: ResourceHandler<DomainState, LibvirtClient> = {
  typeName: 'virtseed_domain',
  schema: DOMAIN_SCHEMA,

  validate(config) {
    return [...passwordTwinDiagnostics(config), ...validateDomainConfig(config)];
  },

  async plan({ prior, proposed, config, priorPrivate: givenPrivate, validated }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    // validated: the server's memo of validate() for the same config bytes (password twins' checks included).
    const diagnostics = validated ?? [...passwordTwinDiagnostics(config), ...validateDomainConfig(config)];
    const planned = withDefaults(proposed, prior, ctx.uri, config);
    notePlannedDisks(ctx, planned);
    // Write-only display passwords: keyed digests under the key of the prior private state (made at apply when
    // there is none: the digests are unknown until then); plans compare them in place of the passwords.
    const key = hasWriteOnlyPassword(config) ? keyOf(givenPrivate) : undefined;
    planned.graphics = withPasswordDigests(planned, config, key);
    const priorPrivate = key ? privateWithKey(givenPrivate, key) : givenPrivate;
    if (planned.type === null) planned.type = known(prior?.type) ?? ctx.host.domainType(ctx.uri);
    if (!prior) {
      // Also the create half of a `recreate` replacement: Terraform plans it with no prior state, again at apply
      // after the old domain is gone, so the decision shows as the replacement (replace_paths and the warning).
      diagnostics.push(...(await domainHostChecks(ctx, planned, true, priorPrivate)));
      diagnostics.push(...(await escapeHatchPlanDiagnostics(planned, ctx.notes, true)));
      return {
        planned: {
          ...settleComputed(planned, null, true, ['id', 'uuid', ...ADDRESS_ATTRS]),
          graphics: plannedDisplays(planned, true, true),
          reprovision_action: 'none',
          previous_instance_id: null,
          change_impact: 'none',
          change_impacts: {},
        },
        requiresReplace: [],
        diagnostics,
      };
    }
    // A move's own changes (host, the volumes and seed made anew there) are the move's; the rest decide as usual.
    const moving = isMove(prior, planned) || typeof planned.host === 'symbol';
    const decision = decideDomainChange(comparable(prior), comparable(moving ? unmoved(prior, planned) : planned));
    diagnostics.push(...decision.reprovision.diagnostics, ...changeWarning(str(planned.name) ?? '', decision));
    const move = moving ? await planMove(ctx, prior, planned, decision.replace.length > 0) : null;
    if (move) diagnostics.push(...move.diagnostics);
    const requiresReplace = move && !move.live ? [...decision.replace, ['host']] : decision.replace;
    const replacing = requiresReplace.length > 0;
    // snapshot_before: none for a replacement (a cold move included), whose disks do not keep it.
    const snapshot = snapshotPlanOf(prior, planned, { ...decision, replace: requiresReplace });
    diagnostics.push(...snapshotPlanDiagnostics(planned, snapshot, decision));
    if (snapshot.taken) {
      const client = await reachableClient(ctx);
      const dom = client && str(prior.uuid) ? await domainByUuid(client, str(prior.uuid)!) : null;
      if (client && dom) diagnostics.push(...(await snapshotHostDiagnostics(client, dom, snapshot)));
    }
    const settled = settleComputed(planned, prior, replacing, ['id', 'uuid']);
    // Addresses stay as they are unless this apply may change them (or the state predates them).
    const withAddresses = settleComputed(settled, prior, decision.touchesGuest || moving, ADDRESS_ATTRS);
    diagnostics.push(...(await domainHostChecks(ctx, planned, prior.name !== planned.name)));
    diagnostics.push(...(await escapeHatchPlanDiagnostics(planned, ctx.notes, decision.changes.length > 0)));
    const starts = replacing || decision.restart || prior.running === false;
    return {
      planned: {
        ...withAddresses,
        graphics: plannedDisplays(
          planned,
          starts,
          decision.changes.some((c) => c.path[0] === 'graphics'),
        ),
        reprovision_action: decision.reprovision.action,
        previous_instance_id: decision.reprovision.previousInstanceId,
        ...(move ? movedRecord(decision, move, prior) : decision.recorded),
      },
      requiresReplace,
      diagnostics,
      plannedPrivate: plannedPrivateOf(ctx, 'domain', str(prior.uuid), priorPrivate, replacing),
    };
  },

  async apply({ prior, planned: given, config, plannedPrivate: marked }, ctx) {
    // Write-only display passwords: libvirt gets them from the config; the new state keeps their keyed digests.
    const key = given && config && hasWriteOnlyPassword(config) ? keyFor(marked) : undefined;
    const plannedPrivate = key ? privateWithKey(withoutReplaceMark(marked), key) : withoutReplaceMark(marked);
    const planned: DomainState | null = given && config && key ? { ...given, graphics: withPasswordDigests(given, config, key) } : given;
    const applied = await applyChange({ prior, planned: planned && withConfigPasswords(planned, config) }, ctx);
    if (applied.newState) applied.newState = withoutConfigPasswords(applied.newState, config);
    const state = applied.newState;
    const uuid = state ? str(state.uuid) : undefined;
    // The digest the last read kept is of the XML before this apply: the apply keeps the new one's when a read
    // would find the state it returns (after a failure, none: the next read parses).
    const dom: DomRef | undefined = uuid ? { name: str(state?.name) ?? '', uuid: uuidToBytes(uuid), id: -1 } : undefined;
    const priv =
      state && dom && !hasErrors(applied.diagnostics)
        ? await privateAfterApply(await ctx.client(), dom, state, plannedPrivate)
        : withoutReadDigest(plannedPrivate);
    return { ...applied, private: priv };
  },

  async read({ current, private: priv }, ctx) {
    const client = await ctx.client();
    const uuid = str(current.uuid);
    const found = uuid ? await findDomainByUuid(client, uuid) : null;
    const read = found
      ? await refreshDomain(client, found.dom, current, priv, found.shutOff).catch((err) => (isNoDomain(err) ? null : Promise.reject(err)))
      : null;
    if (!read) return { newState: null, diagnostics: [] }; // gone (undefined outside Terraform)
    noteManaged(ctx, 'domain', uuid);
    return { newState: read.state, private: read.private, diagnostics: [] };
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
    const imported: DomainState = {
      ...observed,
      ...(await currentAddresses(client, dom, observed)),
      reprovision: isValueOf(DOMAIN_FIELDS.fields.reprovision, policy) ? policy : null,
      reprovision_action: 'none',
      previous_instance_id: null,
      change_impact: 'none',
      change_impacts: {},
    };
    // What libvirt does not keep (timeouts, wait_for) starts at the table's defaults.
    return [withTableDefaults(DOMAIN_FIELDS, imported, null)];
  },
};
