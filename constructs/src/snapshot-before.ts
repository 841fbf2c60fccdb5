/**
 * When a deploy takes a snapshot of a virtual machine before changing it: the `snapshot_before` of
 * `virtseed_domain`. When the deploy's `waitFor` then fails, the guest is reverted to that snapshot and started
 * again, and the deploy fails naming the cause and the snapshot (docs/snapshots.md).
 */
export enum SnapshotBefore {
  /** Never. */
  NONE = 'none',
  /**
   * Before a deploy that restarts or re-provisions the guest: a snapshot of its disks, taken while it is shut down
   * (BIOS and UEFI guests), with the cloud-init seed it booted with.
   */
  DISRUPTIVE = 'disruptive',
  /** Before every deploy that changes the guest: as DISRUPTIVE, and before other changes of a running BIOS guest a
   *  snapshot with its memory. */
  ALWAYS = 'always',
}
