/**
 * Writing the whole content of a raw volume (a seed ISO, an Ignition JSON, a seed copy), whatever its old and new
 * sizes, over the libvirt client (libvirt formatstorage, virStorageVol*).
 *
 * libvirt resizes a volume down only as far as its allocation: virStorageVolResize refuses a capacity below the
 * bytes the file has allocated ("can't shrink capacity below existing allocation"; a file with any data has at least
 * one 4 KiB block). So a volume that grows, or shrinks no further than its allocation, is resized and written in
 * place (the same file: a QEMU that has it open keeps its inode); one that must shrink below it is deleted and
 * created again under its name in its pool (the same path, and the same key in a file pool). Either way the result
 * is read back: its capacity is the length of the bytes and its sha256 theirs.
 */
import { createHash } from 'node:crypto';
import type { CallOptions, LibvirtClient, VolRef } from '../libvirt';
import { escapeXml } from '../snapshot';

/** virStorageVolResizeFlags: VIR_STORAGE_VOL_RESIZE_SHRINK. */
const VIR_STORAGE_VOL_RESIZE_SHRINK = 4;

/** Thrown when a volume does not read back as the bytes written into it. */
export class VolumeWriteError extends Error {
  constructor(
    readonly volume: string,
    message: string,
  ) {
    super(`volume ${volume}: ${message}`);
    this.name = 'VolumeWriteError';
  }
}

/**
 * Makes raw volume `vol` hold exactly `bytes` (its capacity their length), then checks it. Returns the volume
 * written: `vol`, or the one created in its place (see the module docstring).
 * @throws VolumeWriteError when the volume reads back otherwise; LibvirtError from libvirt.
 */
export async function writeVolumeBytes(client: LibvirtClient, vol: VolRef, bytes: Uint8Array, options?: CallOptions): Promise<VolRef> {
  const info = await client.storageVolGetInfo(vol, options);
  let written = vol;
  if (info.capacity === bytes.length || bytes.length >= info.allocation) {
    if (info.capacity !== bytes.length)
      await client.storageVolResize(vol, bytes.length, bytes.length < info.capacity ? VIR_STORAGE_VOL_RESIZE_SHRINK : 0, options);
  } else {
    const pool = await client.storagePoolLookupByName(vol.pool, options);
    await client.storageVolDelete(vol, 0, options);
    const xml = `<volume><name>${escapeXml(vol.name)}</name><capacity unit='bytes'>${bytes.length}</capacity><target><format type='raw'/></target></volume>`;
    written = await client.storageVolCreateXml(pool, xml, 0, options);
  }
  await client.storageVolUpload(written, bytes, 0, bytes.length, options);
  await checkVolumeBytes(client, written, bytes, options);
  return written;
}

/** Checks that `vol` holds exactly `bytes`. @throws VolumeWriteError when it does not. */
export async function checkVolumeBytes(client: LibvirtClient, vol: VolRef, bytes: Uint8Array, options?: CallOptions): Promise<void> {
  const where = `${vol.pool}/${vol.name}`;
  const { capacity } = await client.storageVolGetInfo(vol, options);
  if (capacity !== bytes.length) throw new VolumeWriteError(where, `${bytes.length} bytes were written, but its capacity is ${capacity}`);
  const hash = createHash('sha256');
  for await (const chunk of client.storageVolDownloadStream(vol, 0, bytes.length, options)) hash.update(chunk);
  const [got, wanted] = [hash.digest('hex'), createHash('sha256').update(bytes).digest('hex')];
  if (got !== wanted) throw new VolumeWriteError(where, `it reads back with sha256 ${got}, not ${wanted} (the bytes written)`);
}
