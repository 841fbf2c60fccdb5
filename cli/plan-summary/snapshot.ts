/**
 * Whether a planned domain change takes a snapshot first (issue 21, stream snap): the HOOK where the plan summary
 * asks.
 *
 * STREAMS.md agreement 2: snap adds `snapshot_before` (`none` | `disruptive` | `always`) to `virtseed_domain`, and
 * one pure function, exported by snap, decides from the plan whether a snapshot is taken; the provider's plan
 * warning and this summary both call it (snap's `plannedSnapshot({ policy, action, impact, runningBefore,
 * firmware })`, on its branch). Until that function is on main, `snapshotVerdict` gathers those inputs and reports
 * only whether the planned state carries `snapshot_before`, never guessing the rule. When it lands: call snap's
 * function with `snapshotInputs(...)` in `snapshotVerdict` (and nowhere else in the summary).
 */
import type { ImpactVerdict } from './impact';
import type { JsonValue } from './plan-json';

/** What the summary says about a snapshot before the change. */
export interface SnapshotVerdict {
  /** true: a snapshot is taken before the change; false: none is; null: not known from this plan. */
  readonly taken: boolean | null;
  /** The domain's `snapshot_before`, when the planned state has it. */
  readonly policy?: string;
  /** Why `taken` is null. */
  readonly note?: string;
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
 *  guest, whether the guest runs before the apply, and its firmware. */
export function snapshotInputs(input: SnapshotInput): {
  policy: string | null;
  action: string;
  impact: string;
  runningBefore: boolean | null;
  firmware: string | null;
} {
  const running = attribute(input.before, 'running');
  const firmware = attribute(input.after, 'firmware') ?? attribute(input.before, 'firmware');
  const policy = attribute(input.after, 'snapshot_before');
  return {
    policy: typeof policy === 'string' ? policy : null,
    action: input.action,
    impact: input.impact,
    runningBefore: typeof running === 'boolean' ? running : null,
    firmware: typeof firmware === 'string' ? firmware : null,
  };
}

/** The hook (see the module comment). */
export function snapshotVerdict(input: SnapshotInput): SnapshotVerdict {
  if (input.type !== 'virtseed_domain' || attribute(input.after, 'snapshot_before') === undefined) {
    return { taken: null, note: 'the planned state has no snapshot_before' };
  }
  const { policy } = snapshotInputs(input);
  if (policy === null) return { taken: null, note: 'snapshot_before is not known until apply' };
  return { taken: null, policy, note: "the snapshot rule (stream snap's decision function) is not in this build" };
}
