/** Writers of directory records (ECMA-119 9.1) and path table records (ECMA-119 9.4). */
import { setBoth16, setBoth32, setRecordingDate } from './fields';
import { DR } from './offsets';

/** Where a record points: first block and byte length of the extent (ECMA-119 9.1.3, 9.1.4). */
export interface Extent {
  readonly block: number;
  readonly size: number;
}

/**
 * Writes one directory record of `length` bytes at `offset` (ECMA-119 9.1): the extent, the data length, the
 * fixed recording date, `flags`, volume sequence number 1, the identifier, a padding byte when the identifier
 * length is even (9.1.12), then the System Use entries (9.1.13). Unwritten bytes stay 0.
 */
export function writeDirectoryRecord(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  length: number,
  id: Uint8Array,
  flags: number,
  extent: Extent,
  systemUse: readonly Uint8Array[],
): void {
  bytes[offset + DR.length] = length;
  bytes[offset + DR.extAttrLength] = 0;
  setBoth32(view, offset + DR.extent, extent.block);
  setBoth32(view, offset + DR.dataLength, extent.size);
  setRecordingDate(bytes, offset + DR.recordingDate);
  bytes[offset + DR.flags] = flags;
  bytes[offset + DR.fileUnitSize] = 0;
  bytes[offset + DR.interleaveGap] = 0;
  setBoth16(view, offset + DR.volumeSequence, 1);
  bytes[offset + DR.idLength] = id.length;
  bytes.set(id, offset + DR.id);
  let at = offset + DR.id + id.length + (id.length % 2 === 0 ? 1 : 0);
  for (const entry of systemUse) {
    bytes.set(entry, at);
    at += entry.length;
  }
  if (at > offset + length) throw new Error('internal: directory record overflows its planned length');
}

/** The 34-byte root directory record of a volume descriptor (ECMA-119 8.4.18). */
export const ROOT_RECORD_LENGTH = 34;

/** A directory's entry in a path table (ECMA-119 9.4). */
export interface PathTableEntry {
  readonly id: Uint8Array;
  readonly block: number;
  readonly parentNumber: number;
}

/**
 * Writes a path table at `offset`: per directory the identifier length, extended attribute length 0, extent
 * location and parent directory number in the table's byte order (L: little-endian, 7.3.1/7.2.1; M: big-endian,
 * 7.3.2/7.2.2), the identifier and a padding byte when its length is odd.
 */
export function writePathTable(view: DataView, offset: number, entries: readonly PathTableEntry[], littleEndian: boolean): number {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let at = offset;
  for (const entry of entries) {
    bytes[at] = entry.id.length;
    bytes[at + 1] = 0;
    view.setUint32(at + 2, entry.block, littleEndian);
    view.setUint16(at + 6, entry.parentNumber, littleEndian);
    bytes.set(entry.id, at + 8);
    at += 8 + entry.id.length + (entry.id.length % 2);
  }
  return at - offset;
}
