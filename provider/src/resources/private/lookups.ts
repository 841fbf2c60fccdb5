/**
 * Look-ups that answer "this libvirt object, or null when the host has none": domains, networks, storage pools and
 * volumes.
 * Each turns only libvirt's own "no such object" error into null and lets every other error through (a lost
 * connection is not an absent object).
 */
import {
  LibvirtError,
  uuidToBytes,
  VIR_DOMAIN_XML_INACTIVE,
  VIR_ERR_NO_DOMAIN,
  VIR_ERR_NO_NETWORK,
  VIR_ERR_NO_STORAGE_POOL,
  VIR_ERR_NO_STORAGE_VOL,
  type CallOptions,
  type DomRef,
  type LibvirtClient,
  type NetRef,
  type PoolRef,
  type VolRef,
} from '../../../../src/libvirt';
import { parseDomainXml } from '../../../../src/domain';
import { isUuid } from '../../../../src/uuid';

/** True when `err` is libvirt's "no such domain". */
export function isNoDomain(err: unknown): boolean {
  return err instanceof LibvirtError && err.code === VIR_ERR_NO_DOMAIN;
}

/** True when `err` is libvirt's "no such network". */
function isNoNetwork(err: unknown): boolean {
  return err instanceof LibvirtError && err.code === VIR_ERR_NO_NETWORK;
}

/** True when `err` is libvirt's "no such storage volume" or "no such storage pool". */
export function isNotFound(err: unknown): boolean {
  return err instanceof LibvirtError && (err.code === VIR_ERR_NO_STORAGE_VOL || err.code === VIR_ERR_NO_STORAGE_POOL);
}

/** `call()`'s result, or null when it fails with an error `absent` recognises. */
async function orNull<T>(call: () => Promise<T>, absent: (err: unknown) => boolean): Promise<T | null> {
  try {
    return await call();
  } catch (err) {
    if (absent(err)) return null;
    throw err;
  }
}

/** The domain with `uuid` (any case, dashes optional), asked of libvirt directly, or null. */
export function domainByUuid(client: LibvirtClient, uuid: string): Promise<DomRef | null> {
  return orNull(() => client.domainLookupByUuid(uuidToBytes(uuid)), isNoDomain);
}

/**
 * The domain named `name`, and whether an interrupted create of virtseed's left it (its metadata still carries
 * `pendingKey`; a domain whose XML virtseed cannot read is not one it made). Null when libvirt has no such domain.
 */
export async function domainByName(
  client: LibvirtClient,
  name: string,
  pendingKey: string,
): Promise<{ dom: DomRef; interrupted: boolean } | null> {
  const dom = await orNull(() => client.domainLookupByName(name), isNoDomain);
  if (!dom) return null;
  const xml = await client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE);
  let interrupted = false;
  try {
    interrupted = Boolean(parseDomainXml(xml).metadata?.[pendingKey]);
  } catch {
    interrupted = false;
  }
  return { dom, interrupted };
}

/** The network with this UUID, or null. */
export function networkByUuid(client: LibvirtClient, uuid: string): Promise<NetRef | null> {
  return orNull(() => client.networkLookupByUuid(uuidToBytes(uuid)), isNoNetwork);
}

/** The network with this name, or null. */
export function networkByName(client: LibvirtClient, name: string): Promise<NetRef | null> {
  return orNull(() => client.networkLookupByName(name), isNoNetwork);
}

/** A network by UUID (a `virtseed_network.id`) or name, or null. */
export async function networkByRef(client: LibvirtClient, ref: string): Promise<NetRef | null> {
  return isUuid(ref) ? ((await networkByUuid(client, ref)) ?? networkByName(client, ref)) : networkByName(client, ref);
}

/** True when `err` is libvirt's "no such storage pool". */
function isNoPool(err: unknown): boolean {
  return err instanceof LibvirtError && err.code === VIR_ERR_NO_STORAGE_POOL;
}

/** The storage pool with this UUID, or null. */
export function poolByUuid(client: LibvirtClient, uuid: string): Promise<PoolRef | null> {
  return orNull(() => client.storagePoolLookupByUuid(uuidToBytes(uuid)), isNoPool);
}

/** The storage pool with this name, or null. */
export function poolByName(client: LibvirtClient, name: string): Promise<PoolRef | null> {
  return orNull(() => client.storagePoolLookupByName(name), isNoPool);
}

/** A storage pool by UUID (a `virtseed_pool.id`) or name, or null. */
export async function poolByRef(client: LibvirtClient, ref: string): Promise<PoolRef | null> {
  return isUuid(ref) ? ((await poolByUuid(client, ref)) ?? poolByName(client, ref)) : poolByName(client, ref);
}

/** The volume with this key, or null. */
export function volumeByKey(client: LibvirtClient, key: string, options?: CallOptions): Promise<VolRef | null> {
  return orNull(() => client.storageVolLookupByKey(key, options), isNotFound);
}

/** The volume with this name in the pool, or null. */
export function volumeByName(client: LibvirtClient, pool: PoolRef, name: string, options?: CallOptions): Promise<VolRef | null> {
  return orNull(() => client.storageVolLookupByName(pool, name, options), isNotFound);
}

/** The volume at this host path, or null. */
export function volumeByPath(client: LibvirtClient, path: string, options?: CallOptions): Promise<VolRef | null> {
  return orNull(() => client.storageVolLookupByPath(path, options), isNotFound);
}
