/** Conversions between libvirt's 16-byte wire UUIDs and the canonical text form (RFC 9562 section 4). */

import { isUuid } from '../uuid';

/** `"8-4-4-4-12"` hex text (or the 32 digits without dashes) → 16 bytes. Throws RangeError for other input. */
export function uuidToBytes(uuid: string): Buffer {
  if (!isUuid(uuid) && !/^[0-9a-f]{32}$/i.test(uuid)) throw new RangeError(`not a UUID: "${uuid}" (expected 8-4-4-4-12 hex digits)`);
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

/** 16 bytes → lowercase `"8-4-4-4-12"` text. Throws RangeError for other lengths. */
export function bytesToUuid(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new RangeError(`a UUID has 16 bytes, got ${bytes.length}`);
  const h = Buffer.from(bytes).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
