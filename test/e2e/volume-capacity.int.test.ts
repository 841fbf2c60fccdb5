/**
 * Issue 31.3: a `virtseed_volume` whose `capacity` is below what it is made from is refused at plan, on the
 * `capacity` attribute, naming both sizes and the fix, and nothing is created: a file source (qcow2: its virtual
 * size; raw: its length), a URL whose size the server tells (Content-Length) with the format given, and a qcow2
 * overlay on a 2 GiB backing volume. A capacity at least that size still plans. Real terraform and libvirtd; no
 * upload happens (every case stops at plan).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanupByPrefix, volumeNames } from '../helpers/guest';
import { serveFiles, type FileServer } from '../helpers/file-server';
import { TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(600_000);

const PREFIX = 'vstest-capacity-';
const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

let tf: TfWorkdir;
let files: string;
let server: FileServer;

const BASE = `
resource "virtseed_volume" "base" {
  pool     = "default"
  name     = "${PREFIX}base.qcow2"
  capacity = ${2 * GiB}
}
`;

/** `terraform plan` of BASE plus `body` must fail; returns its output. */
function planFails(body: string): string {
  tf.write(BASE + body);
  const r = tf.run(['plan', '-input=false']);
  if (r.code !== 1) throw new Error(`terraform plan exited ${r.code}, expected 1:\n${r.out}`);
  return r.out;
}

/** The output names the capacity attribute, both sizes and the fix. */
function expectCapacityRefused(out: string, capacity: number, size: number): void {
  expect(out).toContain('Error: Capacity below the source');
  expect(out).toMatch(new RegExp(`\\n\\s*\\d+:\\s+capacity\\s+= ${capacity}\\n`));
  expect(out.replace(/\s+/g, ' ')).toContain(`capacity is ${capacity} bytes`);
  expect(out.replace(/\s+/g, ' ')).toContain(`${size} bytes`);
  expect(out.replace(/\s+/g, ' ')).toMatch(new RegExp(`set capacity to at least ${size}`));
}

beforeAll(async () => {
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('capacity');
  files = path.join(tf.dir, 'files');
  fs.mkdirSync(files);
  execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', path.join(files, 'two-gib.qcow2'), '2G']);
  fs.writeFileSync(path.join(files, 'four-mib.raw'), Buffer.alloc(4 * MiB, 1));
  server = await serveFiles(files);
  tf.write(BASE);
  tf.init();
  tf.apply();
});

afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true, also: () => server?.stop() }));

afterEach(() => {
  expect(volumeNames(PREFIX)).toEqual([`${PREFIX}base.qcow2`]);
});

test('GIVEN a qcow2 file source of 2 GiB virtual size WHEN capacity is 1 MiB THEN the plan fails on capacity naming both sizes', () => {
  const out = planFails(`
resource "virtseed_volume" "small" {
  pool     = "default"
  name     = "${PREFIX}small.qcow2"
  source   = "${path.join(files, 'two-gib.qcow2')}"
  capacity = ${MiB}
}`);
  expectCapacityRefused(out, MiB, 2 * GiB);
});

test('GIVEN a 4 MiB raw file source WHEN capacity is 1 MiB THEN the plan fails on capacity naming both sizes', () => {
  const out = planFails(`
resource "virtseed_volume" "small" {
  pool     = "default"
  name     = "${PREFIX}small.raw"
  source   = "${path.join(files, 'four-mib.raw')}"
  format   = "raw"
  capacity = ${MiB}
}`);
  expectCapacityRefused(out, MiB, 4 * MiB);
});

test('GIVEN a URL source whose server tells its size, format given WHEN capacity is 1 MiB THEN the plan fails on capacity naming both sizes', () => {
  const out = planFails(`
resource "virtseed_volume" "small" {
  pool     = "default"
  name     = "${PREFIX}small-url.qcow2"
  source   = "${server.base}/two-gib.qcow2"
  format   = "qcow2"
  capacity = ${MiB}
}`);
  expectCapacityRefused(out, MiB, 2 * GiB);
});

test('GIVEN an overlay on a 2 GiB backing volume WHEN capacity is 1 MiB THEN the plan fails on capacity naming both sizes', () => {
  const out = planFails(`
resource "virtseed_volume" "overlay" {
  pool           = "default"
  name           = "${PREFIX}overlay.qcow2"
  backing_volume = virtseed_volume.base.id
  capacity       = ${MiB}
}`);
  expectCapacityRefused(out, MiB, 2 * GiB);
});

test('GIVEN the same sources WHEN capacity is at least their size THEN the plan succeeds', () => {
  tf.write(`${BASE}
resource "virtseed_volume" "overlay" {
  pool           = "default"
  name           = "${PREFIX}overlay.qcow2"
  backing_volume = virtseed_volume.base.id
  capacity       = ${2 * GiB}
}
resource "virtseed_volume" "url" {
  pool     = "default"
  name     = "${PREFIX}url.qcow2"
  source   = "${server.base}/two-gib.qcow2"
  format   = "qcow2"
  capacity = ${3 * GiB}
}`);
  const r = tf.run(['plan', '-input=false', '-detailed-exitcode']);
  if (r.code !== 2) throw new Error(`terraform plan exited ${r.code}, expected 2:\n${r.out}`);
});
