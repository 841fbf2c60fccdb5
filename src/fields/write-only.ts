/**
 * The rules of write-only attributes (./model.ts `AttributeField.writeOnly`, `twinOf`) over a field table, for
 * every resource that has them: which attributes are write-only, the value a handler reads (each twin's value as
 * the attribute it stands in for), the twins set together with their attribute, and the value with every
 * write-only attribute null (what plans and state hold). Pure; values are Terraform-spelled objects whose blocks
 * are arrays (`list`) or objects/null (`single`). docs/write-only.md.
 */
import { isBlock, type AttributeField, type FieldTable, type FieldType } from './model';

type Values = Record<string, unknown>;

/**
 * The write-only twin (`<of>_wo`) of attribute `of`: of type `type`, optional, write-only, standing in for `of`;
 * described as "`of` as a write-only value" unless `extra` says otherwise. `extra` adds the table's other rules
 * (impact, spec spelling).
 */
export function writeOnlyTwin(of: string, type: FieldType, extra: Partial<AttributeField> = {}): AttributeField {
  return { type, optional: true, writeOnly: true, twinOf: of, description: `\`${of}\` as a write-only value.`, ...extra };
}
/** An attribute path: names and list indexes. */
export type FieldPath = (string | number)[];

function isValues(v: unknown): v is Values {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mapBlocks(table: FieldTable, value: Values, leaf: (t: FieldTable, v: Values) => Values): Values {
  const out = leaf(table, value);
  for (const [name, f] of Object.entries(table)) {
    if (!isBlock(f)) continue;
    const inner = out[name];
    if (Array.isArray(inner)) out[name] = inner.map((e) => (isValues(e) ? mapBlocks(f.fields, e, leaf) : e));
    else if (isValues(inner)) out[name] = mapBlocks(f.fields, inner, leaf);
  }
  return out;
}

/** True when the table (blocks included) has a write-only attribute. */
export function hasWriteOnly(table: FieldTable): boolean {
  return Object.values(table).some((f) => (isBlock(f) ? hasWriteOnly(f.fields) : f.writeOnly === true));
}

/**
 * `value` with every twin's non-null value moved onto the attribute it stands in for (`twinOf`) and the twin set
 * to null, in blocks too: what the handler builds from. A twin that is null leaves its attribute as it is.
 * Unknown values move like known ones.
 */
export function mergeTwins<V extends object>(table: FieldTable, value: V): V {
  return mapBlocks(table, { ...value } as Values, (t, v) => {
    const out = { ...v };
    for (const [name, f] of Object.entries(t)) {
      if (isBlock(f) || !f.twinOf) continue;
      const carried = out[name];
      if (carried === null || carried === undefined) continue;
      out[f.twinOf] = carried;
      out[name] = null;
    }
    return out;
  }) as V;
}

/** `value` with every write-only attribute null (blocks included): what a plan and the state may hold. */
export function withoutWriteOnly<V extends object>(table: FieldTable, value: V): V {
  return mapBlocks(table, { ...value } as Values, (t, v) => {
    const out = { ...v };
    for (const [name, f] of Object.entries(t)) if (!isBlock(f) && f.writeOnly && name in out) out[name] = null;
    return out;
  }) as V;
}

function walk(table: FieldTable, value: Values, at: FieldPath, visit: (t: FieldTable, v: Values, at: FieldPath) => void): void {
  visit(table, value, at);
  for (const [name, f] of Object.entries(table)) {
    if (!isBlock(f)) continue;
    const inner = value[name];
    if (Array.isArray(inner)) inner.forEach((e, i) => isValues(e) && walk(f.fields, e, [...at, name, i], visit));
    else if (isValues(inner)) walk(f.fields, inner, [...at, name], visit);
  }
}

/** True when `value` sets any write-only attribute (to a known or unknown value). */
export function setsWriteOnly(table: FieldTable, value: object): boolean {
  let found = false;
  walk(table, value as Values, [], (t, v) => {
    for (const [name, f] of Object.entries(t)) if (!isBlock(f) && f.writeOnly && v[name] !== null && v[name] !== undefined) found = true;
  });
  return found;
}

/** A twin set together with the attribute it stands in for: the twin's path and that attribute's name. */
export interface TwinConflict {
  readonly path: FieldPath;
  readonly twin: string;
  readonly of: string;
}

/** Every twin that `value` sets together with its attribute (the two are exclusive). */
export function twinConflicts(table: FieldTable, value: object): TwinConflict[] {
  const out: TwinConflict[] = [];
  walk(table, value as Values, [], (t, v, at) => {
    for (const [name, f] of Object.entries(t)) {
      if (isBlock(f) || !f.twinOf) continue;
      const set = (x: unknown) => x !== null && x !== undefined;
      if (set(v[name]) && set(v[f.twinOf])) out.push({ path: [...at, name], twin: name, of: f.twinOf });
    }
  });
  return out;
}

/** Checks a table's write-only attributes (a programming error, not user input): optional, not computed, not
 *  given a default, and a twin names an attribute of its own table of the same type. Throws `Error` naming it. */
export function assertWriteOnlyRules(table: FieldTable, where = ''): void {
  for (const [name, f] of Object.entries(table)) {
    if (isBlock(f)) {
      assertWriteOnlyRules(f.fields, `${where}${name}.`);
      continue;
    }
    if (f.twinOf !== undefined && !f.writeOnly) throw new Error(`field ${where}${name}: twinOf without writeOnly`);
    if (!f.writeOnly) continue;
    if (!f.optional || f.computed || f.required || f.default !== undefined)
      throw new Error(`field ${where}${name}: a write-only attribute is optional, not computed, without a default`);
    if (f.twinOf !== undefined) {
      const of = table[f.twinOf];
      if (!of || isBlock(of) || of.type !== f.type)
        throw new Error(`field ${where}${name}: twinOf ${f.twinOf} is no attribute of its type`);
    }
  }
}
