import { attributeCount, BENCH_ATTRIBUTES, schemaVariants, type JsonSchema } from '../../bench/private/schema-variants';

/** A small schema shaped like virtseed_domain's: top-level attributes of each kind, a list block with a nested block,
 *  a single block. */
const SCHEMA: JsonSchema = {
  version: 1,
  block: {
    attributes: {
      id: { type: 'string', computed: true },
      name: { type: 'string', required: true },
      memory: { type: 'number', required: true },
      type: { type: 'string', optional: true, computed: true },
      running: { type: 'bool', optional: true, computed: true },
      addresses: { type: ['list', 'string'], computed: true },
      title: { type: 'string', optional: true },
    },
    block_types: {
      disk: {
        nesting_mode: 'list',
        block: {
          attributes: { file: { type: 'string', optional: true }, target: { type: 'string', computed: true } },
          block_types: { limits: { nesting_mode: 'single', block: { attributes: { iops: { type: 'number', optional: true } } } } },
        },
      },
      tpm: { nesting_mode: 'single', max_items: 1, block: { attributes: { model: { type: 'string', optional: true } } } },
    },
  },
};

const byName = (name: string) => schemaVariants(SCHEMA).find((v) => v.name === name)!;

describe('schemaVariants', () => {
  it('GIVEN a schema THEN six variants, each named once, and the schema given is left as it was', () => {
    const before = JSON.stringify(SCHEMA);
    const names = schemaVariants(SCHEMA).map((v) => v.name);
    expect(names).toEqual([
      'nested-attributes',
      'no-optional-computed',
      'no-computed-only',
      'empty-collections',
      'no-blocks',
      'bench-attributes-only',
    ]);
    expect(JSON.stringify(SCHEMA)).toBe(before);
  });

  it('GIVEN nested blocks THEN nested-attributes has them as optional nested attributes, blocks inside them too, and no blocks', () => {
    const { block } = byName('nested-attributes').schema;
    expect(block.block_types).toEqual({});
    expect(block.attributes!.disk).toEqual({
      optional: true,
      nested_type: {
        nesting_mode: 'list',
        attributes: {
          file: { type: 'string', optional: true },
          target: { type: 'string', computed: true },
          limits: { optional: true, nested_type: { nesting_mode: 'single', attributes: { iops: { type: 'number', optional: true } } } },
        },
      },
    });
    expect(block.attributes!.tpm.nested_type!.nesting_mode).toBe('single');
    expect(attributeCount(block)).toBe(attributeCount(SCHEMA.block) + 3); // each block is now an attribute itself
  });

  it('GIVEN optional + computed attributes THEN no-optional-computed makes them only optional, nothing else', () => {
    const { block } = byName('no-optional-computed').schema;
    expect(block.attributes!.type).toEqual({ type: 'string', optional: true, computed: false });
    expect(block.attributes!.running.computed).toBe(false);
    expect(block.attributes!.addresses).toEqual(SCHEMA.block.attributes!.addresses);
    expect(block.attributes!.id).toEqual(SCHEMA.block.attributes!.id);
  });

  it('GIVEN computed-only attributes THEN no-computed-only leaves them out but id, in blocks too', () => {
    const { block } = byName('no-computed-only').schema;
    expect(Object.keys(block.attributes!)).toEqual(['id', 'name', 'memory', 'type', 'running', 'title']);
    expect(Object.keys(block.block_types!.disk.block.attributes!)).toEqual(['file']);
  });

  it('GIVEN empty-collections THEN the same schema and the floor told to plan empty collections', () => {
    const v = byName('empty-collections');
    expect(v.schema).toEqual(SCHEMA);
    expect(v.env).toEqual({ FLOOR_DOMAIN_EMPTY_COLLECTIONS: '1' });
  });

  it('GIVEN no-blocks and bench-attributes-only THEN no blocks, and only the bench attributes in the second', () => {
    expect(byName('no-blocks').schema.block.block_types).toEqual({});
    expect(Object.keys(byName('no-blocks').schema.block.attributes!)).toEqual(Object.keys(SCHEMA.block.attributes!));
    const only = byName('bench-attributes-only').schema.block;
    expect(Object.keys(only.attributes!)).toEqual([...BENCH_ATTRIBUTES]);
    expect(only.block_types).toEqual({});
  });

  it('GIVEN a schema without one of the bench attributes THEN Error naming it', () => {
    const { memory: _memory, ...rest } = SCHEMA.block.attributes!;
    expect(() => schemaVariants({ ...SCHEMA, block: { ...SCHEMA.block, attributes: rest } })).toThrow('no attribute memory');
  });
});
