/** Helpers for tests that talk to libvirtd through our client. */
import { LibvirtError, LibvirtClient, PoolRef } from '../../src/libvirt';

/** Deletes the named volumes of `pool`; names that do not exist are skipped. */
export async function deleteVolumes(client: LibvirtClient, pool: PoolRef, names: readonly string[]): Promise<void> {
  for (const name of names) {
    try {
      await client.storageVolDelete(await client.storageVolLookupByName(pool, name));
    } catch (e) {
      if (!(e instanceof LibvirtError)) throw e;
    }
  }
}
