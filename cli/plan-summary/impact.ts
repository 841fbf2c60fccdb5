/**
 * Change impacts as the summary ranks and reads them (pure): the field tables' impacts (src/fields `Impact`, whose
 * rules src/fields/changes.ts evaluates) plus `delete` for an object destroyed, the planned state's `change_impacts`
 * values, and a domain's `reprovision_action`.
 */
import {
  IMPACTS as FIELD_IMPACTS,
  isBlock,
  isOneOf,
  type AttributeField,
  type Field,
  type FieldTable,
  type Impact,
} from '../../src/fields';
import type { ValuePath } from './values';

/** What a change does to a running guest, least to most disruptive: the field tables' impacts, then `delete` (the
 *  object is destroyed). */
export type Level = Impact | 'delete';
const LEVELS: readonly Level[] = [...FIELD_IMPACTS, 'delete'];

/** A level, or `unknown` when the plan does not know it yet (e.g. `change_impact` known only after apply). */
export type ImpactVerdict = Level | 'unknown';

/** Where a resource's impact was read: the planned state (`change_impact`), the field tables, or the action. */
export type ImpactSource = 'plan' | 'field-table' | 'action';

function isLevel(s: unknown): s is Level {
  return isOneOf(LEVELS, s);
}

/** The position of a verdict in {@link LEVELS}; `unknown` ranks as `restart` (the worst an update can be without a
 *  replacement, which the plan's actions would show). */
function rank(v: ImpactVerdict): number {
  return LEVELS.indexOf(v === 'unknown' ? 'restart' : v);
}

/**
 * The most disruptive of `verdicts` (`none` when empty). A known level at or above `restart` wins over `unknown`;
 * below it, `unknown` wins (the change may still restart the guest).
 */
export function mostDisruptive(verdicts: readonly ImpactVerdict[]): ImpactVerdict {
  let known: Level = 'none';
  let unknown = false;
  for (const v of verdicts) {
    if (v === 'unknown') unknown = true;
    else if (LEVELS.indexOf(v) > LEVELS.indexOf(known)) known = v;
  }
  return unknown && LEVELS.indexOf(known) < LEVELS.indexOf('restart') ? 'unknown' : known;
}

/** Whether `v` reaches `threshold` (`--fail-on`): `unknown` counts as `restart`. */
export function reaches(v: ImpactVerdict, threshold: Level): boolean {
  return rank(v) >= LEVELS.indexOf(threshold);
}

/** A verdict with the reason the provider or the table gave (e.g. `above max_vcpu 2`). */
export interface ReasonedImpact {
  readonly impact: ImpactVerdict;
  readonly reason?: string;
}

/**
 * Reads one `change_impacts` value (docs/CONTRACTS.md): an impact, optionally followed by `: <reason>`. A value
 * whose first word is not an impact is `unknown`, with the whole value as the reason.
 */
export function parseImpactValue(value: string): ReasonedImpact {
  const m = /^\s*([a-z-]+)\s*(?::\s*(.*))?$/s.exec(value);
  if (m && isLevel(m[1])) return m[2] ? { impact: m[1], reason: m[2].trim() } : { impact: m[1] };
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

/** A field only the provider sets: its changes follow from others and carry no impact of their own. */
export function isComputedOnly(f: Field): boolean {
  if (isBlock(f)) return false;
  const a: AttributeField = f;
  return !!a.computed && !a.optional && !a.required;
}
