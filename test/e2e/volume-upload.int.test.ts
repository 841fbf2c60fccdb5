/**
 * #13 verified, sparse uploads through real terraform and libvirtd (no guest), volumes `vstest-upload-*`:
 * - a URL served chunked (no Content-Length, Range ignored) by a local HTTP server on 127.0.0.1 uploads: a raw
 *   image (capacity = its length, zero blocks unallocated) and a qcow2 image (capacity from its header);
 *   the provider logs upload progress at INFO;
 * - a wrong sha256 fails the apply naming both digests and leaves no volume (nor marker) in the pool.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { cleanupByPrefix, volumeNames } from '../helpers/guest';
import { destroyAndDispose, TfWorkdir } from '../helpers/terraform';

const PREFIX = 'vstest-upload-';
const MiB = 1024 * 1024;

jest.setTimeout(600_000);

/** A 64 MiB raw image: 4 MiB of non-zero bytes (1 MiB every 16 MiB), zero elsewhere. Returns its sha256. */
function writeSparseImage(file: string): string {
  const fd = openSync(file, 'w');
  const hash = createHash('sha256');
  try {
    for (let i = 0; i < 4; i++) {
      const data = Buffer.alloc(MiB, 0x41 + i);
      const zeros = Buffer.alloc(15 * MiB);
      writeSync(fd, data);
      writeSync(fd, zeros);
      hash.update(data).update(zeros);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Serves the files of `dir` on 127.0.0.1 with chunked transfer encoding (no Content-Length, no Range), in a child
 *  process (terraform runs synchronously in this one). Resolves with the base URL. */
function chunkedServer(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const script = `
    const http = require('node:http'); const fs = require('node:fs'); const path = require('node:path');
    const server = http.createServer((req, res) => {
      const file = path.join(${JSON.stringify(dir)}, path.basename(req.url));
      if (!fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }); // no Content-Length: chunked
      if (req.method === 'HEAD') { res.end(); return; }
      fs.createReadStream(file, { highWaterMark: 65536 }).pipe(res);
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ url: `http://127.0.0.1:${d.toString().trim()}`, child }));
    child.once('exit', (code) => reject(new Error(`HTTP server exited ${code}`)));
  });
}

function volInfo(name: string): { capacity: number; allocation: number } {
  const out = execFileSync('virsh', ['-c', 'qemu:///system', 'vol-info', '--bytes', '--pool', 'default', name], { encoding: 'utf8' });
  const field = (f: string) => Number(new RegExp(`${f}:\\s+(\\d+)`).exec(out)?.[1]);
  return { capacity: field('Capacity'), allocation: field('Allocation') };
}

describe('volume uploads through terraform', () => {
  let tf: TfWorkdir;
  let server: ChildProcess | undefined;

  beforeAll(() => {
    cleanupByPrefix(PREFIX);
    tf = new TfWorkdir('upload', { TF_LOG_PROVIDER: 'INFO' });
  });

  afterAll(() => {
    server?.kill();
    destroyAndDispose(tf, () => cleanupByPrefix(PREFIX));
  });

  test('GIVEN raw and qcow2 images served chunked with their sha256 WHEN applied THEN both upload, sized right, the raw one sparse, with progress at INFO', async () => {
    const rawSha = writeSparseImage(join(tf.dir, 'disk.raw'));
    execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', join(tf.dir, 'disk.qcow2'), '1G']);
    const qcowSha = createHash('sha256')
      .update(readFileSync(join(tf.dir, 'disk.qcow2')))
      .digest('hex');
    const started = await chunkedServer(tf.dir);
    server = started.child;
    tf.write(`resource "virtseed_volume" "raw" {
  pool   = "default"
  name   = "${PREFIX}raw.img"
  source = "${started.url}/disk.raw"
  sha256 = "${rawSha}"
}
resource "virtseed_volume" "qcow" {
  pool   = "default"
  name   = "${PREFIX}q.qcow2"
  source = "${started.url}/disk.qcow2"
  sha256 = "${qcowSha.toUpperCase()}"
}
`);
    tf.init();
    const out = tf.apply();
    expect(out).toMatch(/Apply complete! Resources: 2 added/);
    expect(out).toMatch(new RegExp(`volume default/${PREFIX}raw\\.img: uploaded ${64 * MiB} bytes, [\\d.]+ MB/s`));
    const raw = volInfo(`${PREFIX}raw.img`);
    expect(raw.capacity).toBe(64 * MiB);
    expect(raw.allocation).toBeLessThanOrEqual(4 * MiB * 1.1);
    expect(tf.resource('virtseed_volume.raw')).toMatchObject({ format: 'raw', capacity: 64 * MiB });
    expect(tf.resource('virtseed_volume.qcow')).toMatchObject({ format: 'qcow2', capacity: 1024 * MiB });
    const plan = tf.plan();
    expect(plan.code).toBe(0); // the same config plans no change
  });

  test('GIVEN a local image and a wrong sha256 WHEN applied THEN it fails naming both digests and no volume is left', () => {
    const actual = writeSparseImage(join(tf.dir, 'other.raw'));
    const wrong = createHash('sha256').update('not the image').digest('hex');
    const file = join(tf.dir, 'other.raw');
    tf.write(`resource "virtseed_volume" "pinned" {
  pool   = "default"
  name   = "${PREFIX}pinned.img"
  source = "${file}"
  sha256 = "${wrong}"
}
`);
    const r = tf.run(['apply', '-auto-approve', '-input=false']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('Error: Source does not match sha256');
    expect(r.out).toContain(actual);
    expect(r.out).toContain(wrong);
    expect(volumeNames(`${PREFIX}pinned`)).toEqual([]);
  });
});
