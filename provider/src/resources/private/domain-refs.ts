/**
 * The libvirt lookups behind `virtseed_domain`'s state ⇄ spec mapping (./domain-state): at apply, the volumes a
 * state refers to (volume keys → pool/volume and format, the seed volume, the Ignition file) and its NICs' network
 * names (./network-refs); at read/import, the volume keys of a described domain's sources.
 */
import type { DomainDisk, DomainSpec } from '../../../../src/domain';
import type { LibvirtClient } from '../../../../src/libvirt';
import { parsePoolXml } from '../../../../src/pool';
import { ignitionFileOf, LIBVIRT_FWCFG_SYSINFO_VERSION, stateFromSpec, type ObservedRefs, type ResolvedRefs } from './domain-state';
import type { DomainState } from './model';
import { resolveNetworkNames } from './network-refs';
import { libVersionOf } from './lib-version';
import { isNotFound, volumeByPath } from './lookups';
import { FILE_POOL_TYPES, volumeFormatFromXml } from './storage';
import { list, str } from './values';

async function volumeSource(client: LibvirtClient, key: string): Promise<{ source: DomainDisk['source']; format?: DomainDisk['format'] }> {
  const vol = await client.storageVolLookupByKey(key).catch(async (err) => {
    if (isNotFound(err) && key.startsWith('/')) return client.storageVolLookupByPath(key);
    throw err;
  });
  const format = volumeFormatFromXml(await client.storageVolGetXmlDesc(vol, 0));
  return { source: { pool: vol.pool, volume: vol.name }, format: format === 'qcow2' ? 'qcow2' : 'raw' };
}

/** Looks up every volume the state refers to. Throws LibvirtError when one is missing. */
export async function resolveRefs(client: LibvirtClient, s: DomainState): Promise<ResolvedRefs> {
  const disks: ResolvedRefs['disks'][number][] = [];
  for (const d of list(s.disk)) {
    const key = str(d.volume_id);
    const file = str(d.file) ?? '';
    disks.push(key ? await volumeSource(client, key) : { source: { file }, format: /\.qcow2$/i.test(file) ? 'qcow2' : 'raw' });
  }
  let seed: ResolvedRefs['seed'];
  const seedKey = str(s.cloudinit_seed_id);
  if (seedKey) {
    const vol = await client.storageVolLookupByKey(seedKey);
    seed = { pool: vol.pool, volume: vol.name };
  }
  let ignitionFile: string | undefined;
  const ignKey = str(s.ignition_id);
  let fwCfgViaCommandline = false;
  if (ignKey) {
    ignitionFile = await client.storageVolGetPath(await client.storageVolLookupByKey(ignKey));
    fwCfgViaCommandline = (await libVersionOf(client)) < LIBVIRT_FWCFG_SYSINFO_VERSION;
  }
  const networks = await resolveNetworkNames(client, list(s.network_interface));
  return { disks, seed, ignitionFile, fwCfgViaCommandline, networks };
}

/** The key of the volume at `path`, or null when no volume is there. */
async function keyOfPath(client: LibvirtClient, path: string): Promise<string | null> {
  return (await volumeByPath(client, path))?.key ?? null;
}

/**
 * The key a pool volume that is missing would have: in a file pool that still exists, its path (the pool's target
 * path and the volume's name, which is the key libvirt gave it and the state keeps, so a deleted seed or disk reads
 * as the same reference whether or not the definition changed too); otherwise `pool/volume`.
 */
async function missingVolumeKey(client: LibvirtClient, poolName: string, volume: string): Promise<string> {
  try {
    const pool = parsePoolXml(await client.storagePoolGetXmlDesc(await client.storagePoolLookupByName(poolName), 0));
    if (FILE_POOL_TYPES.includes(pool.type) && pool.path) return `${pool.path.replace(/\/+$/, '')}/${volume}`;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return `${poolName}/${volume}`;
}

/** The volume keys of a described domain's sources (a missing pool volume: see {@link missingVolumeKey}). */
async function observeRefs(client: LibvirtClient, spec: DomainSpec): Promise<ObservedRefs> {
  const disks: { key: string | null; file: string | null }[] = [];
  for (const d of spec.disks) {
    if ('pool' in d.source) {
      try {
        const pool = await client.storagePoolLookupByName(d.source.pool);
        disks.push({ key: (await client.storageVolLookupByName(pool, d.source.volume)).key, file: null });
      } catch (err) {
        if (!isNotFound(err)) throw err;
        disks.push({ key: await missingVolumeKey(client, d.source.pool, d.source.volume), file: null });
      }
    } else {
      const key = await keyOfPath(client, d.source.file);
      disks.push({ key, file: key ? null : d.source.file });
    }
  }
  const fwFile = ignitionFileOf(spec);
  return { disks, ignitionId: fwFile ? ((await keyOfPath(client, fwFile)) ?? fwFile) : null };
}

/** What libvirt says a domain is, as state attributes (for read and import). */
export async function stateFromDomain(client: LibvirtClient, spec: DomainSpec, running: boolean): Promise<DomainState> {
  return stateFromSpec(spec, running, await observeRefs(client, spec));
}
