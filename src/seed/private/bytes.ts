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

/** Bytes {@link Utf8Pieces.writeInto} writes between two progress reports. */
export const WRITE_CHUNK_BYTES = 1024 * 1024;

/**
 * The UTF-8 bytes of `pieces.join('')` where every odd piece is known to be ASCII (e.g. base64 from
 * `stableYamlPieces`), not yet written anywhere: `length` is known at once, and `writeInto` writes them straight
 * into a target (e.g. the ISO image), so a large payload is written once (issue #15). Even pieces are encoded;
 * odd ones are copied byte for byte. Same bytes as `utf8(joined)`. Implements iso9660's `FileContent`.
 */
export class Utf8Pieces {
  private readonly parts: readonly (Uint8Array | string)[];
  /** Byte length. */
  readonly length: number;

  constructor(pieces: readonly string[]) {
    this.parts = pieces.map((p, i) => (i % 2 === 0 ? encoder.encode(p) : p));
    this.length = this.parts.reduce((n, e) => n + e.length, 0);
  }

  /**
   * Writes the bytes into `target` at byte `offset` (`target` must have `length` bytes free there), front to back.
   * `written`, when given, hears the count of bytes written so far every {@link WRITE_CHUNK_BYTES} or less, and
   * `length` at the end (as iso9660's `FileContent.writeInto`).
   */
  writeInto(target: Uint8Array, offset: number, written?: (bytes: number) => void): void {
    const view = Buffer.from(target.buffer, target.byteOffset, target.byteLength);
    const step = written ? WRITE_CHUNK_BYTES : Infinity;
    let at = offset;
    for (const part of this.parts) {
      for (let i = 0; i < part.length; i += step) {
        const end = Math.min(i + step, part.length);
        const whole = i === 0 && end === part.length;
        if (typeof part === 'string') view.write(whole ? part : part.slice(i, end), at + i, 'latin1');
        else target.set(whole ? part : part.subarray(i, end), at + i);
        if (end < part.length) written?.(at + end - offset);
      }
      at += part.length;
      written?.(at - offset);
    }
  }

  /** Feeds the bytes to a hash (or anything with `update`) piece by piece, without joining them. */
  updateHash(hash: { update(data: Uint8Array | string, encoding?: 'latin1'): unknown }): void {
    for (const part of this.parts) {
      if (typeof part === 'string') hash.update(part, 'latin1');
      else hash.update(part);
    }
  }

  /** The bytes in a new buffer. */
  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    this.writeInto(out, 0);
    return out;
  }
}

/** Bytes, or {@link Utf8Pieces} still to be written. */
export type SeedBytes = Uint8Array | Utf8Pieces;

/** The bytes of a {@link SeedBytes} as one buffer (the same buffer when it already is one). */
export function materialize(bytes: SeedBytes): Uint8Array {
  return bytes instanceof Uint8Array ? bytes : bytes.bytes();
}
