/**
 * Storage pool and volume operations the resources share, over the libvirt client (libvirt formatstorage).
 * Volume ids in Terraform state are libvirt volume keys (the file path for `dir` pools).
 */
import { createHash, createHmac } from 'node:crypto';
import { DomRef, LibvirtClient, PoolRef, VolRef, VIR_CONNECT_LIST_DOMAINS_ACTIVE, VIR_STORAGE_POOL_RUNNING } from '../../../../src/libvirt';
import type { CallOptions } from '../../../../src/libvirt';
import { Diagnostic, error } from '../../../../src/diagnostics';
import { writeVolumeBytes } from '../../../../src/ops/volume-bytes';
import { isNotFound, volumeByKey, volumeByName } from './lookups';
import { messageOf } from './values';

/** Looks up a pool by name and starts it when inactive. Throws LibvirtError (49 when missing). */
export async function activePool(client: LibvirtClient, name: string, options?: CallOptions): Promise<PoolRef> {
  const pool = await client.storagePoolLookupByName(name, options);
  const info = await client.storagePoolGetInfo(pool, options);
  if (info.state !== VIR_STORAGE_POOL_RUNNING) await client.storagePoolCreate(pool, 0, options);
  return pool;
}

/**
 * True when pool `name` exists but is not running: its volumes cannot be looked up then (libvirt finds volumes
 * of running pools only), so a read must not take a volume missing from it for one deleted.
 */
