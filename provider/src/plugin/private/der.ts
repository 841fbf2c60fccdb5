/**
 * A minimal DER writer (ITU-T X.690 §8, §10): just the types an X.509 v3 certificate (RFC 5280 §4.1) needs.
 * Each function returns the complete encoding (tag, length, content) of one value.
 */

/** Tag, definite length (short form below 128, long form above: X.690 §8.1.3) and content. */
function tlv(tag: number, content: Uint8Array): Buffer {
  const n = content.length;
  let len: number[];
  if (n < 0x80) len = [n];
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = [0x80 | bytes.length, ...bytes];
  }
  return Buffer.concat([Buffer.from([tag, ...len]), content]);
}

export const sequence = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Uint8Array[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (content: Uint8Array): Buffer => tlv(0x04, content);
export const boolean = (value: boolean): Buffer => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
/** A context-specific constructed tag `[n] EXPLICIT`. */
export const explicit = (n: number, content: Uint8Array): Buffer => tlv(0xa0 | n, content);
/** A context-specific primitive tag `[n] IMPLICIT` (e.g. GeneralName dNSName is `[2] IA5String`). */
export const implicitPrimitive = (n: number, content: Uint8Array): Buffer => tlv(0x80 | n, content);
export const printableString = (text: string): Buffer => tlv(0x13, Buffer.from(text, 'ascii'));

/** A BIT STRING whose first content byte is the count of unused bits in the last byte (X.690 §8.6). */
export function bitString(bytes: Uint8Array, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));
}

/** A non-negative INTEGER from big-endian magnitude bytes (minimal, with a 0x00 prefix when the top bit is set). */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  let bytes = Buffer.from(magnitude.subarray(i));
  if (bytes.length === 0) bytes = Buffer.from([0]);
  if (bytes[0] & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

/** An OBJECT IDENTIFIER from dotted form, e.g. `2.5.29.19` (X.690 §8.19). Throws on fewer than two arcs. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  if (arcs.length < 2 || arcs.some((a) => !Number.isInteger(a) || a < 0)) throw new Error(`bad OID ${dotted}`);
  const out: number[] = [];
  const values = [arcs[0] * 40 + arcs[1], ...arcs.slice(2)];
  for (const value of values) {
    const chunk: number[] = [value & 0x7f];
    for (let v = Math.floor(value / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** RFC 5280 §4.1.2.5 Time: UTCTime (YYMMDDHHMMSSZ) through 2049, GeneralizedTime (YYYYMMDDHHMMSSZ) from 2050. */
export function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '') + 'Z';
  const year = date.getUTCFullYear();
  return year < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii')) : tlv(0x18, Buffer.from(digits, 'ascii'));
}
