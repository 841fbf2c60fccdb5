/**
 * `virtseed_domain.snapshot_before` / `snapshot_keep`: the automatic snapshots of a domain (`virtseed-auto-N`) taken
 * before an apply changes its guest, the revert when that apply's `wait_for` fails, and their upkeep (the last
 * `snapshot_keep` kept, all removed with the domain). Whether an apply takes one is src/snapshot's plannedSnapshot,
 * asked with the domain's one change decision (./domain-changes.ts); the snapshots themselves are src/ops/snapshots.
 *
 * The seed: an apply that re-provisions has already rewritten the seed volume (virtseed_cloudinit_seed applies
 * first) when it takes its snapshot, so the snapshot's seed copy comes from the copy of the seed the guest last
 * booted with (`<domain>.booted-seed`), kept after every apply that started the guest while snapshot_before is on.
 * A revert writes that seed back for the reverted guest's boot and, once the guest has booted on it (its wait
 * passed), puts the new seed back into the volume: the seed resource's state stays true, the guest keeps the
 * instance-id it had (cloud-init reads the seed at boot: docs/FACTS.md "Snapshots: cloud-init reads the seed at boot,
 * and per-instance modules follow the instance-id"), and the next plan shows the same change again.
 */
import { Diagnostic, error, hasErrors, warning } from '../../../../src/diagnostics';
import { DOMAIN_FIELDS } from '../../../../src/fields';
import { type DomRef, type LibvirtClient } from '../../../../src/libvirt';
import {
  bootedSeed,
  deleteSnapshot,
  diskSnapshotNames,
  domainSeedVolume,
  dropBootedSeed,
  keepBootedSeed,
  listSnapshots,
  revertSnapshot,
  snapshotSubject,
  SnapshotRefusedError,
  takeSnapshot,
} from '../../../../src/ops/snapshots';
import { writeVolumeBytes } from '../../../../src/ops/volume-bytes';
import { hasWritableDisk, plannedSnapshot, snapshotDeletion, snapshotKind, type SnapshotPlan } from '../../../../src/snapshot';
import type { HandlerContext } from '../../handler';
import type { DomainChangeDecision } from './domain-changes';
import { isActive, startDomain, stopDiagnostic, stopGuest } from './domain-lifecycle';
import type { DomainState } from './model';
import { known, list, messageOf, num, str } from './values';

/** Automatic snapshots are named this plus a number that grows with each one (`virtseed-auto-1`, `-2`, …). */
const AUTO_SNAPSHOT_PREFIX = 'virtseed-auto-';