export async function isPoolInactive(client: LibvirtClient, name: string, options?: CallOptions): Promise<boolean> {
  try {
    return !(await client.storagePoolIsActive(await client.storagePoolLookupByName(name, options), options));
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/**
 * Volume XML (formatstorage "Storage volume XML"): name, capacity in bytes, target format, optional backing store,
 * optional allocation in bytes (absent: libvirt allocates the whole capacity of a raw file up front; 0: a sparse file).
 * A qcow2 volume is version 3 (`<compat>1.1</compat>`; libvirt's default is 0.10), which QEMU grows also while it
 * holds internal snapshots (./qcow2-snapshots.ts).
 */
export function volumeXml(v: {
  name: string;
  capacity: number;
  format: string;
  backing?: { path: string; format: string };
  allocation?: number;
}): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');
  const backing = v.backing
    ? `<backingStore><path>${esc(v.backing.path)}</path><format type='${esc(v.backing.format)}'/></backingStore>`
    : '';
  const allocation = v.allocation === undefined ? '' : `<allocation unit='bytes'>${v.allocation}</allocation>`;
  // qcow2 version 3: libvirt 9.0 makes version 2 (compat 0.10) unless told, and v2 files cannot hold the dirty
  // bitmaps that checkpoints and incremental backups need (docs/backups.md).
  const compat = v.format === 'qcow2' ? '<compat>1.1</compat>' : '';
  return (
    `<volume><name>${esc(v.name)}</name><capacity unit='bytes'>${v.capacity}</capacity>${allocation}` +
    `<target><format type='${esc(v.format)}'/>${compat}</target>${backing}</volume>`
  );
}

/** Pool types whose volumes are files: a raw volume created with allocation 0 is a sparse file there. */
export const FILE_POOL_TYPES: readonly string[] = ['dir', 'fs', 'netfs'];

/** True when the pool keeps volumes as files (libvirt pool `type` dir, fs or netfs). */
export async function isFilePool(client: LibvirtClient, pool: PoolRef, options?: CallOptions): Promise<boolean> {
  const type = /<pool[^>]*\stype=['"]([^'"]+)['"]/.exec(await client.storagePoolGetXmlDesc(pool, 0, options))?.[1];
  return type !== undefined && FILE_POOL_TYPES.includes(type);
}

/** The `<target><format type=...>` of a volume's XML (e.g. qcow2, raw), or undefined. */
export function volumeFormatFromXml(xml: string): string | undefined {
  const target = /<target>([\s\S]*?)<\/target>/.exec(xml)?.[1] ?? '';
  return /<format type=['"]([^'"]+)['"]/.exec(target)?.[1];
}

/** The backing store path of a volume's XML, or undefined. */
export function backingPathFromXml(xml: string): string | undefined {
  const b = /<backingStore>([\s\S]*?)<\/backingStore>/.exec(xml)?.[1];
  return b ? /<path>([^<]+)<\/path>/.exec(b)?.[1] : undefined;
}

/**
 * The name of the marker volume that says volume `name` of the same pool is being created and written. It exists
 * from before the volume is created until its content is complete, so a volume whose create was interrupted
 * (libvirtd killed, the provider killed, the connection dropped) is known as such on the next apply and is never
 * taken for a good one.
 */
export function pendingMarkerName(name: string): string {
  return `${name}.virtseed-incomplete`;
}

/** Creates the marker of `name` (an empty raw volume; one left from before is kept). */
async function markPending(client: LibvirtClient, pool: PoolRef, name: string, options?: CallOptions): Promise<void> {
  if (await volumeByName(client, pool, pendingMarkerName(name), options)) return;
  await client.storageVolCreateXml(pool, volumeXml({ name: pendingMarkerName(name), capacity: 0, format: 'raw' }), 0, options);
}

/** Deletes the marker of `name`, if any. */
async function clearPending(client: LibvirtClient, pool: PoolRef, name: string, options?: CallOptions): Promise<void> {
  const marker = await volumeByName(client, pool, pendingMarkerName(name), options);
  if (marker)
    await client.storageVolDelete(marker, 0, options).catch((err) => {
      if (!isNotFound(err)) throw err;
    });
}

/**
 * When an earlier create of `name` was interrupted (its marker is there), deletes what it left: the volume (a
 * partial upload) and the marker. Returns true when it removed something.
 */
export async function removeInterrupted(client: LibvirtClient, pool: PoolRef, name: string, options?: CallOptions): Promise<boolean> {
  if (!(await volumeByName(client, pool, pendingMarkerName(name), options))) return false;
  const partial = await volumeByName(client, pool, name, options);
  if (partial)
    await client.storageVolDelete(partial, 0, options).catch((err) => {
      if (!isNotFound(err)) throw err;
    });
  await clearPending(client, pool, name, options);
  return true;
}

/**
 * Creates volume `name` from `xml` and fills it with `fill` under its pending marker (see pendingMarkerName): an
 * interrupted create leaves the marker, a failed one deletes what it made. Returns the volume.
 * @throws VolumeCreatedError when the volume is complete but the marker's delete failed (its reply lost).
 */
export async function createMarked(
  client: LibvirtClient,
  pool: PoolRef,
  name: string,
  xml: string,
  fill: (vol: VolRef) => Promise<void>,
  options?: CallOptions,
): Promise<VolRef> {
  await markPending(client, pool, name, options);
  const vol = await client.storageVolCreateXml(pool, xml, 0, options);
  try {
    await fill(vol);
  } catch (err) {
    // Best effort: when libvirtd is gone, the marker stays and the next apply removes the partial volume.
    await client.storageVolDelete(vol, 0).catch(() => undefined);
    await clearPending(client, pool, name).catch(() => undefined);
    throw err;
  }
  await afterCreate(vol, () => clearPending(client, pool, name, options));
  return vol;
}

/**
 * A volume this apply created and filled, when a step after that failed (the marker's delete, reading the volume
 * back: typically the connection to libvirtd lost with the reply on its way). The apply returns the volume as a
 * partial new state with an error, so Terraform records it tainted and the next apply replaces it; without that the
 * volume would be held by no state and the next plan would refuse its name ("Volume exists already").
 * `reason` is the failed step's error.
 */
export class VolumeCreatedError extends Error {
  constructor(
    readonly vol: VolRef,
    readonly reason: unknown,
  ) {
    super(messageOf(reason));
    this.name = 'VolumeCreatedError';
  }
}

/** Runs `step` on volume `vol` just created; a failure is thrown as a {@link VolumeCreatedError} carrying `vol`. */
export async function afterCreate<T>(vol: VolRef, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw err instanceof VolumeCreatedError ? err : new VolumeCreatedError(vol, err);
  }
}

/**
 * Creates a raw volume holding exactly `bytes` (a seed ISO, an Ignition JSON), under a pending marker. Throws
 * when a volume of that name exists already (nothing is overwritten).
 */
async function createRawVolumeWith(
  client: LibvirtClient,
  pool: PoolRef,
  name: string,
  bytes: Uint8Array,
  options?: CallOptions,
): Promise<VolRef> {
  return createMarked(
    client,
    pool,
    name,
    volumeXml({ name, capacity: bytes.length, format: 'raw' }),
    (vol) => client.storageVolUpload(vol, bytes, 0, bytes.length, options),
    options,
  );
}

/** sha256 (hex) of a volume's first `length` bytes (its whole capacity when absent). */
export async function volumeSha256(client: LibvirtClient, vol: VolRef, length?: number, options?: CallOptions): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of client.storageVolDownloadStream(vol, 0, length ?? 0, options)) hash.update(chunk);
  return hash.digest('hex');
}

