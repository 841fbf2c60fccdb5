/**
 * virtseed's own schema model for resources and the provider, and its conversion to the tfplugin6 `Schema`
 * message (descriptions as Markdown). Also derives the cty object type a schema implies (what DynamicValues of the
 * resource decode to) and normalizes handler output to it.
 */
import { CtyType, t, typeToJsonBytes, UNKNOWN } from './cty';
import type { SchemaBlockMsg, SchemaMsg } from './messages';

/** One attribute. Exactly one of: `required`; `optional`; `computed`; `optional` + `computed`. */
export interface AttributeSchema {
  readonly type: CtyType;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  /** Terraform hides the value in plan output; the provider never logs values anyway. */
  readonly sensitive?: boolean;
  /** tfplugin6 `write_only` (field 11; Terraform 1.11 and later): the value is in the config only; every value the
   *  provider sends back (planned, new, read and imported state) holds null there (normalizeBlockValue). */
  readonly writeOnly?: boolean;
  /** Markdown. */
  readonly description?: string;
  readonly deprecated?: boolean;
}

/** A nested block: `list` and `set` hold 0..n blocks (an absent block is `[]`), `single` holds one or null. */
export interface NestedBlockSchema {
  readonly nesting: 'list' | 'set' | 'single';
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly block: BlockSchema;
}

/** A block: attributes and nested blocks by name. */
export interface BlockSchema {
  readonly attributes: Readonly<Record<string, AttributeSchema>>;
  readonly blocks?: Readonly<Record<string, NestedBlockSchema>>;
  /** Markdown. */
  readonly description?: string;
  readonly deprecated?: boolean;
}

/** A resource's (or the provider's) schema; `version` is the state schema version (see UpgradeResourceState). */
export interface ResourceSchema extends BlockSchema {
  readonly version: number;
}

const MARKDOWN = 'MARKDOWN';
const NESTING = { single: 'SINGLE', list: 'LIST', set: 'SET' } as const;

/** The tfplugin6 `Schema` message (plain object for @grpc/proto-loader) of a schema. */
export function toProtoSchema(schema: ResourceSchema): SchemaMsg {
  return { version: schema.version, block: toProtoBlock(schema, schema.version) };
}

function toProtoBlock(block: BlockSchema, version: number): SchemaBlockMsg {
  return {
    version,
    attributes: Object.entries(block.attributes).map(([name, a]) => ({
      name,
      type: typeToJsonBytes(a.type),
      description: a.description ?? '',
      description_kind: MARKDOWN,
      required: !!a.required,
      optional: !!a.optional,
      computed: !!a.computed,
      sensitive: !!a.sensitive,
      deprecated: !!a.deprecated,
      write_only: !!a.writeOnly,
    })),
    block_types: Object.entries(block.blocks ?? {}).map(([name, b]) => ({
      type_name: name,
      block: toProtoBlock(b.block, 0),
      nesting: NESTING[b.nesting],
      min_items: b.minItems ?? 0,
      max_items: b.maxItems ?? 0,
    })),
    description: block.description ?? '',
    description_kind: MARKDOWN,
    deprecated: !!block.deprecated,
  };
}

/** The cty object type of a block's values: attributes by their type, `list`/`set` blocks as list/set of object,
 *  `single` blocks as object. */
export function impliedType(block: BlockSchema): CtyType {
  const attrs: Record<string, CtyType> = {};
  for (const [name, a] of Object.entries(block.attributes)) attrs[name] = a.type;
  for (const [name, b] of Object.entries(block.blocks ?? {})) {
    const inner = impliedType(b.block);
    attrs[name] = b.nesting === 'single' ? inner : b.nesting === 'list' ? t.list(inner) : t.set(inner);
  }
  return t.object(attrs);
}

