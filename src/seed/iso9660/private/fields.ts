/** Writers of the numeric, date and character fields shared by every ISO 9660 structure (ECMA-119 7.x). */
import { FIXED_DATE } from './constants';

/** 7.2.3: 16-bit value, both-byte orders (little-endian then big-endian), 4 bytes. */
export function setBoth16(view: DataView, offset: number, value: number): void {
  view.setUint16(offset, value, true);
  view.setUint16(offset + 2, value, false);
}

/** 7.3.3: 32-bit value, both-byte orders (little-endian then big-endian), 8 bytes. */
export function setBoth32(view: DataView, offset: number, value: number): void {
  view.setUint32(offset, value, true);
  view.setUint32(offset + 4, value, false);
}

/** Writes `text` (ASCII) at `offset`, padded with spaces (0x20) to `length` bytes (ECMA-119 7.4.3). */
export function setAsciiPadded(bytes: Uint8Array, offset: number, length: number, text: string): void {
  for (let i = 0; i < length; i++) bytes[offset + i] = i < text.length ? text.charCodeAt(i) : 0x20;
}

/** Writes `text` as UCS-2 big-endian, padded with U+0020 to `length` bytes; an odd last byte stays 0 (Joliet 5.2). */
export function setUcs2Padded(bytes: Uint8Array, offset: number, length: number, text: string): void {
  for (let i = 0; i + 1 < length; i += 2) {
    const code = i / 2 < text.length ? text.charCodeAt(i / 2) : 0x20;
    bytes[offset + i] = code >> 8;
    bytes[offset + i + 1] = code & 0xff;
  }
}

/** UTF-16 big-endian bytes of `text` (Joliet identifiers are UCS-2 big-endian, Joliet 3.3). */
export function utf16be(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[2 * i] = code >> 8;
    out[2 * i + 1] = code & 0xff;
  }
  return out;
}

/** Decodes UTF-16 big-endian bytes. */
export function fromUtf16be(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode((bytes[i] << 8) | bytes[i + 1]);
  return out;
}

/** 8.4.26.1: the 17-byte volume date `YYYYMMDDHHMMSScc` + GMT offset, here always {@link FIXED_DATE}, offset 0. */
export function setVolumeDate(bytes: Uint8Array, offset: number): void {
  const d = FIXED_DATE;
  const digits =
    String(d.year).padStart(4, '0') + [d.month, d.day, d.hour, d.minute, d.second].map((n) => String(n).padStart(2, '0')).join('') + '00';
  setAsciiPadded(bytes, offset, 16, digits);
  bytes[offset + 16] = 0;
}

/** 8.4.26.1: a volume date "not specified": sixteen '0' digits and a zero offset. */
export function setUnspecifiedVolumeDate(bytes: Uint8Array, offset: number): void {
  setAsciiPadded(bytes, offset, 16, '0000000000000000');
  bytes[offset + 16] = 0;
}

/** 9.1.5: the 7-byte recording date (years since 1900, month, day, hour, minute, second, GMT offset). */
export function setRecordingDate(bytes: Uint8Array, offset: number): void {
  const d = FIXED_DATE;
  bytes[offset] = d.year - 1900;
  bytes[offset + 1] = d.month;
  bytes[offset + 2] = d.day;
  bytes[offset + 3] = d.hour;
  bytes[offset + 4] = d.minute;
  bytes[offset + 5] = d.second;
  bytes[offset + 6] = 0;
}
