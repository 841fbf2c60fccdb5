/**
 * A `virtseed_domain` whose `host` changes: moved by live migration, or replaced.
 *
 * How it fits Terraform's model: the domain's volumes and seed (whose `host` follows the same placement) are
 * replaced like any object whose host changes — Terraform destroys the old copy (a running guest still reads it,
 * so it is kept, marked for release: ./release.ts), creates the new one on the new host, then updates the domain.
 * The domain's update is the move. The plan decides it (planMove): live when the guest runs and keeps running, no
 * other change replaces the domain, it has no snapshots (libvirt does not migrate them), and both hosts answer with
 * the domain running on the old one; otherwise the domain is replaced (its plan says why). At apply (migrateLive) the old host's libvirtd migrates the running guest
 * to the new host itself (peer to peer: VIR_MIGRATE_LIVE | PEER2PEER | PERSIST_DEST | UNDEFINE_SOURCE), copying
 * its writable disks into the volumes made there: only their top images (NON_SHARED_INC) when every disk's backing
 * image is the same on both hosts (same capacity and sha256 of its bytes), else whole (NON_SHARED_DISK). The guest keeps running
 * (same boot); afterwards the old copies marked for release on the old host are deleted.
 */
import { warning, type Diagnostic } from '../../../../src/diagnostics';
import {
  VIR_MIGRATE_ABORT_ON_ERROR,
  VIR_MIGRATE_LIVE,
  VIR_MIGRATE_NON_SHARED_DISK,
  VIR_MIGRATE_NON_SHARED_INC,
  VIR_MIGRATE_PARAM_DEST_XML,
  VIR_MIGRATE_PEER2PEER,
  VIR_MIGRATE_PERSIST_DEST,
  VIR_MIGRATE_UNDEFINE_SOURCE,
  type DomRef,
  type LibvirtClient,
} from '../../../../src/libvirt';
import { describeHost } from '../../host';
import type { HandlerContext } from '../../handler';
import { xsltOf } from './domain-devices';
import { finalDomainXml } from './domain-escape';
import { defineDomain, isActive, removeDomain } from './domain-lifecycle';
import { resolveRefs } from './domain-refs';
import { toDomainSpec } from './domain-state';
import { domainByUuid, volumeByKey, volumeByPath } from './lookups';
import type { DomainChangeDecision } from './domain-changes';
import type { DomainState } from './model';
import { releaseVolumes } from './release';
import { backingPathFromXml, volumeSha256 } from './storage';
import { list, messageOf, str } from './values';

/** True when the plan moves the domain to another host (both hosts known). */
export function isMove(prior: DomainState, planned: DomainState): boolean {
  return typeof prior.host !== 'symbol' && typeof planned.host !== 'symbol' && (prior.host ?? null) !== (planned.host ?? null);
}

/**
 * `planned` with what a move changes by itself put back as in `prior`: the host, and the references to the
 * volumes, seed and Ignition config made anew on the new host. What is left are the changes the move does not
 * explain (they apply on the new host after it, as any update).
 */
export function unmoved(prior: DomainState, planned: DomainState): DomainState {
  const priorDisks = list(prior.disk);
  return {
    ...planned,
    host: prior.host,
    disk: Array.isArray(planned.disk)
      ? planned.disk.map((d, i) => (priorDisks[i] && d.file === priorDisks[i].file ? { ...d, volume_id: priorDisks[i].volume_id } : d))
      : planned.disk,
    cloudinit_seed_id: planned.cloudinit_seed_id === null ? null : prior.cloudinit_seed_id,
    ignition_id: planned.ignition_id === null ? null : prior.ignition_id,
  };
}

export interface MovePlan {
  readonly live: boolean;
  /** The old host's name, as the plan says it. */
  readonly from: string;
  /** Why the move replaces the domain (when not live). */
  readonly why?: string;
  readonly diagnostics: Diagnostic[];
}

const hostName = (h: unknown) => (typeof h === 'string' ? h : 'the default host');

/**
 * Decides how the plan moves the domain: live, or by replacement (`replacing`: another change replaces it anyway).
 * Asks the old host whether the domain runs there and the new one whether it answers.
 */
