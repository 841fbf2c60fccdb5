/**
 * Small builders for the per-version JSON Schemas (draft-07, as ajv's default). The schemas are written for this
 * project from the facts of coreos/ignition `config/v3_N/schema/ignition.json` (which are draft-04): the same
 * properties, types and required keys, with two differences of form: every object is closed
 * (`additionalProperties: false`, which `validateIgnition` reports as a warning, as Ignition does), and shared
 * `allOf` node definitions are flattened into files, directories and links.
 */

/** A JSON Schema node. */
export type Schema = { [key: string]: unknown };

export const str: Schema = { type: 'string' };
export const nullableStr: Schema = { type: ['string', 'null'] };
export const int: Schema = { type: 'integer' };
export const nullableInt: Schema = { type: ['integer', 'null'] };
export const nullableBool: Schema = { type: ['boolean', 'null'] };

/** An array of `items`. */
export function list(items: Schema): Schema {
  return { type: 'array', items };
}

export const strList: Schema = list(str);

/** A closed object with `properties` (in canonical output order) and `required` keys. */
export function obj(properties: Record<string, Schema>, required: string[] = []): Schema {
  const s: Schema = { type: 'object', properties, additionalProperties: false };
  if (required.length) s.required = required;
  return s;
}

/** `base` (an `obj`) with properties added or replaced, keys appended in order; `required` replaces when given. */
export function extend(base: Schema, properties: Record<string, Schema>, required?: string[]): Schema {
  const props = { ...(base.properties as Record<string, Schema>), ...properties };
  return obj(props, required ?? (base.required as string[] | undefined) ?? []);
}

/** The property schema `key` of an `obj` schema (throws when absent: a programming error). */
export function prop(schema: Schema, key: string): Schema {
  const p = (schema.properties as Record<string, Schema> | undefined)?.[key];
  if (!p) throw new Error(`schema has no property ${key}`);
  return p;
}

/** The item schema of a `list` schema. */
export function items(schema: Schema): Schema {
  return schema.items as Schema;
}
