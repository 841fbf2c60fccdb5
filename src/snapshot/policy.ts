/**
 * Whether a planned apply of a `virtseed_domain` takes a snapshot first (`snapshot_before`), and which kind: the one
 * decision the provider's apply and plan warning and `virtseed plan-summary` share (STREAMS.md agreement 2). Pure;
 * its inputs are in the domain's planned state (and so in `terraform show -json PLAN`).
 *
 * - `none`: never.
 * - `disruptive`: when the apply restarts or re-provisions the guest (`change_impact` `restart`: a definition
 *   change, a re-provision by reboot, disks replaced in place). The snapshot is taken while the guest is shut down
 *   for the restart (or, shut off already, before it changes): a snapshot of its disks, which libvirt 9.0 takes
 *   for BIOS and UEFI guests alike.
 * - `always`: before every apply that changes the guest (any impact but `none`): of the disks when the guest is shut
 *   off then (restart, or a stopped guest), else of its memory too (a running BIOS guest; a running UEFI guest, or
 *   one with a virtiofs share, cannot be snapshotted without a shutdown, so none is taken and the plan says so).
 * - Never when the domain is created, destroyed or replaced (`replace`): the snapshot lives in the domain's disks,
 *   which a replacement does not keep.
 */
import { DOMAIN_FIELDS, valuesOf, type ValuesOf } from '../fields';
import type { SnapshotKind } from './kinds';

/** `virtseed_domain.snapshot_before`. */
export type SnapshotBefore = ValuesOf<(typeof DOMAIN_FIELDS)['fields']['snapshot_before']>;
export const SNAPSHOT_BEFORE_VALUES: readonly SnapshotBefore[] = valuesOf(DOMAIN_FIELDS.fields.snapshot_before);

/** What the plan knows about the domain's change. */
export interface SnapshotPlanInput {
  /** The planned `snapshot_before` (null/undefined: `none`; another value: not taken). */
  readonly policy: string | null | undefined;
  /** Terraform's action on the domain: `create`, `update`, `replace`, `delete`, or one that changes nothing
   *  (`no-op`, `read`, `forget`). */
  readonly action: string;
  /**
   * The most disruptive impact of this plan on the guest (`change_impact`: `none`, `next-boot`, `live`, `restart`,
   * `replace`); `unknown` when it could not be told.
   */
  readonly impact: string;
  /** Whether the guest runs before the apply (the prior `running`; null: unknown). */
  readonly runningBefore: boolean | null;
  /** The domain's firmware (`bios` or `efi`). */
  readonly firmware: string | null | undefined;
  /** Whether the running guest shares a host directory by virtiofs (the prior `filesystem` blocks; absent: no). */
  readonly virtiofs?: boolean | null;
}

/** The decision and, for the plan's warning or summary, why. */
export interface SnapshotPlan {
  readonly taken: boolean;
  /** When taken: `disk` (while the guest is shut off) or `memory` (of the running guest). */
  readonly kind?: SnapshotKind;
  /** One sentence, e.g. `the apply restarts the guest: its disks are snapshotted while it is shut down`. */
  readonly reason: string;
}

/**
 * The decision for one planned domain change (see the module comment). `impact` `unknown` counts as `restart`: a
 * snapshot is taken when it may be needed, never skipped because the plan could not tell.
 */
export function plannedSnapshot(input: SnapshotPlanInput): SnapshotPlan {
  const policy = input.policy ?? 'none';
  if (policy === 'none') return { taken: false, reason: 'snapshot_before is none' };
  if (policy !== 'disruptive' && policy !== 'always')
    return { taken: false, reason: `snapshot_before "${policy}" is not one of none, disruptive, always` };
  if (input.action === 'create') return { taken: false, reason: 'the domain is created: there is nothing to snapshot yet' };
  if (input.action === 'delete') return { taken: false, reason: 'the domain is destroyed, with its snapshots' };
  if (input.action === 'replace' || input.impact === 'replace')
    return { taken: false, reason: 'the domain is replaced: a snapshot lives in its disks, which a replacement does not keep' };
  if (input.action !== 'update' || input.impact === 'none') return { taken: false, reason: 'the apply does not change the guest' };
  const restarts = input.impact === 'restart' || input.impact === 'unknown';
  if (restarts)
    return {
      taken: true,
      kind: 'disk',
      reason:
        input.runningBefore === false
          ? 'the apply changes what the shut-off guest boots: its disks are snapshotted first'
          : 'the apply restarts the guest: its disks are snapshotted while it is shut down',
    };
  if (policy === 'disruptive') return { taken: false, reason: `the apply does not restart the guest (${input.impact})` };
  if (input.runningBefore === false) return { taken: true, kind: 'disk', reason: 'the guest is shut off: its disks are snapshotted' };
  if (input.firmware === 'efi')
    return {
      taken: false,
      reason: 'a running UEFI guest cannot be snapshotted without shutting it down (libvirt 9.0), and this apply does not shut it down',
    };
  if (input.virtiofs)
    return {
      taken: false,
      reason:
        'QEMU cannot save the memory of a guest with a virtiofs share, and this apply does not shut it down (a snapshot of its disks needs it shut off)',
    };
  return { taken: true, kind: 'memory', reason: "the guest keeps running: its memory and disks are snapshotted (a BIOS guest's)" };
}