/** The number of an automatic snapshot's name, or null for any other name. */
export function autoSnapshotNumber(name: string): number | null {
  const m = /^virtseed-auto-([1-9][0-9]{0,8})$/.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * The name of the next automatic snapshot among the domain's snapshot names (one above the highest): libvirt's and
 * those its disks hold, so no name is taken twice on a disk (a revert of a name held twice restores the oldest).
 */
export function nextAutoSnapshotName(existing: readonly string[]): string {
  const numbers = existing.map(autoSnapshotNumber).filter((n): n is number => n !== null);
  return `${AUTO_SNAPSHOT_PREFIX}${Math.max(0, ...numbers) + 1}`;
}

/** The automatic snapshots to delete so that the newest `keep` remain (oldest first). */
export function autoSnapshotsToPrune(existing: readonly string[], keep: number): string[] {
  const autos = existing
    .map((name) => ({ name, n: autoSnapshotNumber(name) }))
    .filter((a): a is { name: string; n: number } => a.n !== null)
    .sort((a, b) => a.n - b.n);
  return autos.slice(0, Math.max(0, autos.length - Math.max(0, keep))).map((a) => a.name);
}

/** Whether this update of the domain takes a snapshot first, from the one change decision. Pure. */
export function snapshotPlanOf(prior: DomainState, planned: DomainState, decision: DomainChangeDecision): SnapshotPlan {
  return plannedSnapshot({
    policy: known(planned.snapshot_before),
    action: decision.replace.length > 0 ? 'replace' : 'update',
    impact: decision.impact,
    runningBefore: prior.running !== false,
    firmware: known(planned.firmware),
    virtiofs: list(prior.filesystem).some((f) => (known(f.driver) ?? DOMAIN_FIELDS.fields.filesystem.fields.driver.default) === 'virtiofs'),
  });
}

const plannedDisksKey = (name: string, writable: boolean) => `planned-disks\u0000${name}\u0000${writable ? 'writable' : 'read-only'}`;

/**
 * Records whether domain `planned.name` has a writable disk once this plan is applied, for the `virtseed_snapshot`
 * plans that follow in this provider process (Terraform plans a domain before the snapshots that refer to it).
 */
export function notePlannedDisks(ctx: HandlerContext<LibvirtClient>, planned: DomainState): void {
  const name = typeof planned.name === 'string' ? planned.name : undefined;
  if (!name || !Array.isArray(planned.disk) || planned.disk.some((d) => typeof d.readonly !== 'boolean')) return;
  const writable = hasWritableDisk(planned.disk.map((d) => ({ device: 'disk' as const, readonly: d.readonly === true })));
  ctx.notes.delete(plannedDisksKey(name, !writable));
  ctx.notes.add(plannedDisksKey(name, writable));
}

/** Whether domain `name` has a writable disk once this plan is applied, when its plan said so ({@link notePlannedDisks}). */
export function plannedWritableDisk(ctx: HandlerContext<LibvirtClient>, name: string): boolean | undefined {
  if (ctx.notes.has(plannedDisksKey(name, true))) return true;
  return ctx.notes.has(plannedDisksKey(name, false)) ? false : undefined;
}

/**
 * The plan's word on the snapshot (a warning, so a review sees it), when `snapshot_before` is on and the plan changes
 * the guest. Pure.
 */
export function snapshotPlanDiagnostics(planned: DomainState, plan: SnapshotPlan, decision: DomainChangeDecision): Diagnostic[] {
  const name = String(planned.name);
  const policy = known(planned.snapshot_before) ?? 'none';
  if (policy === 'none' || decision.impact === 'none') return [];
  if (!plan.taken)
    return decision.replace.length || policy === 'disruptive'
      ? []
      : [warning(['snapshot_before'], `No snapshot of ${name} before this apply`, `snapshot_before = "${policy}": ${plan.reason}.`)];
  const waitFor = known(planned.wait_for) ?? 'none';
  const revert =
    waitFor === 'none' || plan.kind === 'memory'
      ? 'The apply does not wait for the guest (wait_for), so nothing reverts to it automatically; virtseed snapshot revert can.'
      : `If wait_for = "${waitFor}" then fails, the guest is reverted to it and started again, and the apply fails.`;
  return [
    warning(
      ['snapshot_before'],
      `A snapshot of ${name} is taken before this apply`,
      `snapshot_before = "${policy}": ${plan.reason}. ${revert} Automatic snapshots kept: the newest ${num(planned.snapshot_keep) ?? DOMAIN_FIELDS.fields.snapshot_keep.default} (snapshot_keep).`,
    ),
  ];
}

/**
 * Plan-time check against the domain as it is (when the host is reachable): the snapshot the plan takes is one
 * libvirt can take of its disks. A snapshot refused at apply would fail the apply before it changes anything, but
 * the plan says so first.
 */
export async function snapshotHostDiagnostics(client: LibvirtClient, dom: DomRef, plan: SnapshotPlan): Promise<Diagnostic[]> {
  if (!plan.taken) return [];
  const subject = await snapshotSubject(client, dom);
  const decision = snapshotKind({ ...subject, running: plan.kind === 'memory' }, plan.kind === 'memory');
  if (decision.ok) return [];
  return [
    error(
      ['snapshot_before'],
      'Cannot take the snapshot',
      `Domain ${dom.name}: ${decision.problem}. To protect it: ${decision.fix}; else set snapshot_before = "none".`,
    ),
  ];
}

/** What takeAutoSnapshot did. */
export type AutoSnapshot = { readonly name: string; readonly notes: Diagnostic[] } | { readonly refused: Diagnostic[] };

/**
 * Takes the automatic snapshot of `dom` (`plan.kind`: `disk` needs the guest shut off, which the caller has done;
 * `memory` needs it running), with the booted seed as its seed copy. Refusals come back as diagnostics (nothing
 * was taken).
 */
async function takeAutoSnapshot(
  client: LibvirtClient,
  dom: DomRef,
  prior: DomainState,
  planned: DomainState,
  plan: SnapshotPlan,
  ctx: HandlerContext<LibvirtClient>,
): Promise<AutoSnapshot> {
  const names = (await listSnapshots(client, dom, { signal: ctx.signal })).map((s) => s.name);
  const name = nextAutoSnapshotName([...names, ...(await diskSnapshotNames(client, dom, { signal: ctx.signal }))]);
  const notes: Diagnostic[] = [];
  const booted = await bootedSeed(client, dom);
  const reprovisions = known(prior.instance_id) !== known(planned.instance_id);
  if (!booted && reprovisions && (await domainSeedVolume(client, dom)))
    notes.push(
      warning(
        ['snapshot_before'],
        `Snapshot ${name} of ${String(planned.name)} has the new seed`,
        'No copy of the seed the guest last booted with was kept (snapshot_before was off until now), and the seed volume already holds the new one: a revert to this snapshot restores the disks, but the guest boots on the new instance-id.',
      ),
    );
  const description = reprovisions
    ? `virtseed: before re-provisioning ${String(prior.instance_id ?? 'none')} → ${String(planned.instance_id ?? 'none')}`
    : `virtseed: before an apply that ${plan.kind === 'disk' ? 'restarts the guest' : 'changes the running guest'}`;
  try {
    await takeSnapshot(client, dom, {
      name,
      description,
      memory: plan.kind === 'memory',
      ...(booted ? { seedFrom: booted } : {}),
      signal: ctx.signal,
    });
  } catch (err) {
    if (!(err instanceof SnapshotRefusedError)) throw err;
    return {
      refused: [
        error(
          ['snapshot_before'],
          'Cannot take the snapshot',
          `${err.message} The apply changed nothing; set snapshot_before = "none" to apply without a snapshot.`,
        ),
      ],
    };
  }
  ctx.log.info(`domain ${dom.name}: snapshot ${name} taken (${plan.kind})`);
  return { name, notes };
}

/**
 * The first step of an update under `snapshot_before`, before the new definition: takes the snapshot the plan
 * decided (a `disk` one after shutting a running guest down cleanly, which the restart does anyway). Returns the
 * snapshot's name (null when none is taken) and notes, or `stop`: the diagnostics of an apply that must end here
 * having changed nothing (interrupted, or the snapshot refused or failed: a guest shut down for it is started again).
 */
export async function snapshotBeforeApply(
  client: LibvirtClient,
  dom: DomRef,
  prior: DomainState,
  planned: DomainState,
  decision: DomainChangeDecision,
  shutdownTimeoutS: number,
  ctx: HandlerContext<LibvirtClient>,
): Promise<{ taken: string | null; notes: Diagnostic[] } | { stop: Diagnostic[] }> {
  const plan = snapshotPlanOf(prior, planned, decision);
  if (!plan.taken) return { taken: null, notes: [] };
  const name = String(planned.name);
  const shutDown = plan.kind === 'disk' && isActive((await client.domainGetState(dom)).state);
  const notes: Diagnostic[] = [];
  if (shutDown) {
    ctx.log.info(`domain ${name}: shutting down for the snapshot before ${decision.reprovisionNow ? 're-provisioning' : 'restarting'}`);
    const stopped = await stopGuest(client, dom, shutdownTimeoutS, ctx);
    if (stopped.state === 'interrupted')
      return {
        stop: [
          error([], 'Interrupted', `Terraform was interrupted while ${name} was shutting down for its snapshot; nothing else changed.`),
        ],
      };
    notes.push(stopDiagnostic(name, 'was restarted', stopped, shutdownTimeoutS));
  }
  let auto: AutoSnapshot;
  try {
    auto = await takeAutoSnapshot(client, dom, prior, planned, plan, ctx);
  } catch (err) {
    auto = { refused: [error(['snapshot_before'], 'Cannot take the snapshot', `${messageOf(err)}. The apply changed nothing.`)] };
  }
  if ('refused' in auto) {
    if (shutDown) await client.domainCreate(dom);
    return { stop: auto.refused };
  }
  // While the guest is shut off, older automatic snapshots can be deleted from the disks (snapshotDeletion: not
  // while a UEFI guest runs, which is when keepSnapshotsTidy runs); the new one stays for the revert.
  if (plan.kind === 'disk')
    notes.push(...(await pruneAutoSnapshots(client, dom, planned, Math.max(1, num(planned.snapshot_keep) ?? 1), ctx)));
  return { taken: auto.name, notes: [...notes, ...auto.notes] };
}

/** Advice in the wait's diagnostics that a revert makes untrue (the failed guest does not keep running). */
const KEEPS_RUNNING = [/\s*The domain exists and keeps running;[^\n]*/g, /;? the domain keeps running and is kept in state\./g];

/**
 * After the apply's wait failed (`failed`: its diagnostics): powers the guest off, reverts it to `snapshot` (disks,
 * definition, the seed it booted with) and, when it ran before the apply, starts it again and waits as the apply
 * did; then puts the new seed back into the seed volume. Returns the diagnostics the apply fails with: each error
 * of the wait, naming the revert.
 */
export async function revertAfterFailure(
  client: LibvirtClient,
  dom: DomRef,
  snapshot: string,
  prior: DomainState,
  planned: DomainState,
  failed: Diagnostic[],
  ctx: HandlerContext<LibvirtClient>,
): Promise<Diagnostic[]> {
  const name = String(planned.name);
  if (ctx.signal.aborted)
    return [
      ...failed,
      error(
        [],
        'Interrupted',
        `Terraform was interrupted; ${name} was not reverted. Snapshot ${snapshot} holds it as before this apply: virtseed snapshot revert ${name} ${snapshot} --start.`,
      ),
    ];
  ctx.log.info(`domain ${name}: the apply's wait failed; reverting to snapshot ${snapshot}`);
  if (isActive((await client.domainGetState(dom)).state)) await client.domainDestroy(dom);
  const seed = await domainSeedVolume(client, dom);
  const newSeed = seed ? await client.storageVolDownload(seed.vol) : null;
  const reverted = await revertSnapshot(client, dom, snapshot, { start: false, signal: ctx.signal });
  const notes: string[] = [];
  let again: Diagnostic[] = [];
  if (prior.running !== false) {
    // The apply's own wait (its wait_for may be new), so the reverted guest has read its seed before it changes back.
    again = await startDomain(client, dom, { ...prior, wait_for: planned.wait_for, wait_timeout: planned.wait_timeout }, ctx, false);
  }
  if (reverted.seedRestored && newSeed) {
    if (!hasErrors(again)) {
      await writeVolumeBytes(client, reverted.seedRestored, newSeed);
      notes.push('the seed volume holds the new seed again (the guest read the old one at boot)');
    } else notes.push('the seed volume keeps the seed the guest booted with (the reverted guest did not finish booting)');
  }
  const iid = known(prior.instance_id);
  const how =
    prior.running === false
      ? 'it is shut off, as it was'
      : hasErrors(again)
        ? 'it was started again but did not come back either'
        : `it runs again${iid ? ` on instance-id ${iid}` : ''}`;
  const revertText =
    `Reverted to snapshot ${snapshot}, taken before this apply: the guest's disks and definition are as they were, and ${how}` +
    `${notes.length ? `; ${notes.join('; ')}` : ''}. Terraform keeps the prior state, so the next plan shows this change again. ` +
    `Fix the cause and apply again (with snapshot_before = "none" a failed guest is kept for debugging).`;
  const out = failed.map((d) =>
    d.severity === 'error'
      ? {
          ...d,
          summary: `${d.summary} (reverted to snapshot ${snapshot})`,
          detail: `${KEEPS_RUNNING.reduce((t, re) => t.replace(re, ''), d.detail)}\n\n${revertText}`,
        }
      : d,
  );
  for (const d of again.filter((x) => x.severity === 'error')) out.push({ ...d, summary: `After the revert to ${snapshot}: ${d.summary}` });
  return out;
}

/**
 * The upkeep after an apply of a domain whose guest it may have started: deletes automatic snapshots beyond
 * `snapshot_keep`, and keeps (or, with snapshot_before off, drops) the copy of the seed the guest booted with.
 * `started`: the apply started the guest (and its wait passed).
 */
export async function keepSnapshotsTidy(
  client: LibvirtClient,
  dom: DomRef,
  prior: DomainState | null,
  planned: DomainState,
  started: boolean,
  ctx: HandlerContext<LibvirtClient>,
): Promise<Diagnostic[]> {
  const policy = known(planned.snapshot_before) ?? 'none';
  const was = known(prior?.snapshot_before) ?? 'none';
  try {
    if (policy === 'none') {
      if (was !== 'none') await dropBootedSeed(client, dom);
      return [];
    }
    const keep = num(planned.snapshot_keep) ?? DOMAIN_FIELDS.fields.snapshot_keep.default;
    ctx.log.info(`domain ${dom.name}: tidying automatic snapshots (snapshot_keep = ${keep})`);
    const pruned = await pruneAutoSnapshots(client, dom, planned, keep, ctx);
    if (pruned.length) return pruned;
    if (started || was === 'none' || !(await bootedSeed(client, dom))) await keepBootedSeed(client, dom);
    ctx.log.info(`domain ${dom.name}: automatic snapshots tidied`);
    return [];
  } catch (err) {
    return [notTidied(planned, err)];
  }
}

/** The warning of a tidy that failed: the next apply tries again. */
function notTidied(planned: DomainState, err: unknown): Diagnostic {
  return warning(
    ['snapshot_keep'],
    `Automatic snapshots of ${str(planned.name) ?? ''} not tidied`,
    `${messageOf(err)}. The next apply tries again.`,
  );
}

/**
 * Deletes the automatic snapshots of `dom` beyond the newest `keep`, when libvirt deletes them from the disks now
 * (snapshotDeletion): a running UEFI guest's are left for the next time it is shut off (the next apply that
 * snapshots it, or destroy), logged. Returns a warning when a delete failed (the next apply tries again).
 */
async function pruneAutoSnapshots(
  client: LibvirtClient,
  dom: DomRef,
  planned: DomainState,
  keep: number,
  ctx: HandlerContext<LibvirtClient>,
): Promise<Diagnostic[]> {
  try {
    const old = autoSnapshotsToPrune(
      (await listSnapshots(client, dom)).map((s) => s.name),
      keep,
    );
    if (!old.length) return [];
    const can = snapshotDeletion(await snapshotSubject(client, dom));
    if (!can.ok) {
      ctx.log.info(`domain ${dom.name}: ${old.join(', ')} kept until the guest is shut off: ${can.problem}`);
      return [];
    }
    for (const name of old) {
      await deleteSnapshot(client, dom, name);
      ctx.log.info(`domain ${dom.name}: snapshot ${name} deleted (snapshot_keep = ${keep})`);
    }
    return [];
  } catch (err) {
    return [notTidied(planned, err)];
  }
}

/** Before a domain is undefined: deletes its automatic snapshots (their data and seed copies) and the booted seed.
 *  `definitionXml`: the domain's persistent definition when the caller has just read it. */
export async function removeAutoSnapshots(client: LibvirtClient, dom: DomRef, definitionXml?: string): Promise<void> {
  for (const s of await listSnapshots(client, dom)) if (autoSnapshotNumber(s.name) !== null) await deleteSnapshot(client, dom, s.name);
  await dropBootedSeed(client, dom, undefined, definitionXml);
}
