/**
 * Chains of backups: a full backup and the incrementals that add to it, each naming its parent. Which backup comes
 * next, which backups a restore reads, which ones a prune removes. Pure.
 */
import { backupId, checkpointName } from './manifest';
import type { BackupKind, BackupManifest } from './model';

/** The next backup of a domain: its id, kind, parent and the checkpoint it creates; `reason` says why that kind. */
export interface NextBackup {
  readonly id: string;
  readonly sequence: number;
  readonly kind: BackupKind;
  readonly parent: string | null;
  readonly base: string;
  readonly checkpoint: string;
  /** The checkpoint an incremental starts from (its parent's). */
  readonly since: string | null;
  readonly reason: string;
}

/**
 * Decides the next backup from the domain's existing ones (any order). An incremental needs the latest backup's
 * checkpoint still on the domain and the same disks backed up; otherwise (or with `forceFull`) a full one.
 * @param latestCheckpointPresent whether libvirt still has the latest backup's checkpoint on the domain.
 * @param disks the targets that will be backed up now (e.g. `['vda']`).
 * @param folder the absolute path of the folder of the domain's backups (names the checkpoint: see checkpointName).
 */
export function nextBackup(
  existing: readonly BackupManifest[],
  options: { forceFull: boolean; latestCheckpointPresent: boolean; disks: readonly string[]; folder: string },
): NextBackup {
  const sorted = [...existing].sort((a, b) => a.sequence - b.sequence);
  const latest = sorted.at(-1) ?? null;
  const sequence = (latest?.sequence ?? 0) + 1;
  const full = (reason: string): NextBackup => {
    const id = backupId(sequence, 'full');
    return {
      id,
      sequence,
      kind: 'full',
      parent: null,
      base: id,
      checkpoint: checkpointName(sequence, options.folder),
      since: null,
      reason,
    };
  };
  if (!latest) return full('the domain has no backup yet');
  if (options.forceFull) return full('a full backup was asked for');
  if (!options.latestCheckpointPresent) return full(`the domain no longer has checkpoint ${latest.checkpoint} of backup ${latest.id}`);
  const before = latest.files
    .filter((f) => f.role === 'disk')
    .map((f) => f.target ?? '')
    .sort();
  const now = [...options.disks].sort();
  if (before.join(',') !== now.join(','))
    return full(`the disks changed since backup ${latest.id} (${before.join(', ') || 'none'} then, ${now.join(', ') || 'none'} now)`);
  return {
    id: backupId(sequence, 'incremental'),
    sequence,
    kind: 'incremental',
    parent: latest.id,
    base: latest.base,
    checkpoint: checkpointName(sequence, options.folder),
    since: latest.checkpoint,
    reason: `changes since backup ${latest.id} (checkpoint ${latest.checkpoint})`,
  };
}

/** A chain that cannot be followed: `missing` is the backup id that is not there. */
export class BrokenChainError extends Error {
  constructor(
    readonly missing: string,
    message: string,
  ) {
    super(message);
    this.name = 'BrokenChainError';
  }
}

/**
 * The backups a restore to `id` reads, oldest first: its full backup, then each incremental up to `id`.
 * @throws BrokenChainError when `id` or one of its ancestors is not among `all`.
 */
export function restoreChain(all: readonly BackupManifest[], id: string): BackupManifest[] {
  const byId = new Map(all.map((m) => [m.id, m]));
  const out: BackupManifest[] = [];
  let at: string | null = id;
  while (at !== null) {
    const m = byId.get(at);
    if (!m) {
      throw new BrokenChainError(
        at,
        at === id ? `there is no backup ${id}` : `backup ${id} needs ${at}, which is not there (pruned or deleted by hand)`,
      );
    }
    out.unshift(m);
    at = m.parent;
  }
  return out;
}

/** The latest backup (highest sequence), or null. */
export function latestBackup(all: readonly BackupManifest[]): BackupManifest | null {
  return [...all].sort((a, b) => a.sequence - b.sequence).at(-1) ?? null;
}

/**
 * What a prune keeping the `keep` most recent backups removes: every backup neither among them nor needed by
 * one of them (an incremental's ancestors back to its full backup stay). Ids in sequence order.
 * @throws Error when `keep` is not a positive integer.
 */
export function pruneSelection(all: readonly BackupManifest[], keep: number): { keep: string[]; remove: string[] } {
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`keep ${keep}: expected a whole number of at least 1`);
  const sorted = [...all].sort((a, b) => a.sequence - b.sequence);
  const kept = new Set<string>();
  for (const m of sorted.slice(-keep)) {
    for (const needed of restoreChainLenient(sorted, m.id)) kept.add(needed);
  }
  return {
    keep: sorted.filter((m) => kept.has(m.id)).map((m) => m.id),
    remove: sorted.filter((m) => !kept.has(m.id)).map((m) => m.id),
  };
}

/** The ids of `id`'s chain that are present (a broken chain keeps what is left of it). */
function restoreChainLenient(all: readonly BackupManifest[], id: string): string[] {
  const byId = new Map(all.map((m) => [m.id, m]));
  const out: string[] = [];
  let at: string | null = id;
  while (at !== null && byId.has(at)) {
    out.push(at);
    at = byId.get(at)!.parent;
  }
  return out;
}

/**
 * The qemu-img `json:` image name (qemu-img(1) "json: pseudo-protocol") of one disk's chain: the last file (newest
 * backup) with each older one as its backing, so unallocated clusters of an incremental read through to the backups
 * before it. Nothing is written into the files (no rebase).
 * @param files absolute paths, oldest (the full backup's) first.
 * @throws Error for an empty list.
 */
export function chainImageSpec(files: readonly string[]): string {
  let spec: Record<string, unknown> | null = null;
  for (const file of files) {
    const node: Record<string, unknown> = { driver: 'qcow2', file: { driver: 'file', filename: file } };
    node.backing = spec;
    spec = node;
  }
  if (!spec) throw new Error('an empty chain');
  return `json:${JSON.stringify(spec)}`;
}
