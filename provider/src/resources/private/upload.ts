/**
 * Streaming an image source into a volume: sha256 verified while the bytes flow (a mismatch fails the stream, so
 * the pending-marker create in storage.ts removes the volume), zero blocks sent as holes for raw targets
 * (sparse), and progress logged at INFO. Logs name the volume, never the source (a URL may carry credentials).
 */
import { createHash, type Hash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LibvirtClient, PoolRef, VolRef } from '../../../../src/libvirt';
import type { Logger } from '../../plugin/log';
import type { VolumeFormat } from './model';
import type { DigestAlgorithm, ExpectedDigest } from './checksums';
import { inspectSource, openSource } from './image-source';
import { createMarked, isFilePool, volumeSha256, volumeXml } from './storage';

/** Thrown when the uploaded bytes' digest is not the expected one: the pinned sha256, or a checksum file's entry. */
export class ChecksumMismatchError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
    /** The checksum file's entry the bytes were checked against (absent: the `sha256` pin). */
    readonly entry?: ExpectedDigest,
  ) {
    super(entry ? entryMismatchMessage(entry, actual) : checksumMismatchMessage(expected, actual));
    this.name = 'ChecksumMismatchError';
  }
}

/** The message for an image whose digest is `actual` while its checksum file's entry says otherwise. */
function entryMismatchMessage(entry: ExpectedDigest, actual: string): string {
  return (
    `${entry.fileName}'s ${entry.algorithm} is ${actual}, but the checksum file lists ${entry.digest} for it. The download ` +
    'is not the image its publisher signed off (changed on the server, or altered on the way); no volume was kept.'
  );
}

/** The message for a source whose sha256 is `actual` while `expected` was pinned (both lowercase hex). */
export function checksumMismatchMessage(expected: string, actual: string): string {
  return (
    `the source's sha256 is ${actual}, but sha256 pins ${expected}. The source changed or is not the image you meant; ` +
    'no volume was kept. Fix sha256 or the source.'
  );
}

/**
 * Thrown when an upload is not what its source gave: the bytes sent, or the volume read back, have another sha256
 * than the source's bytes (the volume is deleted then).
 */
export class UploadVerificationError extends Error {
  constructor(label: string, what: 'sent' | 'read back', source: string, actual: string) {
    super(
      `${label}: the bytes ${what === 'sent' ? 'sent to libvirt' : 'read back from the volume'} have sha256 ${actual}, but the source's bytes have ${source}. ` +
        'The upload was not stored byte for byte, so no volume was kept. Apply again; if it happens again, report it with the provider log (TF_LOG_PROVIDER=INFO).',
    );
    this.name = 'UploadVerificationError';
  }
}

/** Thrown when a volume's wanted capacity is below its source's size (before anything is created when known). */
export class CapacityBelowSourceError extends Error {
  constructor(
    readonly capacity: number,
    readonly size: number,
  ) {
    super(`capacity ${capacity} is below the source's ${size} bytes`);
    this.name = 'CapacityBelowSourceError';
  }
}

/** Passes `source` through, feeding every chunk to `hash` before it is passed on. */
async function* hashing(source: AsyncIterable<Uint8Array>, hash: Hash): AsyncGenerator<Uint8Array, void, undefined> {
  for await (const chunk of source) {
    hash.update(chunk);
    yield chunk;
  }
}

/** Zero bytes fed to a hash for a hole (never written). */
const ZEROS = Buffer.alloc(1 << 20);

/** Feeds `length` zero bytes to `hash`. */
function hashZeros(hash: Hash, length: number): void {
  for (let left = length; left > 0; left -= ZEROS.length) hash.update(left >= ZEROS.length ? ZEROS : ZEROS.subarray(0, left));
}

/** True for a sha256 in hex (64 hex digits, either case). */
export function isSha256Hex(value: string): boolean {
  return /^[0-9a-fA-F]{64}$/.test(value);
}

