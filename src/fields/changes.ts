/**
 * What a change of a resource's values means, from its field table alone (pure): the changed attributes (block
 * elements added or removed included), each with its impact on a running guest (./model.ts `Impact`) and, where
 * a condition decided it, why. The provider plans with it (replace paths, `change_impact`, the plan's warning)
 * and applies what it planned; a plan reader can derive the same from `terraform show -json` values.
 *
 * Values are the provider's plain-JS resource values: every attribute present, null when unset; anything that is
 * not a plain value (the provider's unknown marker, a symbol) counts as not known yet.
 */
import {
  hasChangeRule,
  IMPACTS,
  replacesAlways,
  isBlock,
  type AttributeField,
  type ConditionalImpact,
  type Field,
  type FieldTable,
  type Impact,
  type ResourceFields,
} from './model';
import { conditionReason, holds, type ConditionScope } from './rules';

/** One changed attribute, or one block element added or removed. */
export interface FieldChange {
  /** Terraform attribute path: `['memory']`, `['disk', 1]` (an element added or removed), `['disk', 0, 'bus']`. */
  readonly path: readonly (string | number)[];
  /** The path as plan output writes it: `memory`, `disk[1]`, `disk[0].bus`. */
  readonly name: string;
  /** The prior value (null for an element added). */
  readonly from: unknown;
  /** The planned value (null for an element removed). */
  readonly to: unknown;
  readonly impact: Impact;
  /** Why a condition chose `impact`, e.g. `above max_vcpu 2`; absent when the table's rule is unconditional. */
  readonly reason?: string;
  /** True when Terraform must plan a replacement for it now (a replace whose new value is known, or that
   *  replaces even while unknown). */
  readonly forcesReplace: boolean;
}

/** True for a value that is not known yet (the provider's unknown marker), anywhere inside. */
function isUnknownValue(v: unknown): boolean {
  if (typeof v === 'symbol') return true;
  if (Array.isArray(v)) return v.some(isUnknownValue);
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.values(v).some(isUnknownValue);
  return false;
}

function sameValue(a: unknown, b: unknown, caseInsensitive: boolean): boolean {
  if (caseInsensitive && typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i], false));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ea = Object.entries(a).filter(([, v]) => v !== undefined);
    const mb = new Map(Object.entries(b).filter(([, v]) => v !== undefined));
    return ea.length === mb.size && ea.every(([k, v]) => mb.has(k) && sameValue(v, mb.get(k), false));
  }
  return false;
}

