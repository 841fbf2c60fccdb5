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

/**
 * UTF-8 bytes of `pieces.join('')` where every odd piece is known to be ASCII (e.g. base64 from
 * `stableYamlPieces`): those are copied byte for byte instead of being encoded. Same bytes as `utf8(joined)`.
 */
export function utf8OfPieces(pieces: readonly string[]): Uint8Array {
  if (pieces.length === 1) return utf8(pieces[0]);
  const encoded = pieces.map((p, i) => (i % 2 === 0 ? encoder.encode(p) : p));
  const total = encoded.reduce((n, e) => n + e.length, 0);
  const out = new Uint8Array(total);
  const view = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  let offset = 0;
  for (const e of encoded) {
    if (typeof e === 'string') view.write(e, offset, 'latin1');
    else out.set(e, offset);
    offset += e.length;
  }
  return out;
}
