/**
 * A resource's provider schema, typed state and the plan rules its field table (src/fields) states: the table is
 * the one description of the resource's attributes; the schema (descriptions included, and through it the docs
 * and the CDKTF bindings), the handler's state type, the defaults a plan fills in, the check of allowed values and
 * the attributes whose change forces a replacement all follow from it.
 */
import { error, type Diagnostic } from '../../../../src/diagnostics';
import {
  describeField,
  fieldChanges,
  holds,
  isBlock,
  isConditionalDefault,
  isDerivedDefault,
  type AttributeField,
  type BlockField,
  type FieldDefault,
  type FieldTable,
  type FieldType,
  type ResourceFields,
  type Scalar,
  assertWriteOnlyRules,
} from '../../../../src/fields';
import { t, type CtyType, type Unknown } from '../../plugin/cty';
import type { Path } from '../../handler';
import type { AttributeSchema, BlockSchema, NestedBlockSchema, ResourceSchema } from '../../plugin/schema';

const CTY: Readonly<Record<FieldType, CtyType>> = {
  string: t.string,
  number: t.number,
  bool: t.bool,
  'list(string)': t.list(t.string),
  'map(string)': t.map(t.string),
};

function attributeSchema(f: AttributeField, object: string): AttributeSchema {
  return {
    type: CTY[f.type],
    ...(f.required ? { required: true } : {}),
    ...(f.optional ? { optional: true } : {}),
    ...(f.computed ? { computed: true } : {}),
    ...(f.sensitive ? { sensitive: true } : {}),
    ...(f.writeOnly ? { writeOnly: true } : {}),
    description: describeField(f, object),
  };
}

function blockSchema(fields: FieldTable, object: string, description?: string): BlockSchema {
  const attributes: Record<string, AttributeSchema> = {};
  const blocks: Record<string, NestedBlockSchema> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (isBlock(f)) blocks[name] = { nesting: f.nesting, block: blockSchema(f.fields, object, describeField(f, object)) };
    else attributes[name] = attributeSchema(f, object);
  }
  return { attributes, ...(Object.keys(blocks).length ? { blocks } : {}), ...(description !== undefined ? { description } : {}) };
}

/** The provider schema of a resource's field table. */
export function schemaOf(resource: ResourceFields): ResourceSchema {
  assertWriteOnlyRules(resource.fields);
  return { version: resource.version, ...blockSchema(resource.fields, resource.object, resource.description) };
}

/** The JS value of a field type. */
type ValueOf<T extends FieldType> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'bool'
      ? boolean
      : T extends 'list(string)'
        ? string[]
        : Record<string, string>;

/** The JS value of an attribute: the union of its allowed values when the table lists them. The protocol layer
 *  does not check values: a handler's `validate` (valueDiagnostics) rejects others before a plan uses them. */
type AttributeValue<F extends AttributeField> = F extends { readonly values: infer V } ? keyof V & string : ValueOf<F['type']>;

/** The typed value of one field as the protocol layer decodes it: known, null (unset) or unknown. */
type FieldValue<F> = F extends BlockField
  ? F['nesting'] extends 'single'
    ? StateOf<F['fields']> | null | Unknown
    : StateOf<F['fields']>[] | Unknown
  : F extends AttributeField
    ? AttributeValue<F> | null | Unknown
    : never;

/** The typed state of a field table: every field present, by its Terraform name. */
export type StateOf<F extends FieldTable> = { -readonly [K in keyof F]: FieldValue<F[K]> };

type Values = Record<string, unknown>;

function isValues(v: unknown): v is Values {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value of a constant or conditional default for the object (or block element) `values`; undefined for a
 *  default the handler derives. */
function defaultValue(d: FieldDefault, values: Readonly<Values>): Scalar | undefined {
  if (isDerivedDefault(d)) return undefined;
  if (isConditionalDefault(d)) return holds(d.if, { values, value: undefined }) ? d.then : d.else;
  return d;
}

function fillDefaults(table: FieldTable, planned: Values, config: Readonly<Values> | null): void {
  for (const [name, f] of Object.entries(table)) {
    const set = config ? config[name] : planned[name];
    if (isBlock(f)) {
      const elements = planned[name];
      const configured = config?.[name];
      if (Array.isArray(elements))
        planned[name] = elements.map((e: Values, i) => {
          const out = { ...e };
          fillDefaults(f.fields, out, Array.isArray(configured) ? (configured[i] ?? null) : null);
          return out;
        });
      else if (isValues(elements)) {
        // A `single` block that is there: its own fields' defaults.
        const out = { ...elements };
        fillDefaults(f.fields, out, isValues(configured) ? configured : null);
        planned[name] = out;
      }
      continue;
    }
    if (f.default === undefined || (set !== null && set !== undefined)) continue;
    const value = defaultValue(f.default, planned);
    if (value !== undefined) planned[name] = value;
  }
}

/**
 * `planned` with the table's constant and conditional defaults filled in wherever `config` leaves the attribute
 * null (so a setting removed from the config goes back to its default), block elements included (element by
 * element, and a `single` block that is there; where the config has no such element, the planned element's nulls). Derived defaults are the handler's.
 */
export function withTableDefaults<S extends Values>(resource: ResourceFields, planned: S, config: S | null): S {
  const out = { ...planned };
  fillDefaults(resource.fields, out, config);
  return out;
}

/** True when `v` is one of the values `field` allows (narrowing it to their union). */
export function isValueOf<V extends { readonly [value: string]: string }>(
  field: { readonly values: V },
  v: unknown,
): v is keyof V & string {
  return typeof v === 'string' && Object.hasOwn(field.values, v);
}

function quoteList(values: readonly string[]): string {
  const q = values.map((v) => `'${v}'`);
  return q.length > 1 ? `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}` : (q[0] ?? '');
}

function checkValues(table: FieldTable, values: Readonly<Values>, at: Path, out: Diagnostic[]): void {
  for (const [name, f] of Object.entries(table)) {
    const v = values[name];
    if (isBlock(f)) {
      if (Array.isArray(v)) v.forEach((e: Values, i) => checkValues(f.fields, e, [...at, name, i], out));
      else if (isValues(v)) checkValues(f.fields, v, [...at, name], out);
      continue;
    }
    if (f.values && typeof v === 'string' && !Object.hasOwn(f.values, v))
      out.push(error([...at, name], `Invalid ${name}`, `Got ${JSON.stringify(v)}; expected ${quoteList(Object.keys(f.values))}.`));
  }
}

/** An error for every known attribute value the table's `values` do not allow, with its attribute path. */
export function valueDiagnostics(resource: ResourceFields, config: Readonly<Values>): Diagnostic[] {
  const out: Diagnostic[] = [];
  checkValues(resource.fields, config, [], out);
  return out;
}

/**
 * The attribute paths whose change from `prior` to `planned` forces a replacement now, per the table's `replace`
 * rules (src/fields/changes.ts `fieldChanges`).
 */
export function replacePaths(resource: ResourceFields, prior: object, planned: object): Path[] {
  return fieldChanges(resource, prior, planned)
    .filter((c) => c.forcesReplace)
    .map((c) => [...c.path]);
}
