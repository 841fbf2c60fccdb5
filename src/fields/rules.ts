/**
 * The rules a field table's conditions name (./model.ts `Condition`), each implemented here and nowhere else: how it
 * is evaluated against planned values, how the docs word it, and how a plan explains its outcome.
 *
 * Values that are not known yet (the provider's unknown marker, or anything that is not a plain value) make a
 * condition undecided (`undefined`); callers choose the cautious outcome.
 */
import type { Condition, Scalar } from './model';

/** The values a condition reads: the object's (or block element's) planned attributes, and the field's new value. */
export interface ConditionScope {
  /** The planned attributes of the object or block element the field belongs to, by Terraform name. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The field's new (planned) value. */
  readonly value: unknown;
  /** The prior attributes of the same object or element, when it exists already. */
  readonly prior?: Readonly<Record<string, unknown>>;
}

/** The limit `at-most` compares with: the planned value of `attribute`, or the prior one when that is smaller
 *  (a limit raised in the same plan is not there yet on the running guest). */
function limitOf(c: Condition, scope: ConditionScope): unknown {
  const planned = scope.values[c.attribute];
  const prior = scope.prior?.[c.attribute];
  return typeof planned === 'number' && typeof prior === 'number' ? Math.min(planned, prior) : planned;
}

function isScalar(v: unknown): v is Scalar {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** True when `c` holds for `scope`, false when not, undefined while a value it reads is unknown. */
export function holds(c: Condition, scope: ConditionScope): boolean | undefined {
  const other = scope.values[c.attribute];
  switch (c.rule) {
    case 'equals':
      if (other === null) return false;
      return isScalar(other) ? other === c.value : undefined;
    case 'at-most': {
      const v = scope.value;
      const limit = limitOf(c, scope);
      if (v === null || limit === null) return false;
      return typeof v === 'number' && typeof limit === 'number' ? v <= limit : undefined;
    }
  }
}

/** How the docs word `c` after an impact or a default, e.g. ``up to `max_memory` `` or ``with `user = true` ``. */
export function describeCondition(c: Condition): string {
  switch (c.rule) {
    case 'equals':
      return `with \`${c.attribute} = ${JSON.stringify(c.value)}\``;
    case 'at-most':
      return `up to \`${c.attribute}\``;
  }
}

/**
 * Why a plan took the branch it took, for the plan's warning and `change_impacts`: e.g. `above max_vcpu 2`,
 * `within max_memory 4096`, `reprovision = "recreate"`. `held` is the outcome of `holds`.
 */
export function conditionReason(c: Condition, scope: ConditionScope, held: boolean | undefined): string {
  const other = scope.values[c.attribute];
  const limit = c.rule === 'at-most' ? limitOf(c, scope) : other;
  const shown = isScalar(limit) ? String(limit) : 'unknown';
  switch (c.rule) {
    case 'equals':
      return held === undefined ? `${c.attribute} not known yet` : `${c.attribute} = ${isScalar(other) ? JSON.stringify(other) : 'null'}`;
    case 'at-most':
      return held === undefined ? `${c.attribute} not known yet` : `${held ? 'within' : 'above'} ${c.attribute} ${shown}`;
  }
}
