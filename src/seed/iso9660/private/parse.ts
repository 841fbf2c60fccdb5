/** Readers of the on-disk structures: volume descriptors, directory records and System Use entries. */
import {
  FIRST_DESCRIPTOR_SECTOR,
  FLAG_DIRECTORY,
  FLAG_MULTI_EXTENT,
  JOLIET_ESCAPES,
  SECTOR_SIZE,
  STANDARD_ID,
  VD_PRIMARY,
  VD_SUPPLEMENTARY,
  VD_TERMINATOR,
} from './constants';
import { CE, CL, DR, ER, NM, SP, SUE, VD, VD_LENGTH } from './offsets';
import type { Extent } from './records';

const MAX_DESCRIPTORS = 64;
const MAX_CONTINUATIONS = 64;

/** Throws unless `length` bytes at `offset` lie inside the image. */
export function need(image: Uint8Array, offset: number, length: number, what: string): void {
  if (offset < 0 || offset + length > image.length) {
    throw new Error(`Invalid ISO image: ${what} at byte ${offset} (+${length}) lies beyond the image (${image.length} bytes)`);
  }
}

const le32 = (image: Uint8Array, at: number) => (image[at] | (image[at + 1] << 8) | (image[at + 2] << 16) | (image[at + 3] << 24)) >>> 0;
const asciiAt = (image: Uint8Array, at: number, length: number) => String.fromCharCode(...image.subarray(at, at + length));

export interface Volumes {
  readonly volumeId: string;
  readonly primaryRoot: Extent;
  readonly jolietRoot?: Extent;
}

function rootExtent(image: Uint8Array, descriptor: number): Extent {
  const root = descriptor + VD.rootRecord;
  return { block: le32(image, root + DR.extent), size: le32(image, root + DR.dataLength) };
}

/** Reads the volume descriptor set from sector 16 to the terminator (ECMA-119 8.1, 8.3, 8.4; Joliet 5.1). */
export function readVolumes(image: Uint8Array): Volumes {
  let primary: number | undefined;
  let joliet: number | undefined;
  for (let i = 0; i < MAX_DESCRIPTORS; i++) {
    const at = (FIRST_DESCRIPTOR_SECTOR + i) * SECTOR_SIZE;
    need(image, at, SECTOR_SIZE, `volume descriptor ${i}`);
    if (asciiAt(image, at + VD.standardId, STANDARD_ID.length) !== STANDARD_ID) {
      throw new Error(`Not an ISO 9660 image: sector ${FIRST_DESCRIPTOR_SECTOR + i} has no "${STANDARD_ID}" volume descriptor`);
    }
    const type = image[at + VD.type];
    if (type === VD_TERMINATOR) break;
    if (type === VD_PRIMARY && primary === undefined) primary = at;
    if (
      type === VD_SUPPLEMENTARY &&
      joliet === undefined &&
      (JOLIET_ESCAPES as readonly string[]).includes(asciiAt(image, at + VD.escapeSequences, VD_LENGTH.escapeSequences))
    ) {
      joliet = at;
    }
  }
  if (primary === undefined) throw new Error('Not an ISO 9660 image: no primary volume descriptor');
  return {
    volumeId: asciiAt(image, primary + VD.volumeId, VD_LENGTH.volumeId).replace(/[ \0]+$/, ''),
    primaryRoot: rootExtent(image, primary),
    jolietRoot: joliet === undefined ? undefined : rootExtent(image, joliet),
  };
}

/** One directory record (ECMA-119 9.1), as read. */
export interface DirectoryRecord {
  readonly extent: Extent;
  readonly flags: number;
  readonly id: Uint8Array;
  /** Byte range of the System Use field (9.1.13) in the image. */
  readonly systemUse: readonly [number, number];
}

export const isDirectory = (r: DirectoryRecord) => (r.flags & FLAG_DIRECTORY) !== 0;
export const isMultiExtent = (r: DirectoryRecord) => (r.flags & FLAG_MULTI_EXTENT) !== 0;
export const isSelfOrParent = (r: DirectoryRecord) => r.id.length === 1 && r.id[0] <= 1;

