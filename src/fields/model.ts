/**
 * The vocabulary of the resources' field tables (one table per resource, in this folder): each field's Terraform
 * attribute (the table key), its type and mode, its description (Markdown) and, for the seed, its spellings in the
 * other layers. The provider derives its schema and typed state from a table (provider/src/resources/private/
 * fields.ts), the constructs their property mapping (./map.ts), the reference docs come from the provider schema.
 * Plain data: it imports nothing, so the construct packages can carry it.
 */

/** An attribute's value type (cty): primitives, and lists and maps of strings. */
export type FieldType = 'string' | 'number' | 'bool' | 'list(string)' | 'map(string)';

/** Where a field also appears, when its name there is not the default. */
export interface FieldSpellings {
  /** Key in the shared model (e.g. src/seed `SeedSpec`); default: the Terraform name. `null`: not in the model
   *  (computed or placement attributes such as `id`, `pool`). */
  readonly spec?: string | null;
  /** Key in the construct props; default: the camelCase of the model key. */
  readonly prop?: string;
}

/**
 * What changing an attribute does to a running guest (STREAMS.md agreement 1; core defines the final shape, this is
 * the plain form other tables use until then): `live` (changed under the running guest), `restart` (the guest is
 * shut down and started again), `replace` (a new object), `next-boot` (seen when the guest next boots), `none` (no
 * effect on a guest).
 */
export type FieldImpact = 'live' | 'restart' | 'replace' | 'next-boot' | 'none';

/** The per-attribute rules of STREAMS.md agreement 1, as plain values until core's format lands on main. */
export interface FieldRules {
  /** The value a plan uses when the config leaves the attribute null. */
  readonly default?: string | number | boolean;
  /** The allowed strings (checked at plan; the typed state keeps `string`). */
  readonly values?: readonly string[];
  /** A change replaces the object. */
  readonly replace?: true;
  /** What a change does to a running guest. */
  readonly impact?: FieldImpact;
}

/** An attribute. Exactly one of: `required`; `optional`; `computed`; `optional` + `computed`. */
export interface AttributeField extends FieldSpellings, FieldRules {
  readonly type: FieldType;
  readonly required?: true;
  readonly optional?: true;
  readonly computed?: true;
  /** Terraform hides the value in plan output. */
  readonly sensitive?: true;
  /** The model holds a map; Terraform a JSON or YAML string of it. */
  readonly json?: true;
  /** Markdown. */
  readonly description: string;
}

/** A nested block: `list` holds 0..n blocks (an absent block is `[]`), `single` one or null. */
export interface BlockField extends FieldSpellings {
  readonly nesting: 'list' | 'single';
  /** Markdown. */
  readonly description: string;
  readonly fields: FieldTable;
}

export type Field = AttributeField | BlockField;

/** A resource's (or block's) fields by Terraform name, in schema order. */
export type FieldTable = { readonly [name: string]: Field };

/** A resource's field table with its schema version and description. */
export interface ResourceFields<F extends FieldTable = FieldTable> {
  readonly version: number;
  /** Markdown. */
  readonly description: string;
  readonly fields: F;
}

export function isBlock(f: Field): f is BlockField {
  return 'nesting' in f;
}