export async function planMove(
  ctx: HandlerContext<LibvirtClient>,
  prior: DomainState,
  planned: DomainState,
  replacing: boolean,
): Promise<MovePlan> {
  const [from, to] = [hostName(prior.host), hostName(planned.host)];
  const name = str(planned.name) ?? '';
  const replace = (why: string): MovePlan => ({
    live: false,
    from,
    why,
    diagnostics: [
      warning(
        ['host'],
        `Domain ${name} moves from ${from} to ${to} by replacement`,
        `${why}, so the domain on ${from} is destroyed and a new one created on ${to} from the volumes made there (a guest that runs starts from them: a new boot).`,
      ),
    ],
  });
  if (replacing) return replace('Another change replaces the domain');
  if (prior.running === false || planned.running === false) return replace('The guest is not running (or is to stop)');
  const source = await ctx.client(typeof prior.host === 'string' ? prior.host : null).catch((err: unknown) => messageOf(err));
  if (typeof source === 'string') return replace(`${from} does not answer (${source})`);
  const uuid = str(prior.uuid);
  const dom = uuid ? await domainByUuid(source, uuid) : null;
  if (!dom || !isActive((await source.domainGetState(dom)).state)) return replace(`The domain does not run on ${from}`);
  // libvirt refuses to migrate a domain that has snapshots ("cannot migrate domain with N snapshots").
  const snapshots = await source.domainListAllSnapshots(dom);
  if (snapshots.length)
    return replace(
      `The domain has ${snapshots.length} snapshot(s) on ${from} (${snapshots.map((s) => s.name).join(', ')}), which libvirt does not migrate; they are deleted with it (delete them first and plan again to move it live)`,
    );
  const target = await ctx.client().catch((err: unknown) => messageOf(err));
  if (typeof target === 'string') return replace(`${to} does not answer (${target})`);
  const dest = ctx.hostConfig(typeof planned.host === 'string' ? planned.host : null);
  return {
    live: true,
    from,
    diagnostics: [
      warning(
        ['host'],
        `Domain ${name} moves live from ${from} to ${to}`,
        `The guest keeps running: its volumes and seed are made on ${to} first, then ${from}'s libvirtd migrates it there peer to peer (through ${dest ? describeHost({ name: dest.name, uri: dest.migrationUri }) : to}), copying its disks; the copies on ${from} are removed once it runs on ${to}.`,
      ),
    ],
  };
}

/**
 * `change_impact` and `change_impacts` of a plan that moves the domain: the other changes' (`decision`, decided on
 * the unmoved value), and `host` live (`live: migration from h1`) or replacing (`replace: <why>`).
 */
export function movedRecord(
  decision: DomainChangeDecision,
  move: MovePlan,
  prior: DomainState,
): Pick<DomainState, 'change_impact' | 'change_impacts'> {
  const others = decision.changes.length && typeof decision.recorded.change_impacts === 'object' ? decision.recorded.change_impacts : {};
  const hostImpact = move.live ? `live: migration from ${move.from}` : `replace: ${move.why ?? 'moves'}`;
  const impact = move.live ? (decision.impact === 'none' ? 'live' : decision.impact) : 'replace';
  void prior;
  return { change_impact: impact, change_impacts: { ...(others ?? {}), host: hostImpact } };
}

/** The migration flags for copying disks: NON_SHARED_INC when every copied disk's backing image matches. */
async function copyFlag(
  source: LibvirtClient,
  target: LibvirtClient,
  prior: DomainState,
  planned: DomainState,
  signal: AbortSignal,
): Promise<number> {
  const from = list(prior.disk);
  const to = list(planned.disk);
  const copied = to.map((d, i) => ({ d, p: from[i] })).filter(({ d }) => d.readonly !== true);
  if (!copied.length) return VIR_MIGRATE_NON_SHARED_DISK;
  for (const { d, p } of copied) {
    const [srcKey, dstKey] = [str(p?.volume_id), str(d.volume_id)];
    if (!srcKey || !dstKey) return VIR_MIGRATE_NON_SHARED_DISK;
    const [srcVol, dstVol] = await Promise.all([volumeByKey(source, srcKey), volumeByKey(target, dstKey)]);
    if (!srcVol || !dstVol) return VIR_MIGRATE_NON_SHARED_DISK;
    const [srcBacking, dstBacking] = await Promise.all([
      source.storageVolGetXmlDesc(srcVol, 0).then(backingPathFromXml),
      target.storageVolGetXmlDesc(dstVol, 0).then(backingPathFromXml),
    ]);
    if (!srcBacking || !dstBacking) return VIR_MIGRATE_NON_SHARED_DISK;
    const [srcBase, dstBase] = await Promise.all([volumeByPath(source, srcBacking), volumeByPath(target, dstBacking)]);
    if (!srcBase || !dstBase) return VIR_MIGRATE_NON_SHARED_DISK;
    const [srcInfo, dstInfo] = await Promise.all([source.storageVolGetInfo(srcBase), target.storageVolGetInfo(dstBase)]);
    if (srcInfo.capacity !== dstInfo.capacity) return VIR_MIGRATE_NON_SHARED_DISK;
    const opts = { signal };
    const [a, b] = await Promise.all([volumeSha256(source, srcBase, undefined, opts), volumeSha256(target, dstBase, undefined, opts)]);
    if (a !== b) return VIR_MIGRATE_NON_SHARED_DISK;
  }
  return VIR_MIGRATE_NON_SHARED_INC;
}

