/**
 * Variants of one resource's schema (the JSON of `terraform providers schema -json`, one resource's entry), each
 * differing from it in one respect, for the terraform bench's floor_domain rows: what drives Terraform's own cost
 * of virtseed_domain's schema. Pure functions over the JSON; the bench writes each variant to a file and starts
 * the Go floor with FLOOR_DOMAIN_SCHEMA naming it (and `env`, for the variants that change what the floor's plan
 * returns rather than the schema).
 */

/** An attribute as `terraform providers schema -json` writes it (the fields the floor reads; others kept as is). */
export interface JsonAttribute {
  type?: unknown;
  nested_type?: { attributes: Record<string, JsonAttribute>; nesting_mode: string };
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  [other: string]: unknown;
}

export interface JsonBlock {
  attributes?: Record<string, JsonAttribute>;
  block_types?: Record<string, { nesting_mode: string; min_items?: number; max_items?: number; block: JsonBlock }>;
  [other: string]: unknown;
}

export interface JsonSchema {
  version: number;
  block: JsonBlock;
}

/** One variant: its short name, what differs, the schema, and the floor's extra environment. */
export interface SchemaVariant {
  readonly name: string;
  readonly differs: string;
  readonly schema: JsonSchema;
  readonly env?: Readonly<Record<string, string>>;
}

/** The attributes every variant keeps: what the bench's configs set, and `id`. */
export const BENCH_ATTRIBUTES = ['id', 'name', 'memory', 'type', 'running'] as const;

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** A block's nested blocks as protocol-6 nested attributes (optional; single → single, list → list, ...), inside
 *  them too (a nested attribute holds no blocks). */
function asNestedAttributes(block: JsonBlock): Record<string, JsonAttribute> {
  const out: Record<string, JsonAttribute> = { ...clone(block.attributes ?? {}) };
  for (const [name, bt] of Object.entries(block.block_types ?? {})) {
    const mode = bt.nesting_mode === 'group' ? 'single' : bt.nesting_mode;
    out[name] = { nested_type: { attributes: asNestedAttributes(bt.block), nesting_mode: mode }, optional: true };
  }
  return out;
}

/** Every attribute of `block` (nested blocks' too) through `f` (undefined drops it). */
function mapAttributes(block: JsonBlock, f: (name: string, a: JsonAttribute) => JsonAttribute | undefined): JsonBlock {
  const attributes: Record<string, JsonAttribute> = {};
  for (const [name, a] of Object.entries(block.attributes ?? {})) {
    const mapped = f(name, a);
    if (mapped) attributes[name] = mapped;
  }
  const block_types: NonNullable<JsonBlock['block_types']> = {};
  for (const [name, bt] of Object.entries(block.block_types ?? {})) block_types[name] = { ...bt, block: mapAttributes(bt.block, f) };
  return { ...block, attributes, block_types };
}

/**
 * The variants of `schema` (its attributes `BENCH_ATTRIBUTES` must be top-level ones):
 * - `nested-attributes`: every nested block a protocol-6 nested attribute (absent = null, not an empty list);
 * - `no-optional-computed`: optional + computed attributes only optional (Terraform no longer keeps their prior
 *   values or lets the provider fill them);
 * - `no-computed-only`: the computed-only attributes but `id` left out;
 * - `empty-collections`: the same schema, the floor's plan making null computed lists and maps empty (the shape
 *   our provider writes: `addresses = []`, `change_impacts = {}`);
 * - `no-blocks`: the nested blocks left out (the attribute count without them);
 * - `bench-attributes-only`: only `BENCH_ATTRIBUTES` (the least any schema for the bench's configs has).
 */
export function schemaVariants(schema: JsonSchema): SchemaVariant[] {
  const top = schema.block.attributes ?? {};
  for (const name of BENCH_ATTRIBUTES) if (!(name in top)) throw new Error(`the schema has no attribute ${name}`);
  const withBlock = (block: JsonBlock): JsonSchema => ({ ...clone(schema), block });
  const only = (names: readonly string[]): Record<string, JsonAttribute> => Object.fromEntries(names.map((n) => [n, clone(top[n])]));
  return [
    {
      name: 'nested-attributes',
      differs: 'nested blocks as protocol-6 nested attributes',
      schema: withBlock({ ...clone(schema.block), attributes: asNestedAttributes(schema.block), block_types: {} }),
    },
    {
      name: 'no-optional-computed',
      differs: 'optional + computed attributes only optional',
      schema: withBlock(mapAttributes(clone(schema.block), (_n, a) => (a.optional && a.computed ? { ...a, computed: false } : a))),
    },
    {
      name: 'no-computed-only',
      differs: 'computed-only attributes but id left out',
      schema: withBlock(
        mapAttributes(clone(schema.block), (n, a) => (a.computed && !a.optional && !a.required && n !== 'id' ? undefined : a)),
      ),
    },
    {
      name: 'empty-collections',
      differs: 'same schema, null computed lists and maps planned empty',
      schema: clone(schema),
      env: { FLOOR_DOMAIN_EMPTY_COLLECTIONS: '1' },
    },
    {
      name: 'no-blocks',
      differs: 'nested blocks left out',
      schema: withBlock({ ...clone(schema.block), block_types: {} }),
    },
    {
      name: 'bench-attributes-only',
      differs: `only ${BENCH_ATTRIBUTES.join(', ')}`,
      schema: withBlock({ ...clone(schema.block), attributes: only(BENCH_ATTRIBUTES), block_types: {} }),
    },
  ];
}

/** Attributes of a schema, nested ones counted (a nested attribute and each attribute inside it). */
export function attributeCount(block: JsonBlock): number {
  const inAttrs = (attrs: Record<string, JsonAttribute>): number =>
    Object.values(attrs).reduce((n, a) => n + 1 + (a.nested_type ? inAttrs(a.nested_type.attributes) : 0), 0);
  return inAttrs(block.attributes ?? {}) + Object.values(block.block_types ?? {}).reduce((n, bt) => n + attributeCount(bt.block), 0);
}
