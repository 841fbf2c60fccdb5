/**
 * The signed release and its static registry, as Terraform users install providers (issue #36): the release is
 * built with the TEST signing key (test/packages/fixtures/release-test-key.asc, never a release key) by
 * packages/build/release.ts (once per test run: test/helpers/release.ts), its registry/ folder served over HTTPS on
 * 127.0.0.1 by a process of its own, with a certificate for `localhost` from a CA the test makes, which Terraform
 * trusts through SSL_CERT_FILE. The provider's source address is `localhost:PORT/virtseed/virtseed`. Checked:
 *   - `terraform init` installs it, verifying the signature (`self-signed, key ID ...`), and
 *     `terraform providers lock` records the h1 and zh hashes of every platform;
 *   - the single executable serves plan, apply and destroy of a volume with no `node` on PATH;
 *   - a tampered zip, a SHA256SUMS that no longer matches its signature, and a signature by another key each make
 *     `terraform init` fail with Terraform's own message;
 *   - `cdktf deploy` and `cdktn deploy` (CDK Terrain on Node 22: test/helpers/node22.ts) run without
 *     `--skip-provider-lock`, and destroy;
 *   - the arm64 executable gives the handshake under qemu-user-static.
 * Every terraform run has a home folder and an empty CLI configuration of its own (no mirror, no plugin cache).
 * The cdktf and cdktn stacks are destroyed by `terraform destroy` in the stack folder the deploy synthesized and
 * initialised (the provider the deploy installed from the registry): what is under test is the install, and each
 * start of the cdktf or cdktn CLI costs about 7 CPU seconds; `cdktf destroy` and `cdktn destroy` themselves run in
 * test/packages/install-from-packages.
 */
