/**
 * The sha256 of a large seed image, computed on a second thread while the image is being written (issue #15).
 *
 * Why a thread: hashing a 64 MiB image costs ~31 ms on one core (OpenSSL with SHA-NI; it cannot get cheaper), and
 * writing it ~23 ms; one after the other they were most of a large seed build. The image is written front to back
 * (iso9660 `IsoOutput`), so a worker thread can hash each finished prefix while the main thread writes the rest:
 * the two overlap, and the build ends about when the hash, the slower of them, does.
 *
 * How: the image buffer is backed by a SharedArrayBuffer; a small shared control block carries the written
 * watermark (main → worker), the worker's progress, who hashes this image, and the digest. `buildSeedIso` stays
 * synchronous: at the end the main thread blocks in `Atomics.wait` until the digest is there.
 *
 * Rules: one lazily created worker per process (per {@link ImageHasher}), `unref()`ed so it never keeps a process
 * alive, and only for images of at least `minBytes` (starting a worker costs ~2 ms on the main thread and ~18 ms
 * on the other core; a small seed or a short-lived CLI must not pay that). Any failure (no worker, a worker that
 * has not picked the image up by the time it is written, one that dies or stalls) falls back to hashing on the main
 * thread, with the same result. The worker's code is a self-contained source string run with `eval: true`, so it
 * survives bundling into one file (provider artifact, CLI). This is the seed generator's only module that starts
 * threads; it does no I/O.
 */
import type { Worker } from 'node:worker_threads';
import { sha256Hex } from '../private/hash';
import type { IsoOutput } from './types';

/**
 * Images from this size on are hashed by the worker. Measured (issue #15, 2 cores, warm, median ms of a whole
 * build, main thread only → with the worker): 16 MiB 16.0 → 19.6, 24 MiB 29.0 → 26.2, 32 MiB 41.2 → 34.5,
 * 48 MiB 63.4 → 47.2, 61 MiB 77 → 50–66. Below 32 MiB a plain buffer is recycled by malloc without page faults (glibc's
 * largest mmap threshold), so writing it is cheap and a shared one, always fresh, loses what the overlap gains.
 */
export const WORKER_MIN_BYTES = 32 * 1024 * 1024;
/** The main thread gives up on a worker that has claimed an image but shows no progress for this long. */
const STALL_MS = 2000;

/** Slots of a job's control block (an Int32Array over its SharedArrayBuffer; the 32-byte digest follows them). */
export const CONTROL = {
  /** 2048-byte sectors of the image final (main → worker; sectors, so that images up to 4 GiB fit). */
  WRITTEN: 0,
  /** Bumped by the worker after each hashed step and when it ends (the main thread waits on it). */
  PROGRESS: 1,
  /** Who hashes the image: FREE (0) until the worker (1) or the main thread (2) claims it. */
  OWNER: 2,
  /** RUNNING (0), then DONE (1, digest written), FAILED (2) or CANCELLED (3). */
  STATE: 3,
} as const;
const { WRITTEN, PROGRESS, OWNER, STATE } = CONTROL;
const DIGEST_OFFSET = 16;
const CONTROL_BYTES = DIGEST_OFFSET + 32;
const FREE = 0;
const BY_WORKER = 1;
const BY_MAIN = 2;
const RUNNING = 0;
const DONE = 1;
const FAILED = 2;
const CANCELLED = 3;
const SECTOR = 2048;

/**
 * The worker: for each image posted, claims it (unless the main thread did), hashes the prefix that is final as it
 * grows (at most 16 MiB per step, reporting progress after each), writes the digest and wakes the main thread.
 * After each image it runs a full GC of its own heap: this isolate allocates next to nothing, so it would otherwise
 * never collect the SharedArrayBuffer objects of past images and keep their memory (64 MiB each) alive. `gc` is the
 * global one when the process runs with `--expose-gc`, else obtained by turning that V8 flag on for the moment it
 * takes to create one context (workers reject V8 flags in `execArgv`); without it the worker refuses to start (its
 * error makes the main thread hash).
 */
