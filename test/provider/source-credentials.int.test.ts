/**
 * Issue 27.9: a `virtseed_volume.source` URL with credentials (`http://alice:PASSWORD@host/image.qcow2`) downloads
 * from an HTTP server on 127.0.0.1 that demands basic auth, the credentials sent as an Authorization header; and
 * no credential appears anywhere in terraform's output with TF_LOG=trace (the provider's log lines included): not
 * the password, not the base64 of `user:password`, not in a diagnostic when the server refuses. The password comes
 * from a sensitive variable, as the docs ask (Terraform then hides the URL in plans).
 */
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanupByPrefix, volumeNames } from '../helpers/guest';
import { TfWorkdir } from '../helpers/terraform';

jest.setTimeout(300_000);

const PREFIX = 'vstest-defects-cred-';
const USER = 'alice';
const PASSWORD = 'Canary-Pw-7f3a9c';
const WRONG = 'Wrong-Pw-51d0e2';
/** What must never be printed: the passwords and the basic-auth tokens they make. */
const SECRETS = [PASSWORD, WRONG, ...[PASSWORD, WRONG].map((p) => Buffer.from(`${USER}:${p}`).toString('base64'))];

/** Serves `file` at /image.qcow2 on 127.0.0.1, only with `Authorization: Basic base64(alice:PASSWORD)`, from a child
 *  process (terraform runs synchronously in this one); resolves with the port. Counts the authorized GETs. */
function basicAuthServer(file: string): Promise<{ port: number; child: ChildProcess }> {
  const script = `
    const http = require('node:http'); const fs = require('node:fs');
    const want = 'Basic ' + Buffer.from(${JSON.stringify(`${USER}:${PASSWORD}`)}).toString('base64');
    const server = http.createServer((req, res) => {
      if (req.headers.authorization !== want) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="images"' }); res.end(); return;
      }
      if (req.url !== '/image.qcow2') { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': fs.statSync(${JSON.stringify(file)}).size });
      if (req.method === 'HEAD') { res.end(); return; }
      fs.createReadStream(${JSON.stringify(file)}).pipe(res);
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ port: Number(d.toString().trim()), child }));
    child.once('exit', (code) => reject(new Error(`HTTP server exited ${code}`)));
  });
}

let tf: TfWorkdir;
let server: ChildProcess | undefined;
let image = '';
let imageSha = '';
let port = 0;

function hcl(): string {
  return `
variable "image_password" {
  type      = string
  sensitive = true
}
resource "virtseed_volume" "img" {
  pool   = "default"
  name   = "${PREFIX}img.qcow2"
  source = "http://${USER}:\${var.image_password}@127.0.0.1:${port}/image.qcow2"
  sha256 = "${imageSha}"
}
`;
}

/** terraform with TF_LOG=trace: what it printed (`out`) and its whole output (`all`: with the trace log). */
function traced(args: string[], password: string): { code: number; out: string; all: string } {
  const log = path.join(tf.dir, `trace-${Date.now()}.log`);
  const env = {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    NO_COLOR: '1',
    TF_LOG: 'trace',
    TF_LOG_PATH: log,
    TF_VAR_image_password: password,
  };
  const r = spawnSync('terraform', [...args, '-no-color'], { cwd: tf.dir, env, encoding: 'utf8', timeout: 300_000 });
  const out = `${r.stdout}\n${r.stderr}`;
  return { code: r.status ?? -1, out, all: `${out}\n${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''}` };
}

/** The lines of `text` that hold a secret (at most 3, for the failure message). */
function leaks(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => SECRETS.some((s) => l.includes(s)))
    .slice(0, 3);
}

beforeAll(async () => {
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('cred');
  image = path.join(tf.dir, 'image.qcow2');
  execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', image, '16M']);
  imageSha = createHash('sha256').update(fs.readFileSync(image)).digest('hex');
  ({ port, child: server } = await basicAuthServer(image));
  tf.write(hcl());
  tf.init();
});

afterAll(() => {
  server?.kill();
  if (fs.existsSync(path.join(tf.dir, 'terraform.tfstate'))) traced(['destroy', '-auto-approve', '-input=false'], PASSWORD);
  tf.dispose();
  cleanupByPrefix(PREFIX);
});

test("GIVEN a wrong password WHEN planned THEN the plan fails on source with the server's 401, the URL masked, and no credential in any output", () => {
  const r = traced(['plan', '-input=false'], WRONG);
  const out = r.out.replace(/\s+/g, ' ');
  expect({ code: r.code, out }).toEqual({ code: 1, out: expect.stringContaining('Error: Cannot read source') });
  expect(out).toContain(`GET http://${USER}:***@127.0.0.1:${port}/image.qcow2: HTTP 401`);
  expect(leaks(r.all)).toEqual([]);
});

test('GIVEN the right password WHEN applied THEN the image downloads with basic auth (sha256 verified) and no credential is in any output', () => {
  const r = traced(['apply', '-auto-approve', '-input=false'], PASSWORD);
  if (r.code !== 0) throw new Error(`apply failed:\n${r.out}`);
  expect(volumeNames(PREFIX)).toEqual([`${PREFIX}img.qcow2`]);
  expect(tf.resource('virtseed_volume.img').format).toBe('qcow2');
  expect(leaks(r.all)).toEqual([]);
});
