/**
 * The internal snapshots a qcow2 image itself holds, read from its bytes (QEMU docs/interop/qcow2.txt: the header's
 * `version`, `l1_size`, `l1_table_offset`, `nb_snapshots` and `snapshots_offset`; the snapshot table's entries). libvirt's list
 * of a domain's snapshots is its own record, which can differ from the disk (docs/FACTS.md "Snapshots: a running UEFI
 * guest's snapshot delete leaves the data in the qcow2"), and a revert of a name the disk holds twice restores the
 * oldest; so virtseed checks the disk itself. Pure: the caller reads the bytes (e.g. virStorageVolDownload).
 */

/** The qcow2 header fields the snapshot checks need (all offsets in bytes from the image's start). */
export interface Qcow2Header {
  /** The format version: 2 (compat 0.10) or 3 (compat 1.1). */
  readonly version: number;
  /** Entries (8 bytes each) of the active L1 table. */
  readonly l1Size: number;
  readonly l1TableOffset: number;
  readonly nbSnapshots: number;
  readonly snapshotsOffset: number;
}

/** One entry of a qcow2 snapshot table. */
export interface Qcow2Snapshot {
  /** QEMU's unique id (`1`, `2`, …). */
  readonly id: string;
  /** The tag libvirt names the snapshot by (not unique on disk). */
  readonly name: string;
  /** When it was taken, seconds since the epoch. */
  readonly dateSec: number;
  readonly l1Size: number;
  readonly l1TableOffset: number;
}

/** Bytes to read from an image's start for parseQcow2Header. */
export const QCOW2_HEADER_BYTES = 72;

const MAGIC = 0x514649fb; // 'Q' 'F' 'I' 0xfb

/** A 64-bit big-endian offset as a number (qcow2 offsets stay far below 2^53). */
function u64(buf: Uint8Array, at: number): number {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  return v.getUint32(at) * 2 ** 32 + v.getUint32(at + 4);
}

/**
 * The header of a qcow2 image from its first QCOW2_HEADER_BYTES bytes.
 * @throws Error when the bytes are too few or not a qcow2 header (its magic).
 */
export function parseQcow2Header(bytes: Uint8Array): Qcow2Header {
  if (bytes.length < QCOW2_HEADER_BYTES) throw new Error(`a qcow2 header is ${QCOW2_HEADER_BYTES} bytes; got ${bytes.length}`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0) !== MAGIC) throw new Error('not a qcow2 image (its first bytes are not QFI\\xfb)');
  return {
    version: v.getUint32(4),
    l1Size: v.getUint32(36),
    l1TableOffset: u64(bytes, 40),
    nbSnapshots: v.getUint32(60),
    snapshotsOffset: u64(bytes, 64),
  };
}

/**
 * The first `count` entries of a qcow2 snapshot table read from `bytes` (which start at the header's
 * snapshotsOffset), or null when `bytes` ends before the last of them (read more and call again).
 */
export function parseQcow2Snapshots(bytes: Uint8Array, count: number): Qcow2Snapshot[] | null {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (at: number, n: number) => Buffer.from(bytes.buffer, bytes.byteOffset + at, n).toString('utf8');
  const out: Qcow2Snapshot[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 40 > bytes.length) return null;
    const idSize = v.getUint16(at + 12);
    const nameSize = v.getUint16(at + 14);
    const extra = v.getUint32(at + 36);
    const end = at + 40 + extra + idSize + nameSize;
    if (end > bytes.length) return null;
    out.push({
      id: text(at + 40 + extra, idSize),
      name: text(at + 40 + extra + idSize, nameSize),
      dateSec: v.getUint32(at + 16),
      l1Size: v.getUint32(at + 8),
      l1TableOffset: u64(bytes, at),
    });
    at = Math.ceil(end / 8) * 8;
  }
  return out;
}

/**
 * Whether two L1 tables (8-byte big-endian entries) point at the same L2 tables: the entries compared without bit 63
 * (QCOW_OFLAG_COPIED, which says whether the cluster is shared and so differs between a snapshot and the active
 * table right after a revert copied one into the other).
 */
export function sameL1Table(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length || a.length % 8 !== 0) return false;
  for (let i = 0; i < a.length; i++) if ((i % 8 === 0 ? a[i] & 0x7f : a[i]) !== (i % 8 === 0 ? b[i] & 0x7f : b[i])) return false;
  return true;
}