/**
 * Moves the running domain of `prior` (on its host) to `planned`'s host, live. Returns the domain on the new host,
 * defined as the guest runs (the caller redefines it from `planned`). Rejects with libvirt's error when the
 * migration fails (the guest then still runs on the old host, which still has its copies).
 */
async function migrateLive(ctx: HandlerContext<LibvirtClient>, prior: DomainState, planned: DomainState): Promise<DomRef> {
  const source = await ctx.client(typeof prior.host === 'string' ? prior.host : null);
  const target = await ctx.client();
  const uuid = str(prior.uuid) ?? '';
  const dom = await domainByUuid(source, uuid);
  if (!dom) throw new Error(`domain ${str(prior.name)} (UUID ${uuid}) is no longer on ${hostName(prior.host)}`);
  const dest = ctx.hostConfig(typeof planned.host === 'string' ? planned.host : null);
  if (!dest?.migrationUri) throw new Error(`the migration URI of ${hostName(planned.host)} is not known`);
  // The guest's definition as virtseed renders it, with the new host's volumes (same UUID, same device order), its
  // disks named by their paths there: libvirt's destination takes a volume-type disk for missing and refuses an
  // incremental copy into it (docs/FACTS.md "Many hosts").
  const spec = toDomainSpec(unmovedExceptRefs(prior, planned), await resolveRefs(target, planned), uuid);
  for (const disk of spec.disks) {
    if (!('pool' in disk.source)) continue;
    const pool = await target.storagePoolLookupByName(disk.source.pool);
    disk.source = { file: await target.storageVolGetPath(await target.storageVolLookupByName(pool, disk.source.volume)) };
  }
  const xml = await finalDomainXml(spec, xsltOf(prior));
  const copy = await copyFlag(source, target, prior, planned, ctx.signal);
  const flags =
    VIR_MIGRATE_LIVE | VIR_MIGRATE_PEER2PEER | VIR_MIGRATE_PERSIST_DEST | VIR_MIGRATE_UNDEFINE_SOURCE | VIR_MIGRATE_ABORT_ON_ERROR | copy;
  ctx.log.info(
    `domain ${dom.name}: migrating live to ${hostName(planned.host)} (${copy === VIR_MIGRATE_NON_SHARED_INC ? 'top images' : 'whole disks'})`,
  );
  const abort = () => void source.domainAbortJob(dom).catch(() => undefined);
  ctx.signal.addEventListener('abort', abort, { once: true });
  try {
    await source.domainMigratePerform3Params(
      dom,
      dest.migrationUri,
      [{ field: VIR_MIGRATE_PARAM_DEST_XML, type: 'string', value: xml }],
      flags,
    );
  } finally {
    ctx.signal.removeEventListener('abort', abort);
  }
  const released = await releaseVolumes(source, priorVolumeKeys(prior));
  if (released.length) ctx.log.info(`domain ${dom.name}: removed its old copies on ${hostName(prior.host)}: ${released.join(', ')}`);
  const moved = await domainByUuid(target, uuid);
  if (!moved) throw new Error(`domain ${dom.name} is not on ${hostName(planned.host)} after its migration`);
  return moved;
}

/** The definition the guest runs with (prior's), referring to the planned (new host's) volumes, seed and config. */
function unmovedExceptRefs(prior: DomainState, planned: DomainState): DomainState {
  const plannedDisks = list(planned.disk);
  return {
    ...prior,
    disk: list(prior.disk).map((d, i) => ({ ...d, volume_id: plannedDisks[i]?.volume_id ?? d.volume_id })),
    cloudinit_seed_id: planned.cloudinit_seed_id,
    ignition_id: planned.ignition_id,
    network_interface: prior.network_interface,
  };
}

/** The volume keys (on the old host) of a domain's disks, seed and Ignition config. */
function priorVolumeKeys(prior: DomainState): string[] {
  const keys = list(prior.disk).map((d) => str(d.volume_id));
  keys.push(str(prior.cloudinit_seed_id), str(prior.ignition_id));
  return keys.filter((k): k is string => k !== undefined);
}

/**
 * Moves the domain of `prior` to `planned`'s host before the update goes on there: live when it runs on the old
 * host, else cold (removed there, its volumes released, defined on the new host with the same UUID).
 */
export async function moveDomain(ctx: HandlerContext<LibvirtClient>, prior: DomainState, planned: DomainState): Promise<void> {
  const source = await ctx.client(typeof prior.host === 'string' ? prior.host : null);
  const uuid = str(prior.uuid) ?? '';
  const dom = await domainByUuid(source, uuid);
  if (dom && isActive((await source.domainGetState(dom)).state)) {
    await migrateLive(ctx, prior, planned);
    return;
  }
  if (dom) await removeDomain(source, dom);
  ctx.log.info(`domain ${str(planned.name)}: not running on ${hostName(prior.host)}; defined on ${hostName(planned.host)} instead`);
  await defineDomain(await ctx.client(), planned, uuid);
}
