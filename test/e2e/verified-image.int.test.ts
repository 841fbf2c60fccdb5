/**
 * Verified cloud images through real Terraform and libvirtd: virtseed_volume with checksum_url (and an OpenPGP
 * signature by a key the test generates) downloads from an HTTP server this test runs on 127.0.0.1. A tampered
 * image fails the apply naming the file and both digests and leaves nothing; a checksum file signed by another key
 * fails the plan; the good image is verified (detached signature), cached once in the pool by its digest, and a
 * second stack on the same image (a clearsigned checksum file) downloads nothing; the cache goes with the last
 * volume on it. Everything lives in a pool of the test's own, `vstest-surface-vi`.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as openpgp from 'openpgp';
import { serveFiles, type FileServer } from '../helpers/file-server';
import { cleanupPoolsByPrefix, poolVolumes, testPoolDir, virshOk } from '../helpers/pool';
import { TfWorkdir } from '../helpers/terraform';

jest.setTimeout(600_000);

const PREFIX = 'vstest-surface-vi';
const POOL = PREFIX;
const IMG = `${PREFIX}-disk.raw`;
const MiB = 1024 * 1024;

/** Deterministic image bytes: `label` repeated over 2 MiB. */
function image(label: string): Buffer {
  const line = Buffer.from(`${label}\n`);
  return Buffer.concat(Array.from({ length: Math.ceil((2 * MiB) / line.length) }, () => line)).subarray(0, 2 * MiB);
}

const GOOD = image('vstest-surface verified image');
const TAMPERED = image('vstest-surface tampered image');
const GOOD_SHA = createHash('sha256').update(GOOD).digest('hex');
const TAMPERED_SHA = createHash('sha256').update(TAMPERED).digest('hex');
const CACHE = `virtseed-image-sha256-${GOOD_SHA}`;

let server: FileServer | undefined;
let base = '';
let root = '';
const files = new Map<string, Buffer>();

/** Requests for an image's whole body (no Range header): what a download costs. */
function fullImageGets(): string[] {
  return server!
    .requests()
    .filter((r) => r.method === 'GET' && r.range === '-' && r.url.endsWith(IMG))
    .map((r) => r.url);
}
let trustedKey = '';
const workdirs: TfWorkdir[] = [];

async function signer(name: string): Promise<{ publicKey: string; privateKey: openpgp.PrivateKey }> {
  const k = await openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name }], format: 'armored' });
  return { publicKey: k.publicKey, privateKey: await openpgp.readPrivateKey({ armoredKey: k.privateKey }) };
}

async function detached(bytes: Buffer, key: openpgp.PrivateKey): Promise<Buffer> {
  const message = await openpgp.createMessage({ binary: bytes });
  return Buffer.from(await openpgp.sign({ message, signingKeys: key, detached: true, format: 'armored' }));
}

function volumeHcl(resource: string, name: string, dir: string, signatureUrl: boolean): string {
  return `
resource "virtseed_volume" "${resource}" {
  pool          = "${POOL}"
  name          = "${name}"
  source        = "${base}/${dir}/${IMG}"
  checksum_url  = "${base}/${dir}/SHA256SUMS"
  ${signatureUrl ? `signature_url = "${base}/${dir}/SHA256SUMS.gpg"` : ''}
  signature_key = <<-EOT
${trustedKey.trim()}
EOT
}
`;
}

function workdir(label: string, body: string): TfWorkdir {
  const tf = new TfWorkdir(label);
  workdirs.push(tf);
  tf.write(body);
  tf.init();
  return tf;
}

