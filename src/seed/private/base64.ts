/**
 * Linear-time base64 checks for payloads of many MiB (RFC 4648 §4 alphabet `A–Z a–z 0–9 + /`, `=` padding).
 *
 * The fast path decodes the text in fixed-size chunks into one small scratch buffer with Node's native decoder and
 * compares the decoded byte count with the count the text's length implies: the native decoder skips every
 * character outside its alphabet, so any such character makes the count short. Its alphabet also holds the
 * base64url characters `-` and `_`, which are looked for separately, and it reads a character above U+00FF by
 * its low byte, so the text must also be ASCII. Texts the fast path cannot decide (whitespace,
 * a length that is not a multiple of 4) go through an exact character loop.
 */

/** Characters per decoded chunk: a multiple of 4, so that chunks decode independently. */
const CHUNK_CHARS = 64 * 1024;
/** Below this length the character loop is as fast as the native decoder. */
const FAST_MIN_LENGTH = 1024;

const ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') ALPHABET[c.charCodeAt(0)] = 1;
const PAD = 61; // '='

let scratch: Buffer | undefined;

/** Long texts found valid by the fast path while a {@link withBase64Memo} scope runs (else `undefined`). */
let memo: string[] | undefined;

/**
 * Runs `fn` (synchronous) with the fast path's results remembered, so that one render checks a payload once
 * although validation, write_files generation and YAML writing each ask. Forgotten when `fn` returns.
 */
export function withBase64Memo<T>(fn: () => T): T {
  if (memo) return fn();
  memo = [];
  try {
    return fn();
  } finally {
    memo = undefined;
  }
}

/** Trailing `=` characters (at most 2 counted). */
function padding(text: string): number {
  const n = text.length;
  if (n > 0 && text.charCodeAt(n - 1) === PAD) return n > 1 && text.charCodeAt(n - 2) === PAD ? 2 : 1;
  return 0;
}

/**
 * `[A-Za-z0-9+/]*` followed by at most 2 `=`, with length a multiple of 4 — decided natively. `undefined` when
 * the fast path does not apply (short text or length not a multiple of 4); `false` is not final either (the text
 * may hold whitespace): callers fall back to their exact loop.
 */
function fastCompact(text: string): boolean | undefined {
  const n = text.length;
  if (n < FAST_MIN_LENGTH || n % 4 !== 0) return undefined;
  if (memo?.includes(text)) return true;
  const pad = padding(text);
  const firstPad = text.indexOf('=');
  if (firstPad !== -1 && firstPad < n - pad) return false;
  if (text.includes('-') || text.includes('_')) return false;
  // The native decoder reads a character above U+00FF by its low byte (U+0141 as 'A'): require ASCII.
  if (Buffer.byteLength(text, 'utf8') !== n) return false;
  const buf = (scratch ??= Buffer.allocUnsafe(CHUNK_CHARS));
  let decoded = 0;
  for (let i = 0; i < n; i += CHUNK_CHARS) decoded += buf.write(text.slice(i, i + CHUNK_CHARS), 0, 'base64');
  const valid = decoded === (n / 4) * 3 - pad;
  if (valid) memo?.push(text);
  return valid;
}

/** Exact loop: `[A-Za-z0-9+/]*={0,2}` over the characters that are not skipped (`skipSpace`: whitespace). Returns
 *  the count of non-skipped characters, or -1 when a character breaks the pattern. */
function scan(text: string, skipSpace: boolean): number {
  let count = 0;
  let pads = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (skipSpace && isSpace(c)) continue;
    if (c === PAD) {
      if (++pads > 2) return -1;
    } else if (pads > 0 || c >= 128 || ALPHABET[c] === 0) return -1;
    count++;
  }
  return count;
}

/** `\s` of a JavaScript regular expression. */
function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Bytes the base64 `text` decodes to, whitespace ignored, without decoding it: (characters other than whitespace)
 * × 3/4 minus the `=` padding (exact for valid base64). A text the fast path finds valid is not copied (a payload of
 * many MiB: issue #15), others are counted without their whitespace.
 */
export function base64DecodedLength(text: string): number {
  const compact = fastCompact(text) === true ? text : text.replace(/\s+/g, '');
  return Math.floor((compact.length * 3) / 4) - padding(compact);
}

/** Strict base64 (RFC 4648 alphabet, padded to a multiple of 4, whitespace anywhere ignored). Linear time. */
export function isBase64(text: string): boolean {
  if (fastCompact(text) === true) return true;
  const count = scan(text, true);
  return count >= 0 && count % 4 === 0;
}

/** `[A-Za-z0-9+/]+={0,2}`: base64 characters only, no whitespace, any length, not only padding. Linear time. */
export function isBase64Text(text: string): boolean {
  if (fastCompact(text) === true) return true;
  return scan(text, false) > padding(text);
}

/**
 * True when `text` is canonical base64 — no whitespace, padded, zero unused bits in its last character — so that
 * decoding and re-encoding it gives `text` again.
 */
export function isCanonicalBase64(text: string): boolean {
  if (fastCompact(text) !== true) {
    const count = scan(text, false);
    if (count < 0 || count % 4 !== 0) return false;
  }
  const pad = padding(text);
  if (pad === 0 || text.length < 4) return true;
  const last = text.charCodeAt(text.length - 1 - pad);
  const value = base64Value(last);
  return (value & (pad === 1 ? 0b11 : 0b1111)) === 0;
}

function base64Value(c: number): number {
  if (c >= 65 && c <= 90) return c - 65;
  if (c >= 97 && c <= 122) return c - 71;
  if (c >= 48 && c <= 57) return c + 4;
  return c === 43 ? 62 : 63;
}

/**
 * True when the bytes `text` (valid base64) decodes to are certainly not UTF-8, decided from a prefix: its first
 * chunk is decoded and checked with a streaming strict UTF-8 decoder (a sequence cut at the chunk's end is not an
 * error). `false` means "maybe text": decode it all to know.
 */
export function decodesToNonUtf8(text: string): boolean {
  const prefix = Buffer.from(text.slice(0, CHUNK_CHARS), 'base64');
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(prefix, { stream: true });
    return false;
  } catch {
    return true;
  }
}
