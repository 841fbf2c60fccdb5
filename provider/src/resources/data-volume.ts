/** The `virtseed_volume` data source: an existing storage volume by pool and name (formatstorage). */
import { error } from '../../../src/diagnostics';
import { VOLUME_DATA_FIELDS } from '../../../src/fields';
import type { LibvirtClient } from '../../../src/libvirt';
import type { DataSourceHandler } from '../handler';
import { schemaOf } from './private/fields';
import { poolByName, volumeByName } from './private/lookups';
import { backingPathFromXml, volumeFormatFromXml } from './private/storage';
import { str } from './private/values';
import type { VolumeData } from './private/data-model';
import { notFound } from './private/not-found';

/** virStorageVolType names, by value (`virsh vol-info`'s Type). */
const VOLUME_TYPES = ['file', 'block', 'dir', 'network', 'netdir', 'ploop'];

export const volumeData: DataSourceHandler<VolumeData, LibvirtClient> = {
  typeName: 'virtseed_volume',
  schema: schemaOf(VOLUME_DATA_FIELDS),

  async read({ config }, ctx) {
    const client = await ctx.client();
    const poolName = str(config.pool) ?? '';
    const name = str(config.name) ?? '';
    const pool = await poolByName(client, poolName);
    if (!pool) {
      const names = (await client.connectListAllStoragePools(0)).map((p) => p.name);
      return {
        state: null,
        diagnostics: [notFound(['pool'], { kind: 'storage pool', name: poolName, list: 'virsh pool-list --all' }, ctx.uri, names)],
      };
    }
    if (!(await client.storagePoolIsActive(pool))) {
      return {
        state: null,
        diagnostics: [
          error(
            ['pool'],
            'Storage pool not active',
            `Storage pool ${poolName} is not running, so its volumes cannot be read. Start it (virsh pool-start ${poolName}, or active = true on its virtseed_pool).`,
          ),
        ],
      };
    }
    const vol = await volumeByName(client, pool, name);
    if (!vol) {
      const names = (await client.storagePoolListAllVolumes(pool, 0)).map((v) => v.name);
      return {
        state: null,
        diagnostics: [
          notFound(['name'], { kind: 'volume', name, where: `in pool ${poolName}`, list: `virsh vol-list ${poolName}` }, ctx.uri, names),
        ],
      };
    }
    const [info, path, xml] = await Promise.all([
      client.storageVolGetInfo(vol),
      client.storageVolGetPath(vol),
      client.storageVolGetXmlDesc(vol, 0),
    ]);
    return {
      state: {
        host: ctx.hostName,
        pool: poolName,
        name,
        id: vol.key,
        path,
        format: volumeFormatFromXml(xml) ?? null,
        capacity: info.capacity,
        allocation: info.allocation,
        backing_volume: backingPathFromXml(xml) ?? null,
        type: VOLUME_TYPES[info.type] ?? String(info.type),
      },
      diagnostics: [],
    };
  },
};