function pathName(path: readonly (string | number)[]): string {
  return path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${p}` : p), '');
}

/** The impact a field's rules give for `scope`, and the reason when a condition decided it. */
export function verdictOf(field: Field, scope: ConditionScope): { impact: Impact; reason?: string } {
  const { replace } = field;
  if (replacesAlways(replace)) return { impact: 'replace' };
  if (typeof replace === 'object' && replace.if) {
    const h = holds(replace.if, scope);
    if (h !== false) return { impact: 'replace', reason: conditionReason(replace.if, scope, h) };
  }
  return evaluate(field.impact ?? 'none', scope);
}

function evaluate(rule: Impact | ConditionalImpact, scope: ConditionScope): { impact: Impact; reason?: string } {
  if (typeof rule === 'string') return { impact: rule };
  const h = holds(rule.if, scope);
  // Undecided (a value not known yet): the more disruptive branch, so a plan never understates.
  const branch = h === true ? rule.then : h === false ? rule.else : 'restart';
  const inner = evaluate(branch, scope);
  return { impact: inner.impact, reason: inner.reason ?? conditionReason(rule.if, scope, h) };
}

/** True for the attributes a configuration sets (computed-only attributes are the provider's, not changes). */
function isSettable(f: AttributeField): boolean {
  return f.required === true || f.optional === true;
}

type Values = Readonly<Record<string, unknown>>;

/** The field whose change rule a block's elements follow: the block's own, else the rule its block follows. */
function ruleOf(field: Field, block: Field | undefined): Field | undefined {
  return hasChangeRule(field) ? field : block;
}

function asValues(v: unknown): Values {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : {};
}

function collect(
  table: FieldTable,
  prior: Values,
  planned: Values,
  at: readonly (string | number)[],
  whenUnknown: ResourceFields['whenUnknown'],
  block: Field | undefined,
  out: FieldChange[],
): void {
  const push = (own: Field, path: (string | number)[], from: unknown, to: unknown, values: Values, priorValues?: Values) => {
    const field = ruleOf(own, block) ?? own;
    const v = verdictOf(field, { values, value: to, prior: priorValues });
    const unknown = isUnknownValue(to);
    const replaceWhenUnknown = (typeof field.replace === 'object' ? field.replace.whenUnknown : undefined) ?? whenUnknown;
    const forcesReplace = v.impact === 'replace' && (!unknown || replaceWhenUnknown === 'replace');
    out.push({ path, name: pathName(path), from, to, ...v, forcesReplace });
  };
  for (const [name, field] of Object.entries(table)) {
    const path = [...at, name];
    const from = prior[name] ?? null;
    const to = planned[name] ?? null;
    if (!isBlock(field)) {
      if (!isSettable(field)) continue;
      const before = from === null && field.default !== undefined && typeof field.default !== 'object' ? field.default : from;
      if (!sameValue(before, to, field.caseInsensitive === true)) push(field, path, from, to, planned, prior);
      continue;
    }
    if (sameValue(from, to, false)) continue;
    if (replacesAlways(field.replace) || typeof to === 'symbol') {
      push(field, path, from, to, asValues(to));
      continue;
    }
    if (field.nesting === 'single') {
      if (from === null || to === null) push(field, path, from, to, asValues(to ?? from));
      else collect(field.fields, asValues(from), asValues(to), path, whenUnknown, ruleOf(field, block), out);
      continue;
    }
    const before = Array.isArray(from) ? from : [];
    const after = Array.isArray(to) ? to : [];
    for (const { prior: i, planned: j } of matchElements(before, after, field.identity)) {
      if (i === null && j !== null) push(field, [...path, j], null, after[j], asValues(after[j]));
      else if (j === null && i !== null) push(field, [...path, i], before[i], null, asValues(before[i]));
      else if (i !== null && j !== null)
        collect(field.fields, asValues(before[i]), asValues(after[j]), [...path, j], whenUnknown, ruleOf(field, block), out);
    }
  }
}

/**
 * Whether two elements of a list block are the same element by `identity` (./model.ts `BlockField.identity`):
 * the first of its fields whose value is known (not null, not unknown) in both decides; undefined when none is.
 */
function sameElement(a: unknown, b: unknown, identity: readonly string[]): boolean | undefined {
  const va = asValues(a);
  const vb = asValues(b);
  for (const key of identity) {
    const x = va[key];
    const y = vb[key];
    const known = (v: unknown) => v !== null && v !== undefined && !isUnknownValue(v);
    if (known(x) && known(y)) return x === y;
  }
  return undefined;
}

/** One element of a list block's change: prior index → planned index; null for an element added or removed. */
export interface ElementPair {
  readonly prior: number | null;
  readonly planned: number | null;
}

function byPosition(priorCount: number, plannedCount: number): ElementPair[] {
  return Array.from({ length: Math.max(priorCount, plannedCount) }, (_, k) => ({
    prior: k < priorCount ? k : null,
    planned: k < plannedCount ? k : null,
  }));
}

/**
 * Which prior element each planned element of a list block is (pure). With `identity`, elements are matched in
 * order by it; an unmatched prior and planned element at the same index are one element changed; the rest are
 * removed (prior only) or added (planned only). When the matched elements changed order (an unmatched prior and
 * planned element are the same by identity), the whole list is compared by position: a new order is a change of
 * each element moved. Without `identity`, by position. The result is sorted by index (removed elements by their
 * prior index, before an element at the same planned index).
 */
export function matchElements(prior: readonly unknown[], planned: readonly unknown[], identity?: readonly string[]): ElementPair[] {
  if (!identity?.length) return byPosition(prior.length, planned.length);
  const priorOf = new Map<number, number>();
  let last = -1;
  planned.forEach((p, j) => {
    for (let i = last + 1; i < prior.length; i++) {
      if (sameElement(prior[i], p, identity) === true) {
        priorOf.set(j, i);
        last = i;
        return;
      }
    }
  });
  const matched = new Set(priorOf.values());
  const lonePrior = prior.map((_, i) => i).filter((i) => !matched.has(i));
  const lonePlanned = planned.map((_, j) => j).filter((j) => !priorOf.has(j));
  if (lonePrior.some((i) => lonePlanned.some((j) => sameElement(prior[i], planned[j], identity) === true)))
    return byPosition(prior.length, planned.length);
  for (const j of lonePlanned) if (lonePrior.includes(j)) priorOf.set(j, j);
  const paired = new Set(priorOf.values());
  const removed: ElementPair[] = prior.flatMap((_, i) => (paired.has(i) ? [] : [{ prior: i, planned: null }]));
  const kept: ElementPair[] = planned.map((_, j) => ({ prior: priorOf.get(j) ?? null, planned: j }));
  const at = (p: ElementPair) => (p.planned ?? p.prior ?? 0) + (p.planned === null ? 0 : 0.5);
  return [...removed, ...kept].sort((a, b) => at(a) - at(b));
}

/**
 * The changes from `prior` to `planned` of a resource, in table order, each with its impact. A prior attribute
 * that is null (state written before the attribute existed) counts as its constant default.
 */
export function fieldChanges(resource: ResourceFields, prior: object, planned: object): FieldChange[] {
  const out: FieldChange[] = [];
  collect(resource.fields, asValues(prior), asValues(planned), [], resource.whenUnknown, undefined, out);
  return out;
}

/** The most disruptive of `impacts` (`none` for none). */
export function mostDisruptive(impacts: Iterable<Impact>): Impact {
  let worst: Impact = 'none';
  for (const i of impacts) if (IMPACTS.indexOf(i) > IMPACTS.indexOf(worst)) worst = i;
  return worst;
}
