/**
 * Plan-time checks against the host ("plan says what apply would find"): they run only when the provider can
 * reach libvirtd, and never create or change anything.
 *
 * Terraform plans a replacement in two PlanResourceChange calls to the same provider process: first with the prior
 * state (the provider answers requires_replace), then the create half with no prior state. The object being
 * replaced still exists during the second call, so a "name already taken" check must not count it: the first call
 * records the name here and the second skips it.
 */
import type { Connection } from '../../host';
import type { HandlerContext } from '../../plugin/handler';

const replacing = new Set<string>();

/** Records that `kind` object `name` is being replaced in this plan. */
export function noteReplacement(kind: string, name: string): void {
  replacing.add(`${kind}\u0000${name}`);
}

/** True when `kind` object `name` was planned for replacement by this provider process. */
export function isBeingReplaced(kind: string, name: string): boolean {
  return replacing.has(`${kind}\u0000${name}`);
}

/** The libvirt client when the host can be reached now, else null (plan-time checks are then skipped). */
export async function reachableClient<C extends Connection>(ctx: HandlerContext<C>): Promise<C | null> {
  if (!ctx.uri) return null;
  try {
    return await ctx.client();
  } catch {
    return null;
  }
}