const WORKER_SOURCE = `
'use strict';
{
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const collectGarbage = typeof globalThis.gc === 'function' ? globalThis.gc : exposedGc();
function exposedGc() {
  const v8 = require('node:v8');
  v8.setFlagsFromString('--expose-gc');
  try {
    const gc = require('node:vm').runInNewContext('gc');
    if (typeof gc !== 'function') throw new Error('hash worker: no gc function');
    return gc;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
const [WRITTEN, PROGRESS, OWNER, STATE, DIGEST_OFFSET] = [${WRITTEN}, ${PROGRESS}, ${OWNER}, ${STATE}, ${DIGEST_OFFSET}];
const [FREE, BY_WORKER, RUNNING, DONE, FAILED, SECTOR] = [${FREE}, ${BY_WORKER}, ${RUNNING}, ${DONE}, ${FAILED}, ${SECTOR}];
const STEP_SECTORS = 8192;
function hashImage(job) {
  const ctrl = new Int32Array(job.control, 0, 4);
  if (Atomics.compareExchange(ctrl, OWNER, FREE, BY_WORKER) !== FREE) return;
  const image = new Uint8Array(job.image);
  const total = image.length / SECTOR;
  try {
    const hash = createHash('sha256');
    let done = 0;
    while (done < total) {
      if (Atomics.load(ctrl, STATE) !== RUNNING) return;
      const written = Atomics.load(ctrl, WRITTEN);
      if (written === done) {
        Atomics.wait(ctrl, WRITTEN, written, 1000);
        continue;
      }
      const end = Math.min(written, done + STEP_SECTORS);
      hash.update(image.subarray(done * SECTOR, end * SECTOR));
      done = end;
      Atomics.add(ctrl, PROGRESS, 1);
      Atomics.notify(ctrl, PROGRESS);
    }
    new Uint8Array(job.control, DIGEST_OFFSET, 32).set(hash.digest());
    Atomics.compareExchange(ctrl, STATE, RUNNING, DONE);
  } catch {
    Atomics.compareExchange(ctrl, STATE, RUNNING, FAILED);
  }
  Atomics.add(ctrl, PROGRESS, 1);
  Atomics.notify(ctrl, PROGRESS);
}
let collecting = false;
parentPort.on('message', (job) => {
  hashImage(job);
  if (!collecting) {
    collecting = true;
    setImmediate(() => { collecting = false; collectGarbage(); });
  }
});
}
`;

/**
 * Each shared image's stand-in for V8's memory accounting: V8 does not count SharedArrayBuffer memory towards the
 * external memory that triggers its garbage collections (a shared buffer may be counted by several isolates), so
 * shared images of 64 MiB would pile up unreclaimed (measured: RSS past 900 MiB after 20 builds, 290–410 MiB with
 * plain buffers). An ArrayBuffer of the same length, never touched (so it costs address space, not memory), lives
 * exactly as long as its image and is counted, so the image is collected as a plain one would be.
 */
const ballast = new WeakMap<Uint8Array, ArrayBuffer>();

/** The hash of one image being built: pass `output` to `buildIso`, then ask `digest`. */
export interface ImageHash {
  /** Allocates the image (shared when the worker hashes it) and passes the written watermark on. */
  readonly output: IsoOutput;
  /** Lower-case hex sha256 of `image` (the buffer `buildIso` returned): the worker's, or computed here. */
  digest(image: Uint8Array): string;
  /** The build failed: the worker stops waiting for more of this image. */
  cancel(): void;
}

/** Options of an {@link ImageHasher} (tests use other values). */
export interface ImageHasherOptions {
  /** Images from this size (bytes) on are hashed by the worker. @default WORKER_MIN_BYTES */
  minBytes?: number;
  /** Milliseconds without progress after which a worker that claimed an image is given up. @default 2000 */
  stallMs?: number;
  /** The worker's source (tests pass a broken one). @default the hashing worker */
  source?: string;
}

/** One hashing worker, created at the first image of `minBytes` or more, and the hashes of images built. */
export class ImageHasher {
  /** Images whose digest the worker computed (the others were hashed on the main thread). */
  workerDigests = 0;
  private worker?: Worker;
  /** Set when a worker could not be created or failed: from then on every image is hashed on the main thread. */
  private broken = false;
  private readonly minBytes: number;
  private readonly stallMs: number;
  private readonly source: string;

