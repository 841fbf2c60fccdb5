/**
 * A resource's provider schema and typed state, derived from its field table (src/fields): the table is the one
 * description of the resource's attributes; the schema (and through it the docs and the CDKTF bindings) and the
 * handler's state type follow from it.
 */
import type { AttributeField, BlockField, FieldTable, FieldType, ResourceFields } from '../../../../src/fields';
import { isBlock } from '../../../../src/fields';
import { t, type CtyType, type Unknown } from '../../plugin/cty';
import type { AttributeSchema, BlockSchema, NestedBlockSchema, ResourceSchema } from '../../plugin/schema';

const CTY: Readonly<Record<FieldType, CtyType>> = {
  string: t.string,
  number: t.number,
  bool: t.bool,
  'list(string)': t.list(t.string),
  'map(string)': t.map(t.string),
};

function attributeSchema(f: AttributeField): AttributeSchema {
  return {
    type: CTY[f.type],
    ...(f.required ? { required: true } : {}),
    ...(f.optional ? { optional: true } : {}),
    ...(f.computed ? { computed: true } : {}),
    ...(f.sensitive ? { sensitive: true } : {}),
    description: f.description,
  };
}

function blockSchema(fields: FieldTable, description?: string): BlockSchema {
  const attributes: Record<string, AttributeSchema> = {};
  const blocks: Record<string, NestedBlockSchema> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (isBlock(f)) blocks[name] = { nesting: f.nesting, block: blockSchema(f.fields, f.description) };
    else attributes[name] = attributeSchema(f);
  }
  return { attributes, ...(Object.keys(blocks).length ? { blocks } : {}), ...(description !== undefined ? { description } : {}) };
}

/** The provider schema of a resource's field table. */
export function schemaOf(resource: ResourceFields): ResourceSchema {
  return { version: resource.version, ...blockSchema(resource.fields, resource.description) };
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

/** The typed value of one field as the protocol layer decodes it: known, null (unset) or unknown. */
type FieldValue<F> = F extends BlockField
  ? F['nesting'] extends 'single'
    ? StateOf<F['fields']> | null | Unknown
    : StateOf<F['fields']>[] | Unknown
  : F extends AttributeField
    ? ValueOf<F['type']> | null | Unknown
    : never;

/** The typed state of a field table: every field present, by its Terraform name. */
export type StateOf<F extends FieldTable> = { -readonly [K in keyof F]: FieldValue<F[K]> };