beforeAll(async () => {
  cleanupPoolsByPrefix(PREFIX);
  virshOk('pool-define-as', POOL, 'dir', '--target', testPoolDir(POOL));
  virshOk('pool-build', POOL);
  virshOk('pool-start', POOL);
  const [trusted, stranger] = await Promise.all([signer('vstest-surface signer'), signer('vstest-surface stranger')]);
  trustedKey = trusted.publicKey;
  const sums = Buffer.from(`${GOOD_SHA}  ${IMG}\n`);
  const clear = await openpgp.sign({
    message: await openpgp.createCleartextMessage({ text: sums.toString() }),
    signingKeys: trusted.privateKey,
  });
  files
    .set(`/good/${IMG}`, GOOD)
    .set('/good/SHA256SUMS', sums)
    .set('/good/SHA256SUMS.gpg', await detached(sums, trusted.privateKey));
  files.set(`/clear/${IMG}`, GOOD).set('/clear/SHA256SUMS', Buffer.from(clear));
  files
    .set(`/tampered/${IMG}`, TAMPERED)
    .set('/tampered/SHA256SUMS', sums)
    .set('/tampered/SHA256SUMS.gpg', await detached(sums, trusted.privateKey));
  files
    .set(`/badsig/${IMG}`, GOOD)
    .set('/badsig/SHA256SUMS', sums)
    .set('/badsig/SHA256SUMS.gpg', await detached(sums, stranger.privateKey));
  root = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}-http-`));
  for (const [at, bytes] of files) {
    fs.mkdirSync(path.dirname(path.join(root, at)), { recursive: true });
    fs.writeFileSync(path.join(root, at), bytes);
  }
  server = await serveFiles(root);
  base = server.base;
});

afterAll(() => {
  try {
    for (const tf of workdirs) tf.dispose();
  } finally {
    cleanupPoolsByPrefix(PREFIX);
    server?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  }
});

test('GIVEN an image that does not match its signed checksum file WHEN applied THEN it fails naming the file and both digests, and leaves nothing', () => {
  const tf = workdir('vi-tampered', volumeHcl('t', `${PREFIX}-t`, 'tampered', true));
  const r = tf.run(['apply', '-auto-approve', '-input=false']);
  expect({ code: r.code, error: r.out.includes('Error: Image does not match its checksum file') }).toEqual({ code: 1, error: true });
  const flat = r.out.replace(/\s+/g, ' ');
  expect(flat).toContain(`${IMG}'s sha256 is ${TAMPERED_SHA}, but the checksum file lists ${GOOD_SHA}`);
  expect(flat).toContain('no volume was kept');
  expect(poolVolumes(POOL)).toEqual([]);
});

test('GIVEN a checksum file signed by another key WHEN planned THEN the plan fails on signature_key and nothing is created', () => {
  const tf = workdir('vi-badsig', volumeHcl('b', `${PREFIX}-b`, 'badsig', true));
  const r = tf.run(['plan', '-input=false']);
  expect({ code: r.code, error: r.out.includes('Error: Checksum file signature not valid') }).toEqual({ code: 1, error: true });
  expect(r.out.replace(/\s+/g, ' ')).toContain('the signature SHA256SUMS.gpg of SHA256SUMS does not verify with signature_key');
  expect(r.out).toMatch(/with virtseed_volume\.b,[\s\S]*?signature_key = /);
  expect(poolVolumes(POOL)).toEqual([]);
});

let first: TfWorkdir;

test('GIVEN the good image with a detached signature WHEN planned and applied THEN the digest is known at plan, the image cached once by digest and the volume an overlay on it', () => {
  first = workdir('vi-good', volumeHcl('g', `${PREFIX}-g`, 'good', true));
  const plan = first.planJson();
  const after = (plan.resource_changes ?? []).find((c: { address: string }) => c.address === 'virtseed_volume.g')?.change.after;
  expect(after).toMatchObject({ digest: `sha256:${GOOD_SHA}`, format: 'qcow2' });
  first.apply();
  // The tampered image was downloaded by the first test (and rejected); the good one once, here.
  expect(fullImageGets()).toEqual([`/tampered/${IMG}`, `/good/${IMG}`]);
  expect(poolVolumes(POOL)).toEqual([CACHE, `${PREFIX}-g`].sort());
  const cachePath = virshOk('vol-path', '--pool', POOL, CACHE).trim();
  expect(virshOk('vol-dumpxml', '--pool', POOL, `${PREFIX}-g`)).toContain(`<path>${cachePath}</path>`);
  expect(createHash('sha256').update(virshDownload(CACHE)).digest('hex')).toBe(GOOD_SHA);
  expect(first.plan().code).toBe(0);
});

test('GIVEN a second stack on the same image (clearsigned checksum file) WHEN applied THEN nothing is downloaded: its volume is an overlay on the same cache', () => {
  const second = workdir('vi-second', volumeHcl('s', `${PREFIX}-s`, 'clear', false));
  second.apply();
  expect(fullImageGets()).toEqual([`/tampered/${IMG}`, `/good/${IMG}`]);
  expect(second.resource('virtseed_volume.s').digest).toBe(`sha256:${GOOD_SHA}`);
  expect(poolVolumes(POOL)).toEqual([CACHE, `${PREFIX}-g`, `${PREFIX}-s`].sort());
});

test('GIVEN both stacks WHEN the first is destroyed THEN the cache stays for the second; the second destroyed THEN the cache is gone too', () => {
  first.destroy();
  expect(poolVolumes(POOL)).toEqual([CACHE, `${PREFIX}-s`].sort());
  workdirs.find((w) => w.dir.includes('vi-second'))!.destroy();
  expect(poolVolumes(POOL)).toEqual([]);
});

/** The bytes of a volume of the test pool (`virsh vol-download`). */
function virshDownload(name: string): Buffer {
  const file = `${testPoolDir(POOL)}.download`;
  virshOk('vol-download', '--pool', POOL, name, file);
  try {
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(file, { force: true });
  }
}
