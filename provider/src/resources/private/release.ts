/**
 * Volumes a running guest still uses are not deleted under it: their destroy leaves them with a release mark (an
 * empty raw volume `<name>.virtseed-release` in the same pool), and the domain that used them deletes them once it
 * let go of them — after a live migration to another host (the old copies), or when it is removed.
 *
 * This is how a live move fits Terraform's order: a volume whose `host` changes is replaced, and Terraform destroys
 * the old volume before it creates the new one and before it updates the domain that migrates onto it. The old
 * copy must outlive that destroy: the guest reads it until the migration has copied it.
 */
import { LibvirtClient, VIR_CONNECT_LIST_DOMAINS_ACTIVE, type CallOptions, type VolRef } from '../../../../src/libvirt';
import { isNotFound, volumeByKey, volumeByName, volumeByPath } from './lookups';
import { backingPathFromXml, volumeXml } from './storage';

/** The name of the mark that says volume `name` of the same pool waits for its domain to let go of it. */
export function releaseMarkName(name: string): string {
  return `${name}.virtseed-release`;
}

function unescapeXml(s: string): string {
  return s
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * What a domain's live XML uses: file paths (disk sources, backing stores, fw_cfg files) and `pool/volume` sources.
 * A `<log file=…>` (a console's or serial port's log, which libvirt writes) is not a source: no volume lookup for it.
 */
export function usedSources(xml: string): { files: Set<string>; volumes: Set<string> } {
  const files = new Set<string>();
  const volumes = new Set<string>();
  for (const m of xml.matchAll(/<([\w:.-]+)\s[^>]*?\bfile=(['"])(.*?)\2/g)) if (m[1] !== 'log') files.add(unescapeXml(m[3]));
  for (const m of xml.matchAll(/<source\b[^>]*?\bpool=(['"])(.*?)\1[^>]*?\bvolume=(['"])(.*?)\3/g))
    volumes.add(`${unescapeXml(m[2])}/${unescapeXml(m[4])}`);
  return { files, volumes };
}

/** True when a running domain of this host uses the volume (as a disk, a backing image or a file). */
async function inUseByRunningDomain(client: LibvirtClient, vol: VolRef, path: string, options?: CallOptions): Promise<boolean> {
  const running = await client.connectListAllDomains(VIR_CONNECT_LIST_DOMAINS_ACTIVE, options);
  const xmls = await Promise.all(running.map((d) => client.domainGetXmlDesc(d, 0, options).catch(() => '')));
  return xmls.some((xml) => {
    const used = usedSources(xml);
    return used.files.has(path) || used.volumes.has(`${vol.pool}/${vol.name}`);
  });
}

/**
 * Deletes the volume `key` (one already gone is fine), unless a running guest uses it: then it stays, marked for
 * release. Returns what it did.
 */
export async function deleteOrRelease(client: LibvirtClient, key: string, options?: CallOptions): Promise<'deleted' | 'marked' | 'gone'> {
  const vol = await volumeByKey(client, key, options);
  if (!vol) return 'gone';
  const path = await client.storageVolGetPath(vol, options);
  if (await inUseByRunningDomain(client, vol, path, options)) {
    const pool = await client.storagePoolLookupByName(vol.pool, options);
    if (!(await volumeByName(client, pool, releaseMarkName(vol.name), options)))
      await client.storageVolCreateXml(pool, volumeXml({ name: releaseMarkName(vol.name), capacity: 0, format: 'raw' }), 0, options);
    return 'marked';
  }
  await deleteQuietly(client, vol, options);
  return 'deleted';
}

async function deleteQuietly(client: LibvirtClient, vol: VolRef, options?: CallOptions): Promise<void> {
  await client.storageVolDelete(vol, 0, options).catch((err) => {
    if (!isNotFound(err)) throw err;
  });
}

/**
 * After a domain let go of the volumes `keys` (and their backing images), deletes those marked for release that no
 * running guest uses any more, with their marks. Returns the names deleted.
 */
export async function releaseVolumes(client: LibvirtClient, keys: readonly string[], options?: CallOptions): Promise<string[]> {
  const released: string[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    // The volume, then down its backing chain (an overlay's base image may be released with it).
    let vol = await volumeByKey(client, key, options);
    while (vol && !seen.has(vol.key)) {
      seen.add(vol.key);
      const xml = await client.storageVolGetXmlDesc(vol, 0, options);
      const backing = backingPathFromXml(xml);
      const pool = await client.storagePoolLookupByName(vol.pool, options);
      const mark = await volumeByName(client, pool, releaseMarkName(vol.name), options);
      if (mark && !(await inUseByRunningDomain(client, vol, await client.storageVolGetPath(vol, options), options))) {
        await deleteQuietly(client, vol, options);
        await deleteQuietly(client, mark, options);
        released.push(`${vol.pool}/${vol.name}`);
      }
      vol = backing ? await volumeByPath(client, backing, options) : null;
    }
  }
  return released;
}