/** Checks a schema definition (a programming error, not user input). Throws `Error` naming the attribute. */
export function assertValidSchema(block: BlockSchema, where = ''): void {
  for (const [name, a] of Object.entries(block.attributes)) {
    const ok = a.required ? !a.optional && !a.computed : !!(a.optional || a.computed);
    if (!ok) throw new Error(`schema ${where}${name}: set exactly one of required, optional, computed (or optional+computed)`);
    if (block.blocks && name in block.blocks) throw new Error(`schema ${where}${name}: both an attribute and a block`);
    if (a.writeOnly && (a.computed || !a.optional))
      throw new Error(`schema ${where}${name}: a write-only attribute is optional and not computed`);
  }
  for (const [name, b] of Object.entries(block.blocks ?? {})) assertValidSchema(b.block, `${where}${name}.`);
}

const blockEntries = new WeakMap<BlockSchema, BlockEntries>();
interface BlockEntries {
  readonly attributes: readonly (readonly [string, AttributeSchema])[];
  readonly blocks: readonly (readonly [string, NestedBlockSchema])[];
}
/** A block's attributes and nested blocks as entries, listed once per schema: every value encoded walks them. */
function entriesOf(block: BlockSchema): BlockEntries {
  let entries = blockEntries.get(block);
  if (!entries)
    blockEntries.set(block, (entries = { attributes: Object.entries(block.attributes), blocks: Object.entries(block.blocks ?? {}) }));
  return entries;
}

/** Makes a handler's value fit the block: absent `list`/`set` blocks become `[]` (Terraform never has null
 *  block collections), write-only attributes become null (a plan or state never holds them), nested blocks are
 *  normalized recursively. Null and unknown pass through. */
export function normalizeBlockValue(block: BlockSchema, value: unknown): unknown {
  if (value === null || value === undefined || value === UNKNOWN || typeof value !== 'object' || Array.isArray(value)) return value ?? null;
  const v = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const { attributes, blocks } = entriesOf(block);
  for (const [name, a] of attributes) out[name] = v[name] === undefined || a.writeOnly ? null : v[name];
  for (const [name, b] of blocks) {
    const inner = v[name];
    if (b.nesting === 'single') out[name] = normalizeBlockValue(b.block, inner);
    else if (inner === null || inner === undefined) out[name] = [];
    else if (Array.isArray(inner)) out[name] = inner.map((e) => normalizeBlockValue(b.block, e));
    else out[name] = inner;
  }
  return out;
}

/** Planning helper for handlers: a copy of `proposed` with every computed attribute that is null set to `UNKNOWN`
 *  (recursively through nested blocks), as a create or an update that recomputes them should plan. */
export function markComputedUnknown<T>(block: BlockSchema, proposed: T): T {
  if (proposed === null || typeof proposed !== 'object' || Array.isArray(proposed)) return proposed;
  const v = proposed as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...v };
  for (const [name, a] of Object.entries(block.attributes))
    if (a.computed && (v[name] === null || v[name] === undefined)) out[name] = UNKNOWN;
  for (const [name, b] of Object.entries(block.blocks ?? {})) {
    const inner = v[name];
    if (Array.isArray(inner)) out[name] = inner.map((e) => markComputedUnknown(b.block, e));
    else if (inner && typeof inner === 'object') out[name] = markComputedUnknown(b.block, inner);
  }
  return out as unknown as T;
}

/** The paths of the write-only attributes `value` sets (known or unknown), nested blocks included. */
export function writeOnlyPathsSet(block: BlockSchema, value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (value === null || value === undefined || value === UNKNOWN || typeof value !== 'object' || Array.isArray(value)) return [];
  const v = value as Record<string, unknown>;
  const out: (string | number)[][] = [];
  for (const [name, a] of Object.entries(block.attributes))
    if (a.writeOnly && v[name] !== null && v[name] !== undefined) out.push([...at, name]);
  for (const [name, b] of Object.entries(block.blocks ?? {})) {
    const inner = v[name];
    if (Array.isArray(inner)) inner.forEach((e, i) => out.push(...writeOnlyPathsSet(b.block, e, [...at, name, i])));
    else out.push(...writeOnlyPathsSet(b.block, inner, [...at, name]));
  }
  return out;
}