/**
 * Passes `source` through, hashing it; when it ends and `expected` (hex, either case) is given, throws
 * ChecksumMismatchError unless the digest matches. The throw happens before the consumer sees the end, so an
 * upload stream is aborted rather than finished.
 */
export async function* verifySha256(
  source: AsyncIterable<Uint8Array>,
  expected: string | undefined,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (expected === undefined) {
    yield* source;
    return;
  }
  yield* verifyDigest(source, 'sha256', expected.toLowerCase());
}

/** verifySha256 for any digest algorithm; `entry` (a checksum file's) words the mismatch. */
export async function* verifyDigest(
  source: AsyncIterable<Uint8Array>,
  algorithm: DigestAlgorithm,
  expected: string,
  entry?: ExpectedDigest,
): AsyncGenerator<Uint8Array, void, undefined> {
  const hash = createHash(algorithm);
  for await (const chunk of source) {
    hash.update(chunk);
    yield chunk;
  }
  const actual = hash.digest('hex');
  if (actual !== expected) throw new ChecksumMismatchError(expected, actual, entry);
}

/** One progress line: bytes so far, of the total when known, and the average rate in MB/s (10^6 bytes). */
export function formatProgress(bytes: number, total: number | undefined, seconds: number): string {
  const rate = seconds > 0 ? (bytes / 1e6 / seconds).toFixed(1) : '-';
  const of = total ? ` of ${total} bytes (${Math.floor((bytes / total) * 100)}%)` : ' bytes';
  return `${bytes}${of}, ${rate} MB/s`;
}

/**
 * A progress callback that logs `<label>: uploaded <formatProgress>` at most every `intervalMs` (and `done()`
 * logs the final line). `now` in milliseconds (injectable for tests).
 */
export function progressLogger(
  log: Pick<Logger, 'info'>,
  label: string,
  total: number | undefined,
  intervalMs = 2000,
  now: () => number = () => performance.now(),
): { update(bytes: number): void; done(bytes: number): void } {
  const start = now();
  let last = start;
  const line = (bytes: number, t: number) => log.info(`${label}: uploaded ${formatProgress(bytes, total, (t - start) / 1000)}`);
  return {
    update(bytes) {
      const t = now();
      if (t - last < intervalMs) return;
      last = t;
      line(bytes, t);
    },
    done(bytes) {
      line(bytes, now());
    },
  };
}

export interface UploadSourceOptions {
  /** Pinned sha256 (hex) of the source's bytes. */
  readonly sha256?: string;
  /** A checksum file's entry the bytes must match (instead of `sha256`). */
  readonly entry?: ExpectedDigest;
  /** The source's byte length when known (0/undefined: until its end). */
  readonly length?: number;
  /** Send zero blocks as holes: only for a fresh raw volume created sparse (its unwritten bytes read as zero). */
  readonly sparse: boolean;
  readonly log: Pick<Logger, 'info'>;
  /** Names the volume in log lines, e.g. `volume default/web-base`. */
  readonly label: string;
  readonly signal?: AbortSignal;
}

/**
 * Uploads `source` (a local file or http(s) URL) into `vol` from byte 0, verified (issue #31.1): the sha256 of the
 * bytes the packets carried (holes as zeros) must equal the sha256 of the source's bytes as read, and the volume's
 * first bytes read back (virStorageVolDownload) must have it too. The read-back costs one more pass over the
 * volume's bytes (a download as long as the upload, holes included); both digests cost CPU only. Returns the number
 * of bytes sent and the source's sha256. Throws ChecksumMismatchError (the stream is aborted) when the pinned
 * sha256 differs, UploadVerificationError when a check fails, LibvirtError from the daemon, or Error naming the
 * source when it cannot be read.
 */
