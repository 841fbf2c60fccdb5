/** A storage pool as libvirt describes it, read for `virtseed_pool` and its data source. */
import { VIR_STORAGE_POOL_RUNNING, VIR_STORAGE_XML_INACTIVE, type LibvirtClient, type PoolRef } from '../../../../src/libvirt';
import { parsePoolXml } from '../../../../src/pool';
import type { PoolState } from './model';
import { stateFromPool } from './pool-state';

/** The pool's state as libvirt describes it: its persistent definition, whether it runs, autostart, sizes; on
 *  `host` (a provider host block's name; null: the provider's uri). */
export async function describePool(client: LibvirtClient, pool: PoolRef, host: string | null): Promise<PoolState> {
  const [xml, info, autostart] = await Promise.all([
    client.storagePoolGetXmlDesc(pool, VIR_STORAGE_XML_INACTIVE),
    client.storagePoolGetInfo(pool),
    client.storagePoolGetAutostart(pool),
  ]);
  const state = stateFromPool(parsePoolXml(xml), {
    active: info.state === VIR_STORAGE_POOL_RUNNING,
    autostart,
    capacity: info.capacity,
    allocation: info.allocation,
    available: info.available,
  });
  return { ...state, host };
}