/** The diagnostic for a create that would overwrite a volume virtseed did not make. */
export function volumeExistsDiagnostic(pool: string, name: string): Diagnostic {
  return error(
    ['name'],
    'Volume exists already',
    `Pool ${pool} already has a volume named ${name}. virtseed does not overwrite volumes it did not create: delete it, or choose another name.`,
  );
}

/**
 * Stores `bytes` (a seed ISO, an Ignition JSON) as a raw volume: rewritten (writeVolumeBytes: in place unless it
 * shrinks below its allocation, then created again under its name) when the volume `key` still exists, else created as `name` in `pool`. Returns the volume and its host path, or null when `pool` already has a
 * volume `name` that is not ours (nothing is overwritten; report `volumeExistsDiagnostic`).
 * @throws VolumeCreatedError when a new volume was created and a step after that failed.
 */
export async function storeRawVolume(
  client: LibvirtClient,
  target: { key?: string; pool: string; name: string },
  bytes: Uint8Array,
  options?: CallOptions,
): Promise<{ vol: VolRef; path: string } | null> {
  let vol = target.key ? await volumeByKey(client, target.key, options) : null;
  if (vol) vol = await writeVolumeBytes(client, vol, bytes, options);
  else {
    const pool = await activePool(client, target.pool, options);
    await removeInterrupted(client, pool, target.name, options);
    if (await volumeByName(client, pool, target.name, options)) return null;
    const made = await createRawVolumeWith(client, pool, target.name, bytes, options);
    return { vol: made, path: await afterCreate(made, () => client.storageVolGetPath(made, options)) };
  }
  return { vol, path: await client.storageVolGetPath(vol, options) };
}

/** Path, size (bytes) and content sha256 of the raw volume `key`, or null when it no longer exists. */
export async function inspectRawVolume(
  client: LibvirtClient,
  key: string,
  options?: CallOptions,
  hmacKey?: Buffer,
): Promise<{ path: string; size: number; sha256: string } | null> {
  const vol = await volumeByKey(client, key, options);
  if (!vol) return null;
  const info = await client.storageVolGetInfo(vol, options);
  return {
    path: await client.storageVolGetPath(vol, options),
    size: info.capacity,
    sha256: hmacKey
      ? await volumeHmacSha256(client, vol, hmacKey, info.capacity, options)
      : await volumeSha256(client, vol, info.capacity, options),
  };
}

/** HMAC-SHA256 (hex) under `hmacKey` of a volume's first `length` bytes: a volume holding write-only content
 *  compared without a plain hash of it (./keyed.ts). */
export async function volumeHmacSha256(
  client: LibvirtClient,
  vol: VolRef,
  hmacKey: Buffer,
  length: number,
  options?: CallOptions,
): Promise<string> {
  const mac = createHmac('sha256', hmacKey);
  for await (const chunk of client.storageVolDownloadStream(vol, 0, length, options)) mac.update(chunk);
  return mac.digest('hex');
}

/** A running domain with a volume attached, and the disk's target there (e.g. `vdb`). */
export interface VolumeUser {
  readonly dom: DomRef;
  readonly target: string;
}

/**
 * The running domains that have `vol` attached (its pool/name, or its host path, as a disk source in their live
 * XML), each with the disk's target: who must resize the disk live instead of the storage driver, whose
 * qemu-img cannot write an image a running QEMU holds.
 */
export async function runningVolumeUsers(client: LibvirtClient, vol: VolRef, options?: CallOptions): Promise<VolumeUser[]> {
  const path = await client.storageVolGetPath(vol, options);
  const out: VolumeUser[] = [];
  for (const dom of await client.connectListAllDomains(VIR_CONNECT_LIST_DOMAINS_ACTIVE, options)) {
    const xml = await client.domainGetXmlDesc(dom, 0, options).catch(() => '');
    for (const disk of xml.match(/<disk\b[\s\S]*?<\/disk>/g) ?? []) {
      const source = /<source\b[^>]*>/.exec(disk)?.[0] ?? '';
      const attr = (name: string) => new RegExp(`\\s${name}=['"]([^'"]*)['"]`).exec(source)?.[1];
      const same = attr('file') === path || (attr('pool') === vol.pool && attr('volume') === vol.name);
      const target = /<target\b[^>]*\sdev=['"]([^'"]+)['"]/.exec(disk)?.[1];
      if (same && target) out.push({ dom, target });
    }
  }
  return out;
}