import { spawn as spawnChild, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { unzipSync } from 'fflate';
import * as openpgp from 'openpgp';
import { executableName, packageHashV1, zipName } from '../../cli/commands/provider-artifact';
import { signatureName } from '../../cli/commands/provider-registry';
import { signDetached } from '../../packages/build/release';
import { serveFiles, type FileServer } from '../helpers/file-server';
import { node22Bin } from '../helpers/node22';
import { npmCacheEnv } from '../helpers/npm-cache';
import { makeCa, makeCert } from '../helpers/pki';
import { testRelease } from '../helpers/release';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../../provider/src/plugin/handshake';

const ROOT = path.resolve(__dirname, '..', '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const URI = 'qemu:///system';
const PLATFORMS = ['linux_amd64', 'linux_arm64'];

jest.setTimeout(1_800_000);

let tmp: string;
let release: string;
let tls: { cert: string; key: string; ca: string };
let server: FileServer;
let host: string;
const servers: FileServer[] = [];

interface Run {
  cmd: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

function spawn({ cmd, args, cwd, env }: Run): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: env ?? process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** Runs a command; throws with its whole output when it fails. */
function run(r: Run): string {
  const out = spawn(r);
  if (out.status !== 0)
    throw new Error(`${r.cmd} ${r.args.join(' ')} (in ${r.cwd}) exited ${out.status ?? out.signal}:\n${out.stdout}\n${out.stderr}`);
  return out.stdout;
}

function virsh(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync('virsh', ['-c', URI, ...args], { encoding: 'utf8' });
}

function volumes(prefix: string): string[] {
  return virsh('vol-list', 'default')
    .stdout.split('\n')
    .map((s) => s.trim().split(/\s+/)[0] ?? '')
    .filter((s) => s.startsWith(prefix));
}

function removeVolumes(prefix: string): void {
  for (const v of volumes(prefix)) virsh('vol-delete', v, '--pool', 'default');
}

/** An environment with a home folder of its own, an empty CLI configuration and the test CA as the only root. */
function terraformEnv(name: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const home = path.join(tmp, `home-${name}`);
  fs.mkdirSync(home, { recursive: true });
  const rc = path.join(home, 'empty.tfrc');
  fs.writeFileSync(rc, '');
  const env: NodeJS.ProcessEnv = { ...base, HOME: home, TF_CLI_CONFIG_FILE: rc, SSL_CERT_FILE: tls.ca, CHECKPOINT_DISABLE: '1' };
  for (const k of ['TF_PLUGIN_CACHE_DIR', 'TF_LOG', 'TF_LOG_PATH']) delete env[k];
  return env;
}

/** A folder with a main.tf requiring the provider from `registryHost`, with a volume named `volume` when given. */
function hclProject(dir: string, registryHost: string, volume?: string): string {
  fs.mkdirSync(dir, { recursive: true });
  let tf = `terraform {\n  required_providers {\n    virtseed = { source = "${registryHost}/virtseed/virtseed", version = "${VERSION}" }\n  }\n}\n`;
  if (volume) {
    tf += `provider "virtseed" {\n  uri = "${URI}"\n}\nresource "virtseed_volume" "v" {\n  pool     = "default"\n  name     = "${volume}"\n  capacity = 1048576\n}\n`;
  }
  fs.writeFileSync(path.join(dir, 'main.tf'), tf);
  return dir;
}

/** The h1 hash of a release zip (Terraform's hash of the unpacked files), computed once per platform (a zip holds
 *  tens of MiB, unpacked by fflate in this process). */
const h1s = new Map<string, string>();
function h1OfZip(platform: string): string {
  let h1 = h1s.get(platform);
  if (!h1) {
    const entries = unzipSync(fs.readFileSync(path.join(release, zipName(VERSION, platform))));
    expect(Object.keys(entries)).toEqual([executableName(VERSION)]);
    h1 = packageHashV1(Object.entries(entries).map(([name, data]) => ({ name, data })));
    h1s.set(platform, h1);
  }
  return h1;
}

/** A copy of the registry folder changed by `change`, served on a port of its own: its host. */
async function servedCopy(name: string, change: (registry: string) => void | Promise<void>): Promise<string> {
  const copy = path.join(tmp, name);
  fs.cpSync(path.join(release, 'registry'), copy, { recursive: true });
  await change(path.join(copy, 'releases', VERSION));
  const s = await serveFiles(copy, tls);
  servers.push(s);
  return `localhost:${s.port}`;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-rel-'));
  release = testRelease(path.join(tmp, 'release')); // the test command's, else built here (test/helpers/release.ts)
  const ca = path.join(tmp, 'ca');
  makeCa(ca, 'vstest-rel test CA');
  makeCert(ca, ca, 'server', 'localhost', { san: ['DNS:localhost'] });
  tls = { cert: path.join(ca, 'servercert.pem'), key: path.join(ca, 'serverkey.pem'), ca: path.join(ca, 'cacert.pem') };
  server = await serveFiles(path.join(release, 'registry'), tls);
  servers.push(server);
  host = `localhost:${server.port}`;
});

afterAll(() => {
  for (const s of servers) s.stop();
  for (const prefix of ['vstest-rel-', 'vstest-relf-', 'vstest-reln-']) removeVolumes(prefix);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the signed release from a static registry over HTTPS', () => {
  it('GIVEN the registry WHEN terraform init and providers lock run THEN the signature is verified and the lock file holds every platform', () => {
    const dir = hclProject(path.join(tmp, 'lock'), host);
    const env = terraformEnv('lock');
    const init = run({ cmd: 'terraform', args: ['init', '-input=false', '-no-color'], cwd: dir, env });
    const keyId = /\(self-signed, key ID ([0-9A-F]{16})\)/.exec(init)?.[1];
    expect({ keyId, init }).toMatchObject({ keyId: expect.stringMatching(/^[0-9A-F]{16}$/) });
    expect(init).toContain(`Installed ${host}/virtseed/virtseed v${VERSION} (self-signed, key ID ${keyId})`);
    expect(init).toContain('signed by their developers');
    const armored = fs.readFileSync(path.join(release, `terraform-provider-virtseed_${VERSION}_signing-key.asc`), 'utf8');
    expect(armored).toContain('BEGIN PGP PUBLIC KEY BLOCK');

    run({ cmd: 'terraform', args: ['providers', 'lock', '-no-color', ...PLATFORMS.map((p) => `-platform=${p}`)], cwd: dir, env });
    const lock = fs.readFileSync(path.join(dir, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toContain(`provider "${host}/virtseed/virtseed"`);
    const sums = fs.readFileSync(path.join(release, `terraform-provider-virtseed_${VERSION}_SHA256SUMS`), 'utf8');
    for (const platform of PLATFORMS) {
      expect(lock).toContain(`"${h1OfZip(platform)}"`);
      const zh = new RegExp(`^([0-9a-f]{64})  ${zipName(VERSION, platform)}$`, 'm').exec(sums)?.[1];
      expect(lock).toContain(`"zh:${zh}"`);
    }
  });

  it('GIVEN no node on PATH WHEN terraform plans, applies and destroys a volume THEN the single executable serves them', () => {
    const prefix = 'vstest-rel-';
    removeVolumes(prefix);
    const bin = path.join(tmp, 'bin-without-node');
    fs.mkdirSync(bin);
    fs.symlinkSync('/usr/local/bin/terraform', path.join(bin, 'terraform'));
    const env = terraformEnv('nonode', { ...process.env, PATH: bin });
    const which = spawnSync('/bin/sh', ['-c', 'command -v node'], { env, encoding: 'utf8' });
    expect({ found: which.status === 0, out: which.stdout }).toEqual({ found: false, out: '' });
    const dir = hclProject(path.join(tmp, 'nonode'), host, `${prefix}v.qcow2`);
    const tf = (...args: string[]) =>
      run({ cmd: path.join(bin, 'terraform'), args: [...args, '-no-color', '-input=false'], cwd: dir, env });

    tf('init');
    expect(tf('plan')).toContain('virtseed_volume.v will be created');
    tf('apply', '-auto-approve');
    expect(volumes(prefix)).toEqual([`${prefix}v.qcow2`]);
    const again = spawn({ cmd: path.join(bin, 'terraform'), args: ['plan', '-detailed-exitcode', '-no-color'], cwd: dir, env });
    expect({ status: again.status, out: again.stdout + again.stderr }).toMatchObject({ status: 0 });
    tf('destroy', '-auto-approve');
    expect(volumes(prefix)).toEqual([]);
  });

  it('GIVEN a tampered zip, a changed SHA256SUMS or a signature by another key WHEN terraform init runs THEN Terraform refuses with its own message', async () => {
    const zip = zipName(VERSION, 'linux_amd64');
    const tampered = await servedCopy('tampered-zip', (dir) => {
      const bytes = fs.readFileSync(path.join(dir, zip));
      bytes[bytes.length >> 1] ^= 1;
      fs.writeFileSync(path.join(dir, zip), bytes);
    });
    const changedSums = await servedCopy('changed-sums', (dir) => {
      fs.appendFileSync(path.join(dir, `terraform-provider-virtseed_${VERSION}_SHA256SUMS`), '\n');
    });
    const otherKey = await servedCopy('other-key', async (dir) => {
      const { privateKey } = await openpgp.generateKey({
        type: 'curve25519',
        userIDs: [{ name: 'vstest another key' }],
        format: 'armored',
      });
      const sums = fs.readFileSync(path.join(dir, `terraform-provider-virtseed_${VERSION}_SHA256SUMS`));
      fs.writeFileSync(path.join(dir, signatureName(VERSION)), (await signDetached(sums, { armored: privateKey })).signature);
    });
    const cases: [string, RegExp][] = [
      [tampered, /archive has\s+incorrect checksum/],
      [changedSums, /error\s+checking\s+signature:\s+openpgp:\s+invalid\s+signature/],
      [otherKey, /authentication\s+signature\s+from\s+unknown\s+issuer/],
    ];
    for (const [registryHost, message] of cases) {
      const dir = hclProject(path.join(tmp, `refused-${registryHost.replace(':', '-')}`), registryHost);
      const init = spawn({ cmd: 'terraform', args: ['init', '-input=false', '-no-color'], cwd: dir, env: terraformEnv('refused') });
      expect({ status: init.status, out: init.stdout + init.stderr }).toMatchObject({ status: 1, out: expect.stringMatching(message) });
      expect(fs.existsSync(path.join(dir, '.terraform.lock.hcl'))).toBe(false);
    }
  });

  it('GIVEN a cdktf app requiring the provider from the registry WHEN cdktf deploy runs without --skip-provider-lock THEN the volume is created, and destroy removes it', () => {
    const prefix = 'vstest-relf-';
    removeVolumes(prefix);
    const dir = path.join(tmp, 'cdktf');
    fs.mkdirSync(dir);
    writeCdkJson(dir, prefix);
    const gen = (name: string) => JSON.stringify(path.join(ROOT, 'dist', 'constructs', 'generated', 'virtseed', name));
    fs.writeFileSync(
      path.join(dir, 'main.js'),
      `const { App, TerraformStack } = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'cdktf'))});
const { VirtseedProvider } = require(${gen('provider')});
const { Volume } = require(${gen('volume')});
const app = new App();
const stack = new TerraformStack(app, 'app');
stack.addOverride('terraform.required_providers.virtseed.source', '${host}/virtseed/virtseed');
new VirtseedProvider(stack, 'virtseed', { uri: '${URI}' });
new Volume(stack, 'v', { pool: 'default', name: '${prefix}v.qcow2', capacity: 1048576 });
app.synth();
`,
    );
    const env = terraformEnv('cdktf');
    const cdktf = path.join(ROOT, 'node_modules', '.bin', 'cdktf');
    run({ cmd: cdktf, args: ['deploy', 'app', '--auto-approve'], cwd: dir, env });
    expect(volumes(prefix)).toEqual([`${prefix}v.qcow2`]);
    const lock = fs.readFileSync(path.join(dir, 'cdktf.out', 'stacks', 'app', '.terraform.lock.hcl'), 'utf8');
    expect(lock).toContain(`"${h1OfZip('linux_amd64')}"`);
    destroyStack(dir, env);
    expect(volumes(prefix)).toEqual([]);
  });

  it('GIVEN a CDK Terrain app on Node 22 requiring the provider from the registry WHEN cdktn deploy runs without --skip-provider-lock THEN the volume is created, and destroy removes it', () => {
    const prefix = 'vstest-reln-';
    removeVolumes(prefix);
    // Not a documented path (the README's cdktn path is test/packages/install-from-packages): npm answers from the
    // test runs' cache where it can (test/helpers/npm-cache.ts). The app folder gets the library (cdktn, constructs);
    // the CLI runs as `npx --yes cdktn-cli@0.24`, which takes the install `npx --yes cdktn-cli@0.24 init` of the
    // README's cdktn path left in that cache (test/packages/install-from-packages), else installs it there once:
    // cdktn-cli (about 200 MB) is not installed a second time per run.
    const npm = (args: string[], cwd: string, env?: NodeJS.ProcessEnv) =>
      run({ cmd: 'npm', args: ['install', '--no-audit', '--no-fund', '--loglevel=error', ...args], cwd, env });
    const base = { ...process.env, ...npmCacheEnv(), PATH: `${node22Bin()}:${process.env.PATH}` };
    const dir = path.join(tmp, 'cdktn');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'vstest-reln-app', version: '1.0.0', private: true }));
    npm(['cdktn@0.24', 'constructs@10.7.2'], dir, base);
    writeCdkJson(dir, prefix);
    // The provider and the volume through CDK Terrain's own classes (what generated bindings extend).
    fs.writeFileSync(
      path.join(dir, 'main.js'),
      `const { App, TerraformStack, TerraformProvider, TerraformResource } = require('cdktn');
const meta = { providerName: 'virtseed', providerVersionConstraint: '${VERSION}' };
class Virtseed extends TerraformProvider {
  constructor(scope, id) {
    super(scope, id, { terraformResourceType: 'virtseed', terraformGeneratorMetadata: meta, terraformProviderSource: '${host}/virtseed/virtseed' });
  }
  synthesizeAttributes() { return { uri: '${URI}' }; }
}
class Volume extends TerraformResource {
  constructor(scope, id, config) {
    super(scope, id, { terraformResourceType: 'virtseed_volume', terraformGeneratorMetadata: meta });
    this.config = config;
  }
  synthesizeAttributes() { return this.config; }
}
const app = new App();
const stack = new TerraformStack(app, 'app');
new Virtseed(stack, 'virtseed');
new Volume(stack, 'v', { pool: 'default', name: '${prefix}v.qcow2', capacity: 1048576 });
app.synth();
`,
    );
    const env = terraformEnv('cdktn', base);
    const cdktn = (...args: string[]) => run({ cmd: 'npx', args: ['--yes', 'cdktn-cli@0.24', ...args], cwd: dir, env });
    cdktn('deploy', 'app', '--auto-approve');
    expect(volumes(prefix)).toEqual([`${prefix}v.qcow2`]);
    destroyStack(dir, env);
    expect(volumes(prefix)).toEqual([]);
  });

  it('GIVEN the linux_arm64 zip WHEN its executable runs under qemu-user-static THEN it gives the go-plugin handshake', async () => {
    const dir = path.join(tmp, 'arm64');
    fs.mkdirSync(dir);
    const [[name, data]] = Object.entries(unzipSync(fs.readFileSync(path.join(release, zipName(VERSION, 'linux_arm64')))));
    const exe = path.join(dir, name);
    fs.writeFileSync(exe, data, { mode: 0o755 });
    const cert = fs.readFileSync(tls.cert, 'utf8');
    const child = spawnChild('qemu-aarch64-static', ['-L', '/usr/aarch64-linux-gnu', exe], {
      env: {
        PATH: '/usr/bin:/bin',
        TMPDIR: dir,
        VIRTSEED_CACHE_DIR: path.join(dir, 'cache'),
        [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
        PLUGIN_PROTOCOL_VERSIONS: '6',
        PLUGIN_CLIENT_CERT: cert,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The handshake line is the whole check: the provider then waits for Terraform, so it is stopped.
    let out = '';
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const status = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('\n')) child.kill('SIGTERM');
      });
      child.on('exit', (code) => resolve(code));
      setTimeout(() => child.kill('SIGKILL'), 120_000).unref();
    });
    expect({ status, out, err }).toMatchObject({ out: expect.stringMatching(/^1\|6\|unix\|[^|]+\|grpc\|[A-Za-z0-9+/=]+\n/) });
  });
});

/** `terraform destroy` of the stack `app` that a deploy in project `dir` synthesized and initialised. */
function destroyStack(dir: string, env: NodeJS.ProcessEnv): void {
  run({
    cmd: 'terraform',
    args: ['destroy', '-auto-approve', '-input=false', '-no-color'],
    cwd: path.join(dir, 'cdktf.out', 'stacks', 'app'),
    env,
  });
}

/** cdktf.json as `cdktf init` writes it, running main.js with node. */
function writeCdkJson(dir: string, prefix: string): void {
  fs.writeFileSync(
    path.join(dir, 'cdktf.json'),
    JSON.stringify({
      language: 'typescript',
      app: 'node main.js',
      projectId: `${prefix}project`,
      sendCrashReports: 'false',
      terraformProviders: [],
      terraformModules: [],
      context: {},
    }),
  );
}
