/**
 * RFC 2397 `data:` URLs as Ignition reads them in `source` fields: `data:[<mediatype>][;base64],<data>`.
 */
import type * as Zlib from 'node:zlib';

/** A resource's `source` and `compression` for inline content. */
export interface InlineSource {
  source: string;
  compression?: 'gzip';
}

/**
 * Encodes `content` (UTF-8 text or bytes) as a `data:` URL. Text whose percent-encoded form is no longer than its
 * base64 form is written as `data:,<percent-encoded>`; anything else as `data:;base64,<base64>`. With `gzip`,
 * the bytes are gzip-compressed first (zlib level 9; deterministic: the gzip header carries mtime 0) and
 * `compression: 'gzip'` is returned, as Ignition decompresses after decoding the URL.
 */
export function encodeDataUrl(content: string | Uint8Array, opts: { gzip?: boolean } = {}): InlineSource {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  if (opts.gzip) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: node:zlib loads only when used (issue #25)
    const packed = (require('node:zlib') as typeof Zlib).gzipSync(bytes, { level: 9 }); // loaded when used (issue #25)
    return { source: `data:;base64,${packed.toString('base64')}`, compression: 'gzip' };
  }
  const base64 = bytes.toString('base64');
  const text = decodeUtf8(bytes);
  if (text !== undefined) {
    const plain = percentEncode(text);
    if (plain.length <= base64.length) return { source: `data:,${plain}` };
  }
  return { source: `data:;base64,${base64}` };
}

/** A decoded `data:` URL. */
export interface DataUrl {
  /** Media type as written (may be empty: RFC 2397 then means `text/plain;charset=US-ASCII`). */
  mediaType: string;
  base64: boolean;
  data: Uint8Array;
}

/**
 * Decodes a `data:` URL. Throws `Error` with a message saying what is wrong (no comma, bad base64 character,
 * bad percent escape) when `url` is not a valid data URL.
 */
export function parseDataUrl(url: string): DataUrl {
  if (!/^data:/i.test(url)) throw new Error('does not start with "data:"');
  const comma = url.indexOf(',');
  if (comma < 0) throw new Error('has no "," between the media type and the data');
  const header = url.slice(5, comma);
  const payload = url.slice(comma + 1);
  const params = header.split(';');
  const base64 = params.length > 1 && params[params.length - 1].toLowerCase() === 'base64';
  const mediaType = (base64 ? params.slice(0, -1) : params).join(';');
  if (base64) {
    const compact = percentDecode(payload).toString('latin1');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
      throw new Error('has characters or a length that are not valid base64 after ";base64,"');
    }
    return { mediaType, base64, data: Buffer.from(compact, 'base64') };
  }
  return { mediaType, base64, data: percentDecode(payload) };
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

// Characters left as they are: RFC 3986 unreserved plus a few path-safe ones. `+` is escaped because some
// decoders read it as a space.
function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/%(2F|3A|40|2C)/g, (m) => decodeURIComponent(m));
}

function percentDecode(text: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25) {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Error(`has an invalid percent escape at character ${i}`);
      out.push(parseInt(hex, 16));
      i += 2;
    } else {
      const cp = text.codePointAt(i) as number;
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) out.push(b);
      if (cp > 0xffff) i++;
    }
  }
  return Buffer.from(out);
}
