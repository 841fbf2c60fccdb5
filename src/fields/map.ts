/**
 * Converts values between the spellings a field table names (./model.ts): Terraform attributes (`terraform`),
 * the CDKTF bindings' config keys (`config`, the camelCase of the Terraform name), the shared model (`spec`) and
 * the construct props (`prop`).
 */
import { isBlock, type AttributeField, type Field, type FieldTable } from './model';

export type Spelling = 'terraform' | 'config' | 'spec' | 'prop';

/** `user_data_base64` → `userDataBase64`. */
export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A field's name in `spelling`, or null when the field has none there. */
export function nameIn(name: string, field: Field, spelling: Spelling): string | null {
  if (spelling === 'terraform') return name;
  if (spelling === 'config') return camelCase(name);
  const spec = field.spec === undefined ? name : field.spec;
  if (spelling === 'spec' || spec === null) return spec;
  return field.prop ?? camelCase(spec);
}

/** Replaces an attribute's converted value (e.g. parses a JSON string); `name` is its Terraform name. */
export type LeafHook = (field: AttributeField, value: unknown, name: string) => unknown;

/**
 * `value` (an object in spelling `from`) in spelling `to`: keys renamed through the table, blocks converted
 * recursively, fields without a name in either spelling and null/undefined values left out. From Terraform, an
 * empty list block is left out too (Terraform has no absent block list: `[]` stands for "none").
 */
export function convertFields(table: FieldTable, value: object, from: Spelling, to: Spelling, leaf?: LeafHook): Record<string, unknown> {
  const input = new Map(Object.entries(value));
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(table)) {
    const source = nameIn(name, field, from);
    const target = nameIn(name, field, to);
    if (source === null || target === null) continue;
    const v = input.get(source);
    if (v === null || v === undefined) continue;
    if (!isBlock(field)) {
      const converted = leaf ? leaf(field, v, name) : v;
      if (converted !== undefined) out[target] = converted;
    } else if (field.nesting === 'single') {
      if (typeof v === 'object') out[target] = convertFields(field.fields, v, from, to, leaf);
    } else if (Array.isArray(v) && (v.length > 0 || from !== 'terraform')) {
      out[target] = v.map((e: object) => convertFields(field.fields, e, from, to, leaf));
    }
  }
  return out;
}

/** Names that differ between two spellings, `from` → `to`, over the whole table (blocks included). */
export function renames(table: FieldTable, from: Spelling, to: Spelling): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, field] of Object.entries(table)) {
    const a = nameIn(name, field, from);
    const b = nameIn(name, field, to);
    if (a !== null && b !== null && a !== b) out[a] = b;
    if (isBlock(field)) Object.assign(out, renames(field.fields, from, to));
  }
  return out;
}
