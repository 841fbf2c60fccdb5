/**
 * `virtseed_volume.restore_from`: a volume made from a disk of a backup chain (src/ops/backups, docs/backups.md).
 * The plan reads the chain's manifests (which backups, the bytes, the disk's size, the guest's instance-id); the
 * apply checks every file against its manifest, converts the chain to one qcow2 image in a temporary file on the
 * machine that runs terraform (qemu-img), and uploads it into the pool like a `source`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LibvirtClient, PoolRef, VolRef } from '../../../../src/libvirt';
import { BrokenChainError, formatAge, latestBackup, parseBackupId, restoreChain } from '../../../../src/backup';
import { warning, type Diagnostic } from '../../../../src/diagnostics';
import { readBackups, restoreDisk } from '../../../../src/ops/backups';
import type { Logger } from '../../plugin/log';
import { inspectSource } from './image-source';
import { createVolumeFromSource } from './upload';

/** What a restore would do, known at plan. */
export interface RestorePlan {
  readonly root: string;
  readonly domain: string;
  readonly backup: string;
  readonly disk: string;
  readonly chain: string[];
  readonly bytes: number;
  /** The disk's virtual size (bytes), from the full backup's image. */
  readonly virtualSize: number | undefined;
  readonly instanceId: string | null;
  /** When the backup's point in time was taken (its manifest's `takenAt`). */
  readonly takenAt: string;
}

/** A `restore_from` (or `restore_disk`) the plan cannot follow: `attribute` names which. */
export class RestorePlanError extends Error {
  constructor(
    readonly attribute: 'restore_from' | 'restore_disk',
    message: string,
  ) {
    super(message);
    this.name = 'RestorePlanError';
  }
}

/**
 * Reads the backup chain `restoreFrom` ends with: a backup's folder (`DIR/<domain>/<id>`), or a domain's folder
 * (`DIR/<domain>`: its latest backup, read at each plan that creates the volume).
 * @throws RestorePlanError naming the attribute, what was given and what is expected.
 */
export async function planRestore(restoreFrom: string, disk: string | undefined): Promise<RestorePlan> {
  const resolved = path.resolve(restoreFrom);
  const latest = parseBackupId(path.basename(resolved)) === null;
  const dir = latest ? resolved : path.dirname(resolved);
  const domain = path.basename(dir);
  const root = path.dirname(dir);
  const all = await readBackups(root, domain).catch((err: Error) => {
    throw new RestorePlanError('restore_from', `restore_from is "${restoreFrom}": its manifests cannot be read (${err.message})`);
  });
  const newest = latestBackup(all);
  if (latest && !newest)
    throw new RestorePlanError(
      'restore_from',
      `restore_from is "${restoreFrom}", a folder with no backup in it; expected a domain's folder of backups written by virtseed backup create (DIR/<domain>, its latest backup is restored) or one backup's folder (DIR/<domain>/<id>)`,
    );
  const backup = latest ? newest!.id : path.basename(resolved);
  let chain;
  try {
    chain = restoreChain(all, backup);
  } catch (err) {
    if (!(err instanceof BrokenChainError)) throw err;
    const have = all.map((m) => m.id).join(', ') || 'none';
    throw new RestorePlanError(
      'restore_from',
      `restore_from is "${restoreFrom}": ${err.message}; expected the folder of a backup written by virtseed backup create (backups of ${domain} in ${root}: ${have})`,
    );
  }
  const top = chain.at(-1)!;
  const disks = top.files.filter((f) => f.role === 'disk').map((f) => f.target ?? '');
  const target = disk ?? (disks.length === 1 ? disks[0] : undefined);
  if (target === undefined || !disks.includes(target))
    throw new RestorePlanError(
      'restore_disk',
      `restore_disk is ${disk === undefined ? 'not set' : `"${disk}"`}; expected one of the disks of backup ${top.id}: ${disks.join(', ') || 'none'}`,
    );
  let bytes = 0;
  for (const m of chain) bytes += m.files.find((f) => f.role === 'disk' && f.target === target)?.bytes ?? 0;
  const fullFile = path.join(root, domain, chain[0].id, chain[0].files.find((f) => f.role === 'disk' && f.target === target)!.name);
  const virtualSize = (await inspectSource(fullFile)).virtualSize;
  return {
    root,
    domain,
    backup: top.id,
    disk: target,
    chain: chain.map((m) => m.id),
    bytes,
    virtualSize,
    instanceId: top.domain.instanceId,
    takenAt: top.takenAt,
  };
}

/**
 * The plan-time warning of a restore: which guest comes back from which backup, how old that backup is at `now`,
 * and that what the guest wrote after it is lost. `label` names the volume (`Volume POOL/NAME`); on `restore_from`.
 */
export function restoreWarning(plan: RestorePlan, label: string, now: Date): Diagnostic {
  const age = formatAge(now.getTime() - Date.parse(plan.takenAt));
  return warning(
    ['restore_from'],
    `${plan.domain} restored from backup ${plan.backup}, ${age} old`,
    `${label} is made from disk ${plan.disk} of ${plan.domain} as it was at backup ${plan.backup} (taken ${plan.takenAt}, ${age} before this plan; chain ${plan.chain.join(' + ')}, ${plan.bytes} bytes read). Whatever ${plan.domain} wrote to ${plan.disk} after ${plan.takenAt} is not in it and is lost with the disk it was written to. Nothing is restored until this plan is applied.`,
  );
}

/**
 * Creates the volume `name` in `pool` from the planned restore: the chain converted to a temporary qcow2 file
 * (checked against the manifests and compared with the chain), uploaded, then the temporary file removed.
 * @throws Error when a file does not match its manifest, qemu-img fails, or the upload fails (no volume is kept).
 */
export async function createRestoredVolume(
  client: LibvirtClient,
  pool: PoolRef,
  spec: { name: string; plan: RestorePlan; capacity?: number },
  ctx: { log: Pick<Logger, 'info'>; signal?: AbortSignal },
): Promise<VolRef> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'virtseed-restore-'));
  try {
    const file = path.join(tmp, `${spec.plan.disk}.qcow2`);
    const r = await restoreDisk(spec.plan.root, spec.plan.domain, spec.plan.backup, spec.plan.disk, file);
    ctx.log.info(
      `volume ${pool.name}/${spec.name}: disk ${spec.plan.disk} of ${spec.plan.domain} at ${spec.plan.backup} restored from ${r.chain.join(' + ')} (read ${r.readBytes} bytes, image ${r.writtenBytes} bytes, ${r.seconds.toFixed(1)} s)`,
    );
    const made = await createVolumeFromSource(
      client,
      pool,
      { name: spec.name, source: file, format: 'qcow2', capacity: spec.capacity },
      ctx,
    );
    return made.vol;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
