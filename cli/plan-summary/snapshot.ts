/**
 * Whether a planned domain change takes a snapshot first (issue 21): the one place the plan summary asks.
 *
 * STREAMS.md agreement 2: `virtseed_domain.snapshot_before` (`none` | `disruptive` | `always`), and one pure function,
 * src/snapshot `plannedSnapshot`, decides from the plan whether a snapshot is taken; the provider's plan warning and
 * this summary both call it, this summary with the inputs `snapshotInputs` reads from the plan's JSON.
 */
import { DOMAIN_FIELDS } from '../../src/fields';
import { plannedSnapshot } from '../../src/snapshot';
import type { ImpactVerdict } from './impact';
import type { JsonValue } from './plan-json';

/** What the summary says about a snapshot before the change. */
export interface SnapshotVerdict {
  /** true: a snapshot is taken before the change; false: none is; null: not known from this plan. */
  readonly taken: boolean | null;
  /** The domain's `snapshot_before`, when the planned state has it. */
  readonly policy?: string;
  /** Why `taken` is null, or why a snapshot is (not) taken. */
  readonly note?: string;
  /** When taken: `disk` (while the guest is shut off) or `memory` (of the running guest). */
  readonly kind?: 'disk' | 'memory';
}

/** The planned domain change the decision reads. */
export interface SnapshotInput {
  readonly type: string;
  readonly action: string;
  readonly before: JsonValue | undefined;
  readonly after: JsonValue | undefined;
  readonly impact: ImpactVerdict;
}

function attribute(value: JsonValue | undefined, name: string): JsonValue | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value[name] : undefined;
}

/** What snap's decision function reads, from the plan: the policy, Terraform's action, this plan's impact on the
 *  guest, whether the guest runs before the apply, its firmware, and whether it has a virtiofs share. */
export function snapshotInputs(input: SnapshotInput): {
  policy: string | null;
  action: string;
  impact: string;
  runningBefore: boolean | null;
  firmware: string | null;
  virtiofs: boolean;
} {
  const running = attribute(input.before, 'running');
  const firmware = attribute(input.after, 'firmware') ?? attribute(input.before, 'firmware');
  const policy = attribute(input.after, 'snapshot_before');
  const filesystems = attribute(input.before, 'filesystem');
  return {
    policy: typeof policy === 'string' ? policy : null,
    action: input.action,
    impact: input.impact,
    runningBefore: typeof running === 'boolean' ? running : null,
    firmware: typeof firmware === 'string' ? firmware : null,
    // The running guest's shares, a driver left out being the domain table's default.
    virtiofs:
      Array.isArray(filesystems) &&
      filesystems.some((f) => (attribute(f, 'driver') ?? DOMAIN_FIELDS.fields.filesystem.fields.driver.default) === 'virtiofs'),
  };
}

/** The decision (see the module comment); not known for other resources or plans without `snapshot_before`. */
export function snapshotVerdict(input: SnapshotInput): SnapshotVerdict {
  if (input.type !== 'virtseed_domain' || attribute(input.after, 'snapshot_before') === undefined) {
    return { taken: null, note: 'the planned state has no snapshot_before' };
  }
  const inputs = snapshotInputs(input);
  if (inputs.policy === null) return { taken: null, note: 'snapshot_before is not known until apply' };
  const plan = plannedSnapshot(inputs);
  return { taken: plan.taken, policy: inputs.policy, note: plan.reason, ...(plan.kind ? { kind: plan.kind } : {}) };
}
