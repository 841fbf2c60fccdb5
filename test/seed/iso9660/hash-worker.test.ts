import { createHash } from 'crypto';
import { buildSeedIso, renderSeed, type SeedSpec } from '../../../src/seed';
import { buildIso } from '../../../src/seed/iso9660';
import { CONTROL, ImageHasher, WORKER_MIN_BYTES, type ImageHash } from '../../../src/seed/iso9660/hash-worker';
import { renderSeedPending } from '../../../src/seed/render';
import { binary } from '../iso9660/fixtures';

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A seed whose image is over the worker threshold: a 25 MiB binary file (about 33 MiB of base64 in user-data). */
function largeSpec(): SeedSpec {
  return {
    instance_id: 'hash-worker-1',
    hostname: 'big',
    files: [
      { path: '/etc/motd', content: 'hello\n' },
      { path: '/opt/payload.bin', content_base64: Buffer.from(binary(25 * MiB)).toString('base64') },
    ],
  };
}

/** The single-thread path: the rendered files packed into a plain buffer, hashed afterwards. */
function singleThread(spec: SeedSpec): { iso: Uint8Array; sha256: string } {
  const seed = renderSeed(spec);
  const iso = buildIso(seed.files, { volumeId: seed.volumeId });
  return { iso, sha256: sha256(iso) };
}

/** buildSeedIso with a given hasher; `beforeDigest` runs once the image is written. */
async function buildWith(hasher: ImageHasher, spec: SeedSpec, beforeDigest?: () => Promise<void>) {
  const hash = hasher.begin();
  const seed = renderSeedPending(spec);
  const iso = buildIso(seed.files, { volumeId: seed.volumeId, output: hash.output });
  await beforeDigest?.();
  return { iso, sha256: hash.digest(iso) };
}

/** An image of `length` bytes written through `hash.output` in 1 MiB steps. */
function writeImage(hash: ImageHash, length: number, upTo = length): Uint8Array {
  const image = hash.output.allocate(length);
  image.set(binary(length).subarray(0, upTo));
  for (let end = Math.min(MiB, upTo); end <= upTo; end += MiB) hash.output.final(Math.min(end, upTo));
  hash.output.final(upTo);
  return image;
}

describe('hash worker', () => {
  const spec = largeSpec();
  const expected = singleThread(spec);
  const hashers: ImageHasher[] = [];
  const hasher = (options: ConstructorParameters<typeof ImageHasher>[0]) => {
    const h = new ImageHasher(options);
    hashers.push(h);
    return h;
  };
  afterAll(() => Promise.all(hashers.map((h) => h.close())));

  it('GIVEN a seed over the worker threshold WHEN built by buildSeedIso THEN its image is shared (hashed by the worker) with the bytes and sha256 of the single-thread path', () => {
    expect(expected.iso.length).toBeGreaterThanOrEqual(WORKER_MIN_BYTES);
    const built = buildSeedIso(spec);
    expect(built.iso.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.compare(built.iso, expected.iso)).toBe(0);
    expect(built.sha256).toBe(expected.sha256);
  });

  it('GIVEN a small seed WHEN built by buildSeedIso THEN its image is a plain buffer hashed on the main thread', () => {
    const small = { instance_id: 'hash-worker-2', files: [{ path: '/etc/motd', content: 'hello\n' }] };
    const built = buildSeedIso(small);
    expect(built.iso.buffer).toBeInstanceOf(ArrayBuffer);
    expect(built.sha256).toBe(singleThread(small).sha256);
  });

  it('GIVEN a running worker WHEN a large seed is built with it THEN the worker computed the digest, equal to the single-thread one', async () => {
    const h = hasher({ minBytes: 0 });
    const first = await buildWith(h, spec, () => sleep(1000)); // the worker starts, claims and hashes meanwhile
    const second = await buildWith(h, spec);
    expect(h.workerDigests).toBeGreaterThanOrEqual(1);
    for (const built of [first, second]) {
      expect(Buffer.compare(built.iso, expected.iso)).toBe(0);
      expect(built.sha256).toBe(expected.sha256);
    }
  });

  it('GIVEN a worker that fails to start WHEN a large seed is built THEN the main thread hashes it, the same sha256, and later images are plain', async () => {
    const h = hasher({ minBytes: 0, source: "throw new Error('broken worker')" });
    const built = await buildWith(h, spec);
    expect(built.sha256).toBe(expected.sha256);
    expect(Buffer.compare(built.iso, expected.iso)).toBe(0);
    await sleep(1500); // the worker's error arrives
    const later = h.begin();
    expect(writeImage(later, 4096).buffer).toBeInstanceOf(ArrayBuffer);
    expect(h.workerDigests).toBe(0);
  });

  it('GIVEN a worker that claims the image and then stalls WHEN the digest is asked THEN after the stall time the main thread hashes it', async () => {
    const stalls = `require('node:worker_threads').parentPort.on('message', (job) => { Atomics.store(new Int32Array(job.control), ${CONTROL.OWNER}, 1); });`;
    const h = hasher({ minBytes: 0, stallMs: 100, source: stalls });
    const built = await buildWith(h, spec, () => sleep(1500)); // the worker starts and claims the image meanwhile
    expect(built.sha256).toBe(expected.sha256);
    expect(h.workerDigests).toBe(0);
    expect(writeImage(h.begin(), 4096).buffer).toBeInstanceOf(ArrayBuffer);
  });

  it('GIVEN a worker that reports failure WHEN the digest is asked THEN the main thread hashes it at once', async () => {
    const fails = `require('node:worker_threads').parentPort.on('message', (job) => {
      const c = new Int32Array(job.control);
      Atomics.store(c, ${CONTROL.OWNER}, 1); Atomics.store(c, ${CONTROL.STATE}, 2); Atomics.add(c, ${CONTROL.PROGRESS}, 1); Atomics.notify(c, ${CONTROL.PROGRESS});
    });`;
    const h = hasher({ minBytes: 0, stallMs: 60_000, source: fails });
    const built = await buildWith(h, spec, () => sleep(1500));
    expect(built.sha256).toBe(expected.sha256);
    expect(h.workerDigests).toBe(0);
    expect(writeImage(h.begin(), 4096).buffer).toBeInstanceOf(ArrayBuffer);
  });

  it('GIVEN a build cancelled half-written WHEN the next image is hashed THEN the worker is free again and hashes it', async () => {
    const h = hasher({ minBytes: 0, stallMs: 10_000 });
    const cancelled = h.begin();
    writeImage(cancelled, 8 * MiB, 3 * MiB);
    await sleep(1500); // the worker starts, claims it and waits for more bytes
    cancelled.cancel();
    const next = h.begin();
    const image = writeImage(next, 8 * MiB);
    await sleep(1000); // the worker leaves the cancelled image and claims this one
    expect(next.digest(image)).toBe(sha256(binary(8 * MiB)));
    expect(h.workerDigests).toBe(1);
  });
});
