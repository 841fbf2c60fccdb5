import { t, UNKNOWN } from '../../../provider/src/plugin/cty';
import {
  assertValidSchema,
  impliedType,
  markComputedUnknown,
  normalizeBlockValue,
  toProtoSchema,
} from '../../../provider/src/plugin/schema';
import { THING_SCHEMA } from '../fixtures/thing';

describe('toProtoSchema', () => {
  const proto = toProtoSchema(THING_SCHEMA);
  const attribute = (name: string) => proto.block.attributes.find((a) => a.name === name);

  it('GIVEN a schema WHEN converted THEN version is set on the schema and its top block', () => {
    expect(proto.version).toBe(1);
    expect(proto.block.version).toBe(1);
  });

  it('GIVEN a sensitive optional attribute WHEN converted THEN its flags and JSON type bytes are set', () => {
    const secret = attribute('secret');
    expect(secret).toMatchObject({ optional: true, required: false, computed: false, sensitive: true, description_kind: 'MARKDOWN' });
    expect(secret?.type.toString()).toBe('"string"');
  });

  it('GIVEN a map attribute WHEN converted THEN its type is the cty JSON of a map', () => {
    expect(attribute('labels')?.type.toString()).toBe('["map","string"]');
  });

  it('GIVEN a list block WHEN converted THEN it is a LIST NestedBlock with its own attributes', () => {
    const disk = proto.block.block_types[0];
    expect(disk).toMatchObject({ type_name: 'disk', nesting: 'LIST', min_items: 0, max_items: 0 });
    expect(disk.block.attributes.map((a) => a.name)).toEqual(['label', 'size_gb', 'serial']);
  });
});

describe('impliedType', () => {
  it('GIVEN attributes and a list block WHEN implied THEN the block is a list of objects', () => {
    const type = impliedType(THING_SCHEMA);
    const disk = type.kind === 'object' ? type.attributes.disk : type;
    expect(disk).toEqual(t.list(t.object({ label: t.string, size_gb: t.number, serial: t.string })));
  });

  it('GIVEN a single block WHEN implied THEN it is an object', () => {
    const type = impliedType({
      attributes: {},
      blocks: { os: { nesting: 'single', block: { attributes: { k: { type: t.string, optional: true } } } } },
    });
    expect(type).toEqual(t.object({ os: t.object({ k: t.string }) }));
  });
});

describe('assertValidSchema', () => {
  it('GIVEN an attribute both required and computed WHEN checked THEN it throws naming it', () => {
    expect(() => assertValidSchema({ attributes: { x: { type: t.string, required: true, computed: true } } })).toThrow(/schema x/);
  });

  it('GIVEN an attribute with no mode WHEN checked THEN it throws', () => {
    expect(() => assertValidSchema({ attributes: { x: { type: t.string } } })).toThrow();
  });
});

describe('normalizeBlockValue', () => {
  it('GIVEN a value without its list block WHEN normalized THEN the block is an empty list and attributes are null', () => {
    expect(normalizeBlockValue(THING_SCHEMA, { name: 'a' })).toEqual({
      id: null,
      name: 'a',
      size: null,
      secret: null,
      labels: null,
      revision: null,
      disk: [],
    });
  });
});

describe('markComputedUnknown', () => {
  it('GIVEN a proposed create WHEN marked THEN null computed attributes, nested too, become UNKNOWN', () => {
    const planned = markComputedUnknown(THING_SCHEMA, { id: null, name: 'a', revision: 3, disk: [{ label: 'r', serial: null }] });
    expect(planned).toMatchObject({ id: UNKNOWN, name: 'a', revision: 3 });
    expect(planned.disk[0].serial).toBe(UNKNOWN);
  });
});
