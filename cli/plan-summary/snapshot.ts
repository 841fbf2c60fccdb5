/**
 * Whether a planned domain change takes a snapshot first (issue 21, stream snap): the HOOK where the plan summary
 * asks.
 *
 * STREAMS.md agreement 2: snap adds `snapshot_before` (`none` | `disruptive` | `always`) to `virtseed_domain`, and
 * one pure function, exported by snap, decides from the plan whether a snapshot is taken; the provider's plan
 * warning and this summary both call it. Until that function is on main, `snapshotVerdict` only reports whether
 * the planned state carries `snapshot_before` at all and never guesses the rule. When it lands: call snap's
 * function in `snapshotVerdict` (and nowhere else in the summary).
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
  readonly after: JsonValue | undefined;
  readonly impact: ImpactVerdict;
}

/** The hook (see the module comment). */
export function snapshotVerdict(input: SnapshotInput): SnapshotVerdict {
  const after = input.after;
  const policy = typeof after === 'object' && after !== null && !Array.isArray(after) ? after.snapshot_before : undefined;
  if (input.type !== 'virtseed_domain' || policy === undefined) {
    return { taken: null, note: 'the planned state has no snapshot_before' };
  }
  if (typeof policy !== 'string') return { taken: null, note: 'snapshot_before is not known until apply' };
  return { taken: null, policy, note: "the snapshot rule (stream snap's decision function) is not in this build" };
}
