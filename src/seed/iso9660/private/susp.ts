/** System Use Sharing Protocol (SUSP 1.12) and Rock Ridge (RRIP 1.12) entries, as bytes. */
import { RRIP_EXT_DESCRIPTOR, RRIP_EXT_ID, RRIP_EXT_SOURCE } from './constants';
import { setBoth32 } from './fields';
import { CE, ER, NM, PX, SP, SUE } from './offsets';

/** Length of a CE entry (SUSP 1.12 5.1). */
export const CE_LENGTH = 28;

const utf8 = new TextEncoder();

function entry(signature: string, length: number): { bytes: Uint8Array; view: DataView } {
  const bytes = new Uint8Array(length);
  bytes[SUE.signature] = signature.charCodeAt(0);
  bytes[SUE.signature + 1] = signature.charCodeAt(1);
  bytes[SUE.length] = length;
  bytes[SUE.version] = 1; // System Use Entry Version
  return { bytes, view: new DataView(bytes.buffer) };
}

/** SUSP 1.12 5.3 SP: marks SUSP use; first entry of the root's "." record. Check bytes BE EF, LEN_SKP 0. */
export function spEntry(): Uint8Array {
  const { bytes } = entry('SP', 7);
  bytes[SP.check] = 0xbe;
  bytes[SP.check + 1] = 0xef;
  bytes[SP.skip] = 0;
  return bytes;
}

/** SUSP 1.12 5.1 CE: the rest of this System Use field is `length` bytes at `block`:`offset`. */
export function ceEntry(block: number, offset: number, length: number): Uint8Array {
  const { bytes, view } = entry('CE', CE_LENGTH);
  setBoth32(view, CE.block, block);
  setBoth32(view, CE.offset, offset);
  setBoth32(view, CE.length, length);
  return bytes;
}

/** SUSP 1.12 5.5 ER naming the Rock Ridge extension (RRIP 1.12 4.3, identifier `RRIP_1991A`, version 1). */
export function erEntry(): Uint8Array {
  const id = utf8.encode(RRIP_EXT_ID);
  const descriptor = utf8.encode(RRIP_EXT_DESCRIPTOR);
  const source = utf8.encode(RRIP_EXT_SOURCE);
  const { bytes } = entry('ER', ER.texts + id.length + descriptor.length + source.length);
  bytes[ER.idLength] = id.length;
  bytes[ER.descriptorLength] = descriptor.length;
  bytes[ER.sourceLength] = source.length;
  bytes[ER.version] = 1; // EXT_VER
  bytes.set(id, ER.texts);
  bytes.set(descriptor, ER.texts + id.length);
  bytes.set(source, ER.texts + id.length + descriptor.length);
  return bytes;
}

/**
 * RRIP 1.12 4.1.1 PX: POSIX mode, link count, uid, gid (each both-endian 32-bit). Written in the 36-byte form
 * (without the file serial number) that `RRIP_1991A` readers and genisoimage use.
 */
export function pxEntry(mode: number, links: number, uid: number, gid: number): Uint8Array {
  const { bytes, view } = entry('PX', 36);
  setBoth32(view, PX.mode, mode);
  setBoth32(view, PX.links, links);
  setBoth32(view, PX.uid, uid);
  setBoth32(view, PX.gid, gid);
  return bytes;
}

/** RRIP 1.12 4.1.4 NM: the file's POSIX name (UTF-8 bytes), flags 0, in one entry (names here are ≤ 192 bytes). */
export function nmEntry(name: string): Uint8Array {
  const encoded = utf8.encode(name);
  const { bytes } = entry('NM', NM.name + encoded.length);
  bytes[NM.flags] = 0;
  bytes.set(encoded, NM.name);
  return bytes;
}
