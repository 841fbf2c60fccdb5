/**
 * Pure plan decisions every resource makes the same way (terraform-plugin-framework's `UseStateForUnknown` plan
 * modifier): which computed attributes keep the prior value (an update in place) or become unknown (a create or a
 * replacement). Which attributes force a replacement is the field table's (./fields.ts `replacePaths`).
 */
import { UNKNOWN } from './values';

/**
 * `planned` with the computed attributes `attrs` settled: the prior values when the object is updated in place
 * (`prior` given and not `replacing`), else unknown ("known after apply").
 */
export function settleComputed<S>(planned: S, prior: S | null, replacing: boolean, attrs: readonly (keyof S)[]): S {
  const out = { ...planned };
  for (const a of attrs) out[a] = prior && !replacing ? prior[a] : (UNKNOWN as S[keyof S]);
  return out;
}
