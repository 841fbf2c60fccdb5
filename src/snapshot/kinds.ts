/**
 * Which snapshot libvirt 9.0 with QEMU 7.2 can take of a domain (measured: docs/FACTS.md "Snapshots: what libvirt 9.0
 * with QEMU 7.2 takes and reverts"; docs/snapshots.md has the table): virtseed
 * takes internal snapshots only, stored inside the domain's qcow2 disks. Pure.
 *
 * - A running (or paused) guest with BIOS firmware: its memory and device state and its disks (`memory`); a revert
 *   resumes the guest where it was.
 * - A shut-off guest, BIOS or UEFI: its disks (`disk`); a revert leaves it shut off, the next start boots it. A
 *   UEFI guest's NVRAM is in no snapshot (libvirt keeps it outside the disks and does not revert it).
 * - Refused: a running UEFI guest (libvirt: "internal snapshots of a VM with pflash based firmware are not
 *   supported"); a writable disk that is not qcow2 ("internal snapshot for disk vdb unsupported for storage type
 *   raw"); the disks alone of a running guest (libvirt makes those external: overlay files the domain's disks are
 *   re-pointed at, which libvirt 9.0 cannot revert); the memory of a running guest with a virtiofs share (QEMU:
 *   "cannot migrate domain: non-migratable device: …/vhost-user-fs"; its disks can be taken while it is shut off);
 *   a domain with no writable disk ("nothing selected for snapshot": the snapshot would hold nothing).
 *   Read-only disks and cdroms (the cloud-init seed) are left out.
 */

/** What a domain is, as far as snapshots go. */
export interface SnapshotSubject {
  /** Running or paused (its memory can be saved). */
  readonly running: boolean;
  readonly firmware: 'bios' | 'efi';
  /** Every disk: its target (`vda`), image format (absent: unknown), read-only flag and device. */
  readonly disks: readonly { target: string; format?: string; readonly: boolean; device: 'disk' | 'cdrom' }[];
  /** Whether it shares a host directory by virtiofs (vhost-user-fs, which QEMU cannot save with the memory). */
  readonly virtiofs?: boolean;
}

/** `memory`: the guest's memory and disks; `disk`: the disks of a shut-off guest. */
export type SnapshotKind = 'memory' | 'disk';

/** The kind libvirt will take, or why it cannot and what to do instead. */
export type KindDecision =
  { readonly ok: true; readonly kind: SnapshotKind } | { readonly ok: false; readonly problem: string; readonly fix: string };

/**
 * The snapshot `subject` allows. `memory`: true asks for the guest's memory (needs it running), false for its disks
 * only (needs it shut off), undefined for whatever its state gives.
 */
/** The refusal of a snapshot of a domain whose disks are all read-only (or that has none). */
export const NO_WRITABLE_DISK = {
  ok: false,
  problem: 'it has no writable disk, and a snapshot holds the writable disks (libvirt: "nothing selected for snapshot")',
  fix: 'give it a writable qcow2 disk (readonly = false)',
} as const satisfies KindDecision;

/** True when `disks` hold a writable disk (not a cdrom, not read-only), which a snapshot can hold. */
export function hasWritableDisk(disks: readonly { readonly: boolean; device: 'disk' | 'cdrom' }[]): boolean {
  return disks.some((d) => d.device === 'disk' && !d.readonly);
}

export function snapshotKind(subject: SnapshotSubject, memory?: boolean): KindDecision {
  const raw = subject.disks.find((d) => d.device === 'disk' && !d.readonly && d.format !== 'qcow2');
  if (raw)
    return {
      ok: false,
      problem: `disk ${raw.target} is ${raw.format ?? 'of unknown format'}: libvirt takes internal snapshots of qcow2 disks only, and every writable disk is part of one`,
      fix: `use a qcow2 volume for ${raw.target}, or attach it read-only (readonly = true), which leaves it out of snapshots`,
    };
  if (!hasWritableDisk(subject.disks)) return NO_WRITABLE_DISK;
  if (memory === true && !subject.running)
    return {
      ok: false,
      problem: 'memory = true needs a running guest, and the domain is shut off',
      fix: 'start it (running = true on the domain) before the snapshot, or set memory = false for a snapshot of its disks',
    };
  if (memory === false && subject.running)
    return {
      ok: false,
      problem:
        "a snapshot of a running guest's disks alone is an external snapshot in libvirt (overlay files the domain's disks are switched to), which libvirt 9.0 cannot revert; virtseed takes internal snapshots only",
      fix: 'shut the guest down first (running = false on the domain), or keep its memory (memory = true, BIOS guests)',
    };
  if (subject.running && subject.firmware === 'efi')
    return {
      ok: false,
      problem:
        'libvirt 9.0 takes no internal snapshot of a running UEFI guest ("internal snapshots of a VM with pflash based firmware are not supported")',
      fix: "take it while the guest is shut off (running = false on the domain): that snapshot holds the disks; a UEFI guest's NVRAM is in no snapshot",
    };
  if (subject.running && subject.virtiofs)
    return {
      ok: false,
      problem:
        'QEMU cannot save the memory of a guest with a virtiofs share (libvirt 9.0: "cannot migrate domain: non-migratable device: …/vhost-user-fs")',
      fix: 'take it while the guest is shut off (running = false on the domain): that snapshot holds the disks',
    };
  return { ok: true, kind: subject.running ? 'memory' : 'disk' };
}

/**
 * Whether libvirt really deletes an internal snapshot of `subject` now: not while a UEFI guest runs (libvirt 9.0 with
 * QEMU 7.2 drops its record, yet the snapshot stays in the qcow2 disks: docs/FACTS.md "Snapshots: a running UEFI
 * guest's snapshot delete leaves the data in the qcow2"). A shut-off domain's (qemu-img) and a running BIOS guest's
 * deletes reach the disks.
 */
export function snapshotDeletion(
  subject: Pick<SnapshotSubject, 'running' | 'firmware'>,
): { ok: true } | { ok: false; problem: string; fix: string } {
  if (subject.running && subject.firmware === 'efi')
    return {
      ok: false,
      problem:
        'libvirt 9.0 does not delete an internal snapshot of a running UEFI guest from its disks (it drops its own record and the snapshot stays in the qcow2)',
      fix: 'delete it while the guest is shut off (running = false on the domain)',
    };
  return { ok: true };
}
