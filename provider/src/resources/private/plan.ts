/**
 * Pure plan decisions every resource makes the same way (terraform-plugin-framework's `RequiresReplace` and
 * `UseStateForUnknown` plan modifiers): which attributes force a replacement, and which computed attributes keep
 * the prior value (an update in place) or become unknown (a create or a replacement).
 */
import type { Path } from '../../plugin/handler';
import { deepEqual, isWhollyKnown, UNKNOWN } from './values';

/** How an attribute whose planned value is still unknown counts. */
export type WhenUnknown = 'replace' | 'wait';

/**
 * The paths of `attrs` whose planned value differs from the prior value. An unknown planned value forces the
 * replacement with `'replace'`, and waits until it is known (the plan at apply time) with `'wait'`.
 */
export function replacePaths<S>(prior: S, planned: S, attrs: readonly (keyof S & string)[], whenUnknown: WhenUnknown): Path[] {
  return attrs.filter((a) => (whenUnknown === 'replace' || isWhollyKnown(planned[a])) && !deepEqual(prior[a], planned[a])).map((a) => [a]);
}

/**
 * `planned` with the computed attributes `attrs` settled: the prior values when the object is updated in place
 * (`prior` given and not `replacing`), else unknown ("known after apply").
 */
export function settleComputed<S>(planned: S, prior: S | null, replacing: boolean, attrs: readonly (keyof S)[]): S {
  const out = { ...planned };
  for (const a of attrs) out[a] = prior && !replacing ? prior[a] : (UNKNOWN as S[keyof S]);
  return out;
}