export async function uploadSource(
  client: LibvirtClient,
  vol: VolRef,
  source: string,
  options: UploadSourceOptions,
): Promise<{ bytes: number; sha256: string }> {
  const progress = progressLogger(options.log, options.label, options.length);
  let sent = 0;
  const read = createHash('sha256');
  const wire = createHash('sha256');
  const bytes = hashing(await openSource(source, options.signal), read);
  const verified = options.entry
    ? verifyDigest(bytes, options.entry.algorithm, options.entry.digest, options.entry)
    : verifySha256(bytes, options.sha256);
  await client.storageVolUpload(vol, verified, 0, options.length ?? 0, {
    signal: options.signal,
    sparse: options.sparse,
    onProgress: (bytes) => {
      sent = bytes;
      progress.update(bytes);
    },
    onSent: (segment) => (segment instanceof Uint8Array ? wire.update(segment) : hashZeros(wire, segment.hole)),
  });
  progress.done(sent);
  const [sourceSha256, sentSha256] = [read.digest('hex'), wire.digest('hex')];
  if (sentSha256 !== sourceSha256) throw new UploadVerificationError(options.label, 'sent', sourceSha256, sentSha256);
  if (sent > 0) {
    const start = performance.now();
    const back = await volumeSha256(client, vol, sent, { signal: options.signal });
    if (back !== sourceSha256) throw new UploadVerificationError(options.label, 'read back', sourceSha256, back);
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    options.log.info(`${options.label}: verified, sha256 ${sourceSha256} (sent and read back; read-back ${seconds} s)`);
  }
  return { bytes: sent, sha256: sourceSha256 };
}

/** What to create from a source. */
export interface SourceVolumeSpec {
  readonly name: string;
  readonly source: string;
  /** Target format; default: the source's own (qcow2 by its header, else raw). */
  readonly format?: VolumeFormat;
  /** Wanted capacity in bytes; the volume is grown to it after the upload when larger than the image. */
  readonly capacity?: number;
  /** Pinned sha256 (hex) of the source's bytes. */
  readonly sha256?: string;
  /** A checksum file's entry the bytes must match. */
  readonly entry?: ExpectedDigest;
}

/**
 * Creates volume `spec.name` in `pool` and fills it from its source under the pending marker (storage.ts
 * createMarked): any failure, a sha256 mismatch included, deletes the volume. A raw volume in a file pool is
 * created sparse (allocation 0) and uploaded with holes, so zero blocks of the image take no space; qcow2 images
 * are uploaded as they are (their unallocated clusters are not in the file). A source of unknown length (chunked
 * URL) is streamed to its end: the volume starts empty and grows with the upload. Returns the volume and format.
 */
export async function createVolumeFromSource(
  client: LibvirtClient,
  pool: PoolRef,
  spec: SourceVolumeSpec,
  ctx: { log: Pick<Logger, 'info'>; signal?: AbortSignal },
): Promise<{ vol: VolRef; format: VolumeFormat }> {
  const opts = { signal: ctx.signal };
  const info = await inspectSource(spec.source, ctx.signal);
  const format = spec.format ?? info.format;
  const size = format === 'qcow2' ? info.virtualSize : info.length;
  if (spec.capacity !== undefined && size !== undefined && spec.capacity < size) throw new CapacityBelowSourceError(spec.capacity, size);
  const sparse = format === 'raw' && (await isFilePool(client, pool, opts));
  const xml = volumeXml({ name: spec.name, capacity: info.length ?? 0, format, allocation: sparse ? 0 : undefined });
  const vol = await createMarked(
    client,
    pool,
    spec.name,
    xml,
    async (v) => {
      // Verified before any resize: a qcow2 grown below changes its header.
      await uploadSource(client, v, spec.source, {
        sha256: spec.sha256,
        entry: spec.entry,
        length: info.length,
        sparse,
        log: ctx.log,
        label: `volume ${pool.name}/${spec.name}`,
        signal: ctx.signal,
      });
      const uploaded = (await client.storageVolGetInfo(v, opts)).capacity;
      // A source of unknown length is measured only now (the volume is deleted).
      if (spec.capacity !== undefined && spec.capacity < uploaded) throw new CapacityBelowSourceError(spec.capacity, uploaded);
      if (spec.capacity !== undefined && spec.capacity > uploaded) await client.storageVolResize(v, spec.capacity, 0, opts);
    },
    opts,
  );
  return { vol, format };
}