  constructor(options: ImageHasherOptions = {}) {
    this.minBytes = options.minBytes ?? WORKER_MIN_BYTES;
    this.stallMs = options.stallMs ?? STALL_MS;
    this.source = options.source ?? WORKER_SOURCE;
  }

  /**
   * Starts the hash of one image. `expectedBytes` (an estimate, before anything is rendered) of at least `minBytes`
   * starts the worker now, so that its start-up (~18 ms) overlaps rendering instead of delaying the hash.
   */
  begin(expectedBytes = 0): ImageHash {
    if (expectedBytes >= this.minBytes) this.thread();
    let control: Int32Array | undefined;
    const output: IsoOutput = {
      allocate: (length) => {
        const worker = length >= this.minBytes ? this.thread() : undefined;
        if (!worker) return new Uint8Array(length);
        const image = new SharedArrayBuffer(length);
        const block = new SharedArrayBuffer(CONTROL_BYTES);
        try {
          worker.postMessage({ image, control: block });
        } catch {
          this.fail();
          return new Uint8Array(length);
        }
        control = new Int32Array(block, 0, 4);
        const bytes = new Uint8Array(image);
        ballast.set(bytes, new ArrayBuffer(length));
        return bytes;
      },
      final: (end) => {
        if (!control) return;
        Atomics.store(control, WRITTEN, Math.floor(end / SECTOR));
        Atomics.notify(control, WRITTEN);
      },
    };
    return {
      output,
      digest: (image) => (control && this.awaitDigest(control)) || sha256Hex(image),
      cancel: () => {
        if (!control) return;
        Atomics.compareExchange(control, STATE, RUNNING, CANCELLED);
        Atomics.notify(control, WRITTEN);
      },
    };
  }

  /** Ends the worker (tests; a process never has to: the worker is unref'd). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  /** The worker, created on first use; undefined when it cannot be. */
  private thread(): Worker | undefined {
    if (this.worker || this.broken) return this.worker;
    try {
      // node:worker_threads is loaded with the first worker: a small seed or a short-lived CLI never pays for it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: loaded with the first worker (issue #25)
      const { Worker: WorkerThread } = require('node:worker_threads') as typeof import('node:worker_threads');
      const worker = new WorkerThread(this.source, { eval: true });
      worker.unref();
      worker.on('error', () => this.fail());
      worker.on('exit', () => {
        if (this.worker === worker) this.fail();
      });
      this.worker = worker;
    } catch {
      this.broken = true;
    }
    return this.worker;
  }

  private fail(): void {
    this.broken = true;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate().catch(() => undefined);
  }

  /**
   * The worker's digest, once the whole image is written; undefined when the main thread is to hash it: the worker
   * has not claimed the image yet (it is then claimed here), failed, or made no progress for `stallMs`.
   */
  private awaitDigest(control: Int32Array): string | undefined {
    if (Atomics.compareExchange(control, OWNER, FREE, BY_MAIN) === FREE) return undefined;
    for (;;) {
      // PROGRESS before STATE: a worker that finishes after the STATE load bumps PROGRESS after this load too.
      const seen = Atomics.load(control, PROGRESS);
      const state = Atomics.load(control, STATE);
      if (state === DONE) {
        this.workerDigests++;
        return Buffer.from(control.buffer, DIGEST_OFFSET, 32).toString('hex');
      }
      if (state !== RUNNING) break;
      if (Atomics.wait(control, PROGRESS, seen, this.stallMs) === 'timed-out' && Atomics.load(control, PROGRESS) === seen) {
        if (Atomics.compareExchange(control, STATE, RUNNING, CANCELLED) === RUNNING) break;
      }
    }
    this.fail();
    return undefined;
  }
}

let shared: ImageHasher | undefined;

/** Starts the hash of one image with the process's one {@link ImageHasher} (see {@link ImageHasher.begin}). */
export function hashWhileWriting(expectedBytes = 0): ImageHash {
  return (shared ??= new ImageHasher()).begin(expectedBytes);
}
