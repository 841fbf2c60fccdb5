/**
 * Sources for `virtseed_volume.source`: a local file or an http(s) URL, read as a stream (never buffered whole),
 * and the image format/virtual size read from its first bytes (qcow2 header: QEMU docs/interop/qcow2.txt).
 */
import { createReadStream, promises as fs } from 'node:fs';
import { Readable } from 'node:stream';

/** What a source is: its byte length and, for qcow2, the virtual disk size. */
export interface SourceInfo {
  readonly length: number;
  readonly format: 'qcow2' | 'raw';
  /** Virtual disk size in bytes (qcow2 header field `size`); the byte length for raw images. */
  readonly virtualSize: number;
}

const QCOW2_MAGIC = 0x514649fb; // 'QFI\xfb'

/** Reads format and virtual size from an image's first 32 bytes. */
export function sniffImage(head: Uint8Array, length: number): SourceInfo {
  if (head.length >= 32) {
    const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
    if (dv.getUint32(0) === QCOW2_MAGIC) return { length, format: 'qcow2', virtualSize: Number(dv.getBigUint64(24)) };
  }
  return { length, format: 'raw', virtualSize: length };
}

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** True when `source` is a local file path (not an http(s) URL). */
export function isLocalSource(source: string): boolean {
  return !isUrl(source);
}

/** Inspects a source. Throws Error naming the source when it cannot be read. */
export async function inspectSource(source: string, signal?: AbortSignal): Promise<SourceInfo> {
  if (isUrl(source)) {
    const res = await fetch(source, { headers: { Range: 'bytes=0-31' }, signal });
    if (!res.ok) throw new Error(`GET ${source}: HTTP ${res.status}`);
    const head = new Uint8Array(await res.arrayBuffer()).subarray(0, 32);
    const range = res.headers.get('content-range');
    let length = range ? Number(range.split('/')[1]) : NaN;
    if (!Number.isFinite(length)) {
      const h = await fetch(source, { method: 'HEAD', signal });
      length = Number(h.headers.get('content-length'));
    }
    if (!Number.isFinite(length)) throw new Error(`${source}: the server gives no length`);
    return sniffImage(head, length);
  }
  const st = await fs.stat(source).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${source}: ${err.code ?? err.message}`);
  });
  if (!st.isFile()) throw new Error(`${source} is not a regular file`);
  const fh = await fs.open(source, 'r');
  try {
    const head = new Uint8Array(32);
    const { bytesRead } = await fh.read(head, 0, 32, 0);
    return sniffImage(head.subarray(0, bytesRead), st.size);
  } finally {
    await fh.close();
  }
}

/** The source's bytes as a stream of chunks (1 MiB reads for files). */
export async function openSource(source: string, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
  if (isUrl(source)) {
    const res = await fetch(source, { signal });
    if (!res.ok || !res.body) throw new Error(`GET ${source}: HTTP ${res.status}`);
    return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  }
  return createReadStream(source, { highWaterMark: 1 << 20, signal });
}
