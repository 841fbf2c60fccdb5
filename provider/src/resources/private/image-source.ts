/**
 * Sources for `virtseed_volume.source`: a local file or an http(s) URL, read as a stream (never buffered whole),
 * and the image format/virtual size read from its first bytes (qcow2 header: QEMU docs/interop/qcow2.txt). A URL
 * need not give its length (chunked transfer): the upload then runs to the end of the body.
 *
 * Credentials in a URL (`http://user:password@host/image.qcow2`, percent-encoded as in any URL) are sent as an HTTP
 * basic Authorization header (RFC 7617; fetch refuses URLs that carry them) and never appear in a message: every
 * error names the source as {@link shownSource} writes it, the password masked. Errors reading a source are
 * SourceReadError.
 */
import { promises as fs } from 'node:fs';
import { Readable } from 'node:stream';
import type { VolumeFormat } from '../../../../src/fields';

/** What a source is: its byte length (when the server tells it) and, for qcow2, the virtual disk size. */
export interface SourceInfo {
  /** Bytes of the source; undefined for a URL served without Content-Length (chunked) nor a Content-Range total. */
  readonly length?: number;
  readonly format: VolumeFormat;
  /**
   * Virtual disk size in bytes (qcow2 header field `size`); the byte length for raw images (undefined when that is
   * unknown).
   */
  readonly virtualSize?: number;
}

const QCOW2_MAGIC = 0x514649fb; // 'QFI\xfb'
const HEAD_BYTES = 32;

/** Reads format and virtual size from an image's first 32 bytes. */
export function sniffImage(head: Uint8Array, length: number | undefined): SourceInfo {
  if (head.length >= HEAD_BYTES) {
    const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
    if (dv.getUint32(0) === QCOW2_MAGIC) return { length, format: 'qcow2', virtualSize: Number(dv.getBigUint64(24)) };
  }
  return { length, format: 'raw', virtualSize: length };
}

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** A source that cannot be read (missing file, HTTP error, server unreachable); the message never holds a credential. */
export class SourceReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceReadError';
  }
}

/** The mask written in place of a URL's password. */
const MASK = '***';

/**
 * `source` as messages show it: a URL's password replaced by `***` (`http://alice:***@host/image.qcow2`); anything
 * else unchanged. Pure.
 */
export function shownSource(source: string): string {
  if (!isUrl(source)) return source;
  const m = /^(https?:\/\/)([^/?#@]*)@/i.exec(source);
  if (!m) return source;
  const colon = m[2].indexOf(':');
  return colon < 0 ? source : `${m[1]}${m[2].slice(0, colon)}:${MASK}@${source.slice(m[0].length)}`;
}

/** An http(s) source as fetched: the URL without credentials and the Authorization header they become. */
export function urlRequest(source: string): { url: string; headers: Record<string, string> } {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new SourceReadError(`${shownSource(source)} is not a valid URL`);
  }
  if (!url.username && !url.password) return { url: url.href, headers: {} };
  const token = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  url.username = '';
  url.password = '';
  return { url: url.href, headers: { Authorization: `Basic ${token}` } };
}

/** GET (or HEAD) of an http(s) source; a refused connection or HTTP error is a SourceReadError naming the shown URL. */
async function request(source: string, init: { method?: string; range?: string; signal?: AbortSignal }): Promise<Response> {
  const { url, headers } = urlRequest(source);
  const method = init.method ?? 'GET';
  let res: Response;
  try {
    res = await fetch(url, { method, headers: { ...headers, ...(init.range ? { Range: init.range } : {}) }, signal: init.signal });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    const cause = (err as { cause?: { message?: string; code?: string } }).cause;
    throw new SourceReadError(`${method} ${shownSource(source)}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    const hint =
      res.status === 401 || res.status === 403
        ? ` (the server wants ${headers.Authorization ? 'other ' : ''}credentials: give them in the URL, http://user:password@host/..., built from a sensitive variable)`
        : '';
    throw new SourceReadError(`${method} ${shownSource(source)}: HTTP ${res.status}${hint}`);
  }
  return res;
}

/** True when `source` is a local file path (not an http(s) URL). */
export function isLocalSource(source: string): boolean {
  return !isUrl(source);
}

/** A non-negative whole number from a header value, else undefined. */
function byteCount(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/**
 * The source's length from a response to `Range: bytes=0-31`: the Content-Range total of a 206, or the
 * Content-Length of a 200 (the server ignored the range); undefined when the server gives neither (chunked).
 */
export function lengthFromResponse(status: number, headers: { get(name: string): string | null }): number | undefined {
  if (status === 206) return byteCount(headers.get('content-range')?.split('/')[1]);
  return byteCount(headers.get('content-length'));
}

/** The first `n` bytes of a body, then the body is cancelled (a server that ignores Range sends everything). */
async function firstBytes(body: ReadableStream<Uint8Array> | null, n: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let got = 0;
  try {
    while (got < n) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      got += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(parts).subarray(0, n);
}

/** Inspects a source. Throws SourceReadError naming the source (password masked) when it cannot be read. */
export async function inspectSource(source: string, signal?: AbortSignal): Promise<SourceInfo> {
  if (isUrl(source)) {
    const res = await request(source, { range: `bytes=0-${HEAD_BYTES - 1}`, signal });
    let length = lengthFromResponse(res.status, res.headers);
    const head = await firstBytes(res.body, HEAD_BYTES);
    if (length === undefined && res.status === 206) {
      const h = await request(source, { method: 'HEAD', signal }).catch(() => undefined);
      if (h) length = byteCount(h.headers.get('content-length'));
    }
    return sniffImage(head, length);
  }
  const st = await fs.stat(source).catch((err: NodeJS.ErrnoException) => {
    throw new SourceReadError(`cannot read ${source}: ${err.code ?? err.message}`);
  });
  if (!st.isFile()) throw new SourceReadError(`${source} is not a regular file`);
  const fh = await fs.open(source, 'r');
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await fh.read(head, 0, HEAD_BYTES, 0);
    return sniffImage(head.subarray(0, bytesRead), st.size);
  } finally {
    await fh.close();
  }
}

/** Bytes per read of a local file. */
const FILE_CHUNK = 1 << 20;

/**
 * The source's bytes as a stream of chunks: an http(s) body as it arrives, a local file in 1 MiB reads into one
 * buffer reused for every read (no allocation, hence no garbage collection, per chunk): a chunk is valid until the
 * next one is asked for, which is what RpcConnection.upload needs (it copies each packet before asking).
 */
export async function openSource(source: string, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
  if (isUrl(source)) {
    const res = await request(source, { signal });
    if (!res.body) throw new SourceReadError(`GET ${shownSource(source)}: HTTP ${res.status} without a body`);
    return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  }
  const fh = await fs.open(source, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new SourceReadError(`cannot read ${source}: ${err.code ?? err.message}`);
  });
  return readReused(fh, FILE_CHUNK, signal);
}

/** Reads `fh` to its end in reads of `chunk` bytes into one reused buffer, yielding each filled part; closes `fh`. */
async function* readReused(fh: fs.FileHandle, chunk: number, signal?: AbortSignal): AsyncGenerator<Uint8Array, void, undefined> {
  const buffer = Buffer.allocUnsafeSlow(chunk);
  try {
    for (let position = 0; ;) {
      signal?.throwIfAborted();
      const { bytesRead } = await fh.read(buffer, 0, chunk, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}
