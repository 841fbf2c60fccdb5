/**
 * A domain backup as virtseed writes it to a directory (docs/backups.md): one folder per backup, named by its
 * sequence number in the domain's chain and its kind (`0001-full`, `0002-incremental`), holding the copies of the
 * domain's qcow2 disks, its definition, its seed and NVRAM, and `manifest.json` (this shape).
 */

/** `full`: every disk's whole content; `incremental`: only the clusters written since the parent's checkpoint. */
export type BackupKind = 'full' | 'incremental';

/**
 * `filesystem`: the guest's file systems were frozen through qemu-guest-agent while the backup's point in time was
 * taken; `crash`: they were not (no agent, or it did not answer), so the copy is what a power cut would leave.
 */
export type BackupConsistency = 'filesystem' | 'crash';

/** What a file of a backup is. */
export type BackupFileRole = 'disk' | 'definition' | 'seed' | 'nvram';

/** One file of a backup, its name relative to the backup's folder. */
export interface BackupFile {
  readonly name: string;
  readonly role: BackupFileRole;
  /** The disk's target (`vda`) for `disk` and `seed` files. */
  readonly target?: string;
  /** Size in bytes. */
  readonly bytes: number;
  /** sha256 of the file's bytes, lower-case hex. */
  readonly sha256: string;
}

/** `manifest.json` of one backup (format version 1). */
export interface BackupManifest {
  readonly format: 1;
  /** `<sequence as 4 digits>-<kind>`, e.g. `0002-incremental`: the backup's folder name. */
  readonly id: string;
  readonly sequence: number;
  readonly kind: BackupKind;
  /** The backup this one adds to (incremental), else null. */
  readonly parent: string | null;
  /** The full backup this chain starts with (itself for a full one). */
  readonly base: string;
  /** The libvirt checkpoint created with this backup (the next incremental starts from it). */
  readonly checkpoint: string;
  readonly domain: { readonly name: string; readonly uuid: string; readonly instanceId: string | null };
  readonly consistency: BackupConsistency;
  /** Why the backup is crash-consistent, when it is. */
  readonly consistencyNote?: string;
  /** When the backup's point in time was taken (ISO 8601, UTC): an artifact of the operation, not an id. */
  readonly takenAt: string;
  /** Disks of the domain left out and why (e.g. a raw disk, which has no checkpoints). */
  readonly skipped: readonly { readonly target: string; readonly reason: string }[];
  readonly files: readonly BackupFile[];
}
