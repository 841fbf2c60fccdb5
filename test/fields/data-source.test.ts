/** dataSourceFields (src/fields/data-source.ts): data source tables derived from resource tables. */
import { DATA_HOST_FIELD, dataSourceFields, POOL_DATA_FIELDS, POOL_FIELDS, type ResourceFields } from '../../src/fields';

const RESOURCE = {
  version: 0,
  description: 'A thing.',
  object: 'thing',
  whenUnknown: 'wait',
  fields: {
    name: { type: 'string', required: true, replace: true, description: 'Name.' },
    size: { type: 'number', optional: true, computed: true, default: 1, description: 'Size. Default 1.' },
    secret: { type: 'string', optional: true, sensitive: true, description: 'Secret.' },
    part: { nesting: 'list', description: 'A part.', fields: {} },
  },
} as const satisfies ResourceFields;

describe('dataSourceFields', () => {
  it('GIVEN lookup and picked attributes WHEN derived THEN lookups are required, the rest computed, with no plan rules', () => {
    const table = dataSourceFields(RESOURCE, { description: 'Reads a thing.', lookup: ['name'], pick: ['size', 'secret'], extra: {} });
    expect(table).toEqual({
      version: 0,
      description: 'Reads a thing.',
      object: 'thing',
      whenUnknown: 'wait',
      fields: {
        name: { type: 'string', required: true, description: 'Name.' },
        size: { type: 'number', computed: true, description: 'Size. Default 1.' },
        secret: { type: 'string', computed: true, sensitive: true, description: 'Secret.' },
        host: DATA_HOST_FIELD,
      },
    });
  });

  it('GIVEN a description override and an extra attribute WHEN derived THEN both are used', () => {
    const table = dataSourceFields(RESOURCE, {
      description: 'd',
      lookup: ['name'],
      pick: ['size'],
      describe: { size: 'Size now.' },
      extra: { state: { type: 'string', computed: true, description: 'State.' } },
    });
    expect(table.fields.size.description).toBe('Size now.');
    expect(Object.keys(table.fields)).toEqual(['name', 'size', 'host', 'state']);
  });

  it('GIVEN a block picked WHEN derived THEN it throws naming it', () => {
    expect(() => dataSourceFields(RESOURCE, { description: 'd', lookup: ['name'], pick: ['part' as never], extra: {} })).toThrow(/part/);
  });

  it('GIVEN any data source WHEN derived THEN it has the optional host it reads (a provider host block)', () => {
    const table = dataSourceFields(RESOURCE, { description: 'd', lookup: ['name'], pick: [], extra: {} });
    expect(table.fields.host).toEqual({ type: 'string', optional: true, description: expect.stringContaining("provider's `host` blocks") });
  });

  it("GIVEN the pool tables WHEN compared THEN every picked attribute keeps the resource's type", () => {
    for (const [name, f] of Object.entries(POOL_DATA_FIELDS.fields)) {
      const resource = (POOL_FIELDS.fields as Record<string, { type?: string }>)[name];
      if (resource) expect([name, f.type]).toEqual([name, resource.type]);
    }
  });
});
