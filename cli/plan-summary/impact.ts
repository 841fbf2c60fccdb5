/**
 * Change impacts (pure): what a planned change does to a running guest, their order, and where the summary reads
 * them: the planned state's `change_impact`/`change_impacts` on `virtseed_domain` (docs/CONTRACTS.md: computed at
 * plan by the provider), a domain's `reprovision_action`, or the `impact` an attribute declares in its field table
 * (src/fields).
 */
import { isBlock, type AttributeField, type Field, type FieldTable } from '../../src/fields';
import type { ValuePath } from './values';

/**
 * What a change does to a running guest, least to most disruptive: `none`; `next-boot` (takes effect when the
 * guest next starts); `live` (applied to the running guest, no restart); `restart` (clean shutdown and start);
 * `replace` (the object is destroyed and created again); `delete` (destroyed).
 */
export const IMPACTS = ['none', 'next-boot', 'live', 'restart', 'replace', 'delete'] as const;
export type Impact = (typeof IMPACTS)[number];

/** An impact, or `unknown` when nothing declares it (an update whose impact is not declared: at most a restart,
 *  since a replacement shows in the plan's actions). */
export type ImpactVerdict = Impact | 'unknown';

/** Where a resource's impact was read. */
export type ImpactSource = 'plan' | 'field-table' | 'action';

export function isImpact(s: unknown): s is Impact {
  return typeof s === 'string' && (IMPACTS as readonly string[]).includes(s);
}

/** The position of an impact in {@link IMPACTS}; `unknown` ranks as `restart` (what it may be at most). */
export function rank(v: ImpactVerdict): number {
  return IMPACTS.indexOf(v === 'unknown' ? 'restart' : v);
}

/**
 * The most disruptive of `verdicts` (`none` when empty). A known impact at or above `restart` wins over `unknown`;
 * below it, `unknown` wins (the change may still restart the guest).
 */
export function mostDisruptive(verdicts: readonly ImpactVerdict[]): ImpactVerdict {
  let known: Impact = 'none';
  let unknown = false;
  for (const v of verdicts) {
    if (v === 'unknown') unknown = true;
    else if (IMPACTS.indexOf(v) > IMPACTS.indexOf(known)) known = v;
  }
  return unknown && IMPACTS.indexOf(known) < IMPACTS.indexOf('restart') ? 'unknown' : known;
}

/** Whether `v` reaches `threshold` (`--fail-on`): `unknown` counts as `restart`. */
export function reaches(v: ImpactVerdict, threshold: Impact): boolean {
  return rank(v) >= IMPACTS.indexOf(threshold);
}

/** An impact with the reason the provider gave (`change_impacts` values are `restart: above max_vcpu 2`). */
export interface ReasonedImpact {
  readonly impact: ImpactVerdict;
  readonly reason?: string;
}

/**
 * Reads one `change_impacts` value: an impact, optionally followed by `: <reason>` (docs/CONTRACTS.md). A value
 * whose impact word is not one of {@link IMPACTS} is `unknown`, with the whole value as the reason.
 */
export function parseImpactValue(value: string): ReasonedImpact {
  const m = /^\s*([a-z-]+)\s*(?::\s*(.*))?$/s.exec(value);
  if (m && isImpact(m[1])) return m[2] ? { impact: m[1], reason: m[2].trim() } : { impact: m[1] };
  return { impact: 'unknown', reason: value };
}

/** The impact of a re-provision decision (`reprovision_action`): `reboot` restarts the guest, `recreate` replaces
 *  the domain, `next-boot` waits for the next boot. */
export function reprovisionImpact(action: string): ImpactVerdict {
  switch (action) {
    case 'none':
      return 'none';
    case 'reboot':
      return 'restart';
    case 'recreate':
      return 'replace';
    case 'next-boot':
      return 'next-boot';
    default:
      return 'unknown';
  }
}

/**
 * The field a value path leads to in a resource's table: through nested blocks (list indices skipped) to an
 * attribute; segments after an attribute (map keys, list indices) stay inside it. Undefined when a name is not in
 * the table.
 */
export function fieldAt(table: FieldTable, path: ValuePath): Field | undefined {
  let fields: FieldTable = table;
  let found: Field | undefined;
  for (const seg of path) {
    if (typeof seg === 'number') continue;
    const f = fields[seg];
    if (!f) return undefined;
    found = f;
    if (!isBlock(f)) return f;
    fields = f.fields;
  }
  return found;
}

/** A field that only the provider sets (its changes follow from others). */
export function isComputedOnly(f: Field): boolean {
  if (isBlock(f)) return false;
  const a: AttributeField = f;
  return !!a.computed && !a.optional && !a.required;
}

function impactWords(value: unknown, out: Impact[]): void {
  if (isImpact(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) impactWords(v, out);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) impactWords(v, out);
}

/**
 * The impact a field declares in its table (issue 20, STREAMS.md agreement 1): the key `impact`, a word of
 * {@link IMPACTS}, or a conditional form (an object whose values hold such words, e.g. live within `max_memory`,
 * else restart), read here as its most disruptive outcome, with `conditional` set. `replace: true` declares a
 * replacement. Undefined when the table declares nothing.
 */
export function declaredImpact(field: Field): { impact: Impact; conditional: boolean } | undefined {
  const declared = field as Field & { readonly impact?: unknown; readonly replace?: unknown };
  if (declared.replace === true) return { impact: 'replace', conditional: false };
  if (isImpact(declared.impact)) return { impact: declared.impact, conditional: false };
  const words: Impact[] = [];
  impactWords(declared.impact, words);
  if (words.length === 0) return undefined;
  const worst = mostDisruptive(words) as Impact;
  return { impact: worst, conditional: true };
}
