/** System Use Sharing Protocol (SUSP 1.12) and Rock Ridge (RRIP 1.12) entries, as bytes. */
import { RRIP_EXT_DESCRIPTOR, RRIP_EXT_ID, RRIP_EXT_SOURCE } from './constants';

/** Length of a CE entry (SUSP 1.12 5.1). */
export const CE_LENGTH = 28;

const utf8 = new TextEncoder();

function entry(signature: string, length: number): { bytes: Uint8Array; view: DataView } {
  const bytes = new Uint8Array(length);
  bytes[0] = signature.charCodeAt(0);
  bytes[1] = signature.charCodeAt(1);
  bytes[2] = length;
  bytes[3] = 1; // System Use Entry Version
  return { bytes, view: new DataView(bytes.buffer) };
}

function both32(view: DataView, offset: number, value: number): void {
  view.setUint32(offset, value, true);
  view.setUint32(offset + 4, value, false);
}

/** SUSP 1.12 5.3 SP: marks SUSP use; first entry of the root's "." record. Check bytes BE EF, LEN_SKP 0. */
export function spEntry(): Uint8Array {
  const { bytes } = entry('SP', 7);
  bytes[4] = 0xbe;
  bytes[5] = 0xef;
  bytes[6] = 0;
  return bytes;
}

/** SUSP 1.12 5.1 CE: the rest of this System Use field is `length` bytes at `block`:`offset`. */
export function ceEntry(block: number, offset: number, length: number): Uint8Array {
  const { bytes, view } = entry('CE', CE_LENGTH);
  both32(view, 4, block);
  both32(view, 12, offset);
  both32(view, 20, length);
  return bytes;
}

/** SUSP 1.12 5.5 ER naming the Rock Ridge extension (RRIP 1.12 4.3, identifier `RRIP_1991A`, version 1). */
export function erEntry(): Uint8Array {
  const id = utf8.encode(RRIP_EXT_ID);
  const descriptor = utf8.encode(RRIP_EXT_DESCRIPTOR);
  const source = utf8.encode(RRIP_EXT_SOURCE);
  const { bytes } = entry('ER', 8 + id.length + descriptor.length + source.length);
  bytes[4] = id.length;
  bytes[5] = descriptor.length;
  bytes[6] = source.length;
  bytes[7] = 1; // EXT_VER
  bytes.set(id, 8);
  bytes.set(descriptor, 8 + id.length);
  bytes.set(source, 8 + id.length + descriptor.length);
  return bytes;
}

/**
 * RRIP 1.12 4.1.1 PX: POSIX mode, link count, uid, gid (each both-endian 32-bit). Written in the 36-byte form
 * (without the file serial number) that `RRIP_1991A` readers and genisoimage use.
 */
export function pxEntry(mode: number, links: number, uid: number, gid: number): Uint8Array {
  const { bytes, view } = entry('PX', 36);
  both32(view, 4, mode);
  both32(view, 12, links);
  both32(view, 20, uid);
  both32(view, 28, gid);
  return bytes;
}

/** RRIP 1.12 4.1.4 NM: the file's POSIX name (UTF-8 bytes), flags 0, in one entry (names here are ≤ 192 bytes). */
export function nmEntry(name: string): Uint8Array {
  const encoded = utf8.encode(name);
  const { bytes } = entry('NM', 5 + encoded.length);
  bytes[4] = 0;
  bytes.set(encoded, 5);
  return bytes;
}