/** Reads the records of a directory extent; a zero length byte means "continue at the next sector" (6.8.1.1). */
export function readDirectory(image: Uint8Array, dir: Extent): DirectoryRecord[] {
  const start = dir.block * SECTOR_SIZE;
  need(image, start, dir.size, 'directory extent');
  const records: DirectoryRecord[] = [];
  let pos = 0;
  while (pos < dir.size) {
    const length = image[start + pos + DR.length];
    if (length === 0) {
      pos = (Math.floor(pos / SECTOR_SIZE) + 1) * SECTOR_SIZE;
      continue;
    }
    const at = start + pos;
    const idLength = image[at + DR.idLength];
    if (length < DR.id + 1 || pos + length > dir.size || DR.id + idLength > length) {
      throw new Error(`Invalid ISO image: malformed directory record at byte ${at}`);
    }
    const suStart = at + DR.id + idLength + (idLength % 2 === 0 ? 1 : 0);
    records.push({
      extent: { block: le32(image, at + DR.extent), size: le32(image, at + DR.dataLength) },
      flags: image[at + DR.flags],
      id: image.subarray(at + DR.id, at + DR.id + idLength),
      systemUse: [Math.min(suStart, at + length), at + length],
    });
    pos += length;
  }
  return records;
}

/** What the Rock Ridge entries of one record say (RRIP 1.12 4.1). */
export interface RockRidgeInfo {
  name?: string;
  /** SUSP SP found (SUSP 1.12 5.3): its LEN_SKP. */
  skip?: number;
  /** ER identifiers found (SUSP 1.12 5.5). */
  extensions: string[];
  hasRockRidgeEntries: boolean;
  /** CL (RRIP 4.1.5.1): the relocated directory's block. */
  childLink?: number;
  /** RE (RRIP 4.1.5.2): this is a relocated directory, listed where its CL points from. */
  relocated: boolean;
  /** SL (RRIP 4.1.3): a symbolic link. */
  symlink: boolean;
}

const RRIP_SIGNATURES = new Set(['PX', 'PN', 'SL', 'NM', 'CL', 'PL', 'RE', 'TF', 'SF', 'RR']);

/** Walks the System Use entries from `start` (after `skip` bytes), following CE continuations (SUSP 1.12 5.1). */
export function readSystemUse(image: Uint8Array, range: readonly [number, number], skip: number): RockRidgeInfo {
  const info: RockRidgeInfo = { extensions: [], hasRockRidgeEntries: false, relocated: false, symlink: false };
  const nameParts: Uint8Array[] = [];
  let area: [number, number] | undefined = [range[0] + skip, range[1]];
  for (let hops = 0; area && hops <= MAX_CONTINUATIONS; hops++) {
    let pos = area[0];
    const end = area[1];
    area = undefined;
    while (pos + SUE.data <= end) {
      const signature = String.fromCharCode(image[pos + SUE.signature], image[pos + SUE.signature + 1]);
      const length = image[pos + SUE.length];
      if (length < SUE.data || pos + length > end) break;
      if (RRIP_SIGNATURES.has(signature)) info.hasRockRidgeEntries = true;
      if (signature === 'ST') break;
      if (signature === 'SP' && length > SP.skip && image[pos + SP.check] === 0xbe && image[pos + SP.check + 1] === 0xef)
        info.skip = image[pos + SP.skip];
      if (signature === 'CE' && length >= CE.length + 8) {
        const block = le32(image, pos + CE.block);
        const offset = le32(image, pos + CE.offset);
        const size = le32(image, pos + CE.length);
        need(image, block * SECTOR_SIZE + offset, size, 'SUSP continuation area');
        area = [block * SECTOR_SIZE + offset, block * SECTOR_SIZE + offset + size];
      }
      if (signature === 'ER' && length >= ER.texts) info.extensions.push(asciiAt(image, pos + ER.texts, image[pos + ER.idLength]));
      if (signature === 'NM' && length >= NM.name && (image[pos + NM.flags] & 0x06) === 0)
        nameParts.push(image.subarray(pos + NM.name, pos + length));
      if (signature === 'CL' && length >= CL.block + 8) info.childLink = le32(image, pos + CL.block);
      if (signature === 'RE') info.relocated = true;
      if (signature === 'SL') info.symlink = true;
      pos += length;
    }
  }
  if (nameParts.length) info.name = new TextDecoder().decode(Buffer.concat(nameParts));
  return info;
}
