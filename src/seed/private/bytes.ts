/** Text/byte conversions. */

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Decodes UTF-8; `undefined` when the bytes are not valid UTF-8 (i.e. binary content). */
export function tryDecodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Strict base64 check (RFC 4648 alphabet, padded, whitespace ignored). */
export function isBase64(text: string): boolean {
  const compact = text.replace(/\s+/g, '');
  return compact.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(compact);
}
