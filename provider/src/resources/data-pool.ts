/** The `virtseed_pool` data source: an existing storage pool by name (formatstorage). */
import { POOL_DATA_FIELDS } from '../../../src/fields';
import type { LibvirtClient } from '../../../src/libvirt';
import { PoolXmlParseError } from '../../../src/pool';
import { error } from '../../../src/diagnostics';
import type { DataSourceHandler } from '../handler';
import { schemaOf } from './private/fields';
import { poolByName } from './private/lookups';
import { describePool } from './private/pool-read';
import { str } from './private/values';
import type { PoolData } from './private/data-model';
import { notFound } from './private/not-found';

export const poolData: DataSourceHandler<PoolData, LibvirtClient> = {
  typeName: 'virtseed_pool',
  schema: schemaOf(POOL_DATA_FIELDS),

  async read({ config }, ctx) {
    const client = await ctx.client();
    const name = str(config.name) ?? '';
    const pool = await poolByName(client, name);
    if (!pool) {
      const names = (await client.connectListAllStoragePools(0)).map((p) => p.name);
      return {
        state: null,
        diagnostics: [notFound(['name'], { kind: 'storage pool', name, list: 'virsh pool-list --all' }, ctx.uri, names)],
      };
    }
    let state;
    try {
      state = await describePool(client, pool, ctx.hostName);
    } catch (err) {
      if (!(err instanceof PoolXmlParseError)) throw err;
      return {
        state: null,
        diagnostics: [
          error(
            ['name'],
            'Unsupported storage pool',
            `Storage pool ${name} is of a kind this data source does not read (${err.message}); it reads dir, logical and netfs pools.`,
          ),
        ],
      };
    }
    const [persistent, volumes] = await Promise.all([
      client.storagePoolIsPersistent(pool),
      state.active ? client.storagePoolListAllVolumes(pool, 0).then((v) => v.map((x) => x.name).sort()) : Promise.resolve([]),
    ]);
    const { id, uuid, type, path, source_host, source_dir, source_format, source_name, source_devices, autostart, active } = state;
    const { capacity, allocation, available } = state;
    return {
      state: {
        host: ctx.hostName,
        name,
        id,
        uuid,
        type,
        path,
        source_host,
        source_dir,
        source_format,
        source_name,
        source_devices,
        autostart,
        active,
        capacity,
        allocation,
        available,
        persistent,
        volumes,
      },
      diagnostics: [],
    };
  },
};
