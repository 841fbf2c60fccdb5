/**
 * Data sources in the protocol layer (provider/src/plugin/server.ts): GetProviderSchema and GetMetadata list them,
 * ValidateDataResourceConfig and ReadDataSource decode the config with the data source's schema, call its handler
 * and encode its state; unknown types and handler failures are diagnostics naming the data source.
 */
import { PROVIDER_SCHEMA } from '../../../provider/src/config';
import { decodeMsgpack, encodeMsgpack, t, UNKNOWN } from '../../../provider/src/plugin/cty';
import type { DataSourceHandler } from '../../../provider/src/handler';
import { createLogger } from '../../../provider/src/plugin/log';
import { impliedType, normalizeBlockValue, type ResourceSchema } from '../../../provider/src/plugin/schema';
import { LibvirtProviderServer as ProviderServer } from '../../../provider/src/hosting';

interface Lookup {
  name: string | typeof UNKNOWN;
  size: number | null;
  tags: string[] | null;
}

const SCHEMA: ResourceSchema = {
  version: 0,
  description: 'Looks a thing up by name.',
  attributes: {
    name: { type: t.string, required: true, description: 'Name.' },
    size: { type: t.number, computed: true, description: 'Size.' },
    tags: { type: t.list(t.string), computed: true, description: 'Tags.' },
  },
};
const TYPE = impliedType(SCHEMA);
const quiet = createLogger('error', () => undefined);
const dv = (v: unknown) => ({ msgpack: encodeMsgpack(normalizeBlockValue(SCHEMA, v), TYPE) });

const lookup: DataSourceHandler<Lookup> = {
  typeName: 'virtseed_test_lookup',
  schema: SCHEMA,
  validate: (config) => (config.name === 'bad!' ? [{ severity: 'error', summary: 'Invalid name', detail: 'no "!"', path: ['name'] }] : []),
  read: async ({ config }) => {
    if (config.name === 'boom') throw new Error('the host said no');
    if (config.name !== 'alpha')
      return {
        state: null,
        diagnostics: [{ severity: 'error', summary: 'Thing not found', detail: `no ${String(config.name)}`, path: ['name'] }],
      };
    return { state: { name: 'alpha', size: 3, tags: ['a', 'b'] }, diagnostics: [] };
  },
};

const server = new ProviderServer({ providerSchema: PROVIDER_SCHEMA, resources: [], dataSources: [lookup], log: quiet });

describe('data source schemas', () => {
  it('GIVEN a registered data source WHEN the schema is asked THEN data_source_schemas holds it with its attributes', async () => {
    const res = await server.GetProviderSchema();
    expect(Object.keys(res.data_source_schemas)).toEqual(['virtseed_test_lookup']);
    expect(res.data_source_schemas.virtseed_test_lookup.block.attributes.map((a: { name: string }) => a.name)).toEqual([
      'name',
      'size',
      'tags',
    ]);
  });

  it('GIVEN a registered data source WHEN the metadata is asked THEN data_sources names it', async () => {
    expect((await server.GetMetadata()).data_sources).toEqual([{ type_name: 'virtseed_test_lookup' }]);
  });

  it('GIVEN two data sources of one type name WHEN the server is made THEN it throws naming the type', () => {
    expect(() => new ProviderServer({ providerSchema: PROVIDER_SCHEMA, resources: [], dataSources: [lookup, lookup], log: quiet })).toThrow(
      /duplicate data source type virtseed_test_lookup/,
    );
  });
});

describe('ValidateDataResourceConfig', () => {
  it('GIVEN a config the handler rejects WHEN validated THEN the diagnostic carries its attribute path', async () => {
    const res = await server.ValidateDataResourceConfig({ type_name: 'virtseed_test_lookup', config: dv({ name: 'bad!' }) });
    expect(res.diagnostics).toEqual([
      expect.objectContaining({ severity: 'ERROR', summary: 'Invalid name', attribute: { steps: [{ attribute_name: 'name' }] } }),
    ]);
  });

  it('GIVEN an unregistered data source WHEN validated THEN the error names it', async () => {
    const res = await server.ValidateDataResourceConfig({ type_name: 'virtseed_nope', config: dv({ name: 'x' }) });
    expect(res.diagnostics[0]).toMatchObject({ severity: 'ERROR', summary: 'Unknown data source type' });
    expect(res.diagnostics[0].detail).toContain('virtseed_nope');
  });
});

describe('ReadDataSource', () => {
  it('GIVEN an existing name WHEN read THEN the state holds the computed attributes', async () => {
    const res = await server.ReadDataSource({ type_name: 'virtseed_test_lookup', config: dv({ name: 'alpha' }) });
    expect(res.diagnostics).toEqual([]);
    expect('state' in res && decodeMsgpack(res.state!.msgpack!, TYPE)).toEqual({ name: 'alpha', size: 3, tags: ['a', 'b'] });
  });

  it('GIVEN a name the handler does not find WHEN read THEN the error is on name and the state is null', async () => {
    const res = await server.ReadDataSource({ type_name: 'virtseed_test_lookup', config: dv({ name: 'zeta' }) });
    expect(res.diagnostics[0]).toMatchObject({ summary: 'Thing not found', attribute: { steps: [{ attribute_name: 'name' }] } });
    expect('state' in res && decodeMsgpack(res.state!.msgpack!, TYPE)).toBeNull();
  });

  it('GIVEN a handler that throws WHEN read THEN the error says what was being read, without the RPC name', async () => {
    const res = await server.ReadDataSource({ type_name: 'virtseed_test_lookup', config: dv({ name: 'boom' }) });
    expect(res.diagnostics[0]).toMatchObject({
      severity: 'ERROR',
      summary: 'Reading data.virtseed_test_lookup failed',
      detail: 'the host said no',
    });
    expect(JSON.stringify(res.diagnostics)).not.toContain('ReadDataSource');
  });
});
