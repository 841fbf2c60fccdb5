/**
 * virtseed as a user installs it, following the README word for word: its three install paths (`cdktf`, `cdktn`,
 * `hcl`; packages/build/install-paths.ts reads them from README.md) run line by line in empty folders outside this
 * repository. The cdktf and cdktn paths start with the real `cdktf init` / `cdktn init` (from the npm registry, as
 * the README writes them); right after that line the test writes its stack into main.ts, as the README tells the
 * user to. The HCL path runs in a folder with a main.tf of the README's provider block. The registry is the one
 * thing replaced, for our packages only: `npm install` takes the packed files of `npm run package` for `virtseed`,
 * `@virtseed/cdktf` and `@virtseed/cdktn`. Each path runs as on a fresh host: a home folder of its own (so
 * `npx virtseed provider install` writes into the test's `~/.terraform.d/plugins`), no Terraform CLI configuration,
 * and no use of libvirt's pool `default` (each stack declares its own storage pool). Then the test checks the VM
 * (or volume) on the host and destroys it. The three paths run side by side (started in beforeAll; each test awaits
 * its own): their npm installs, syntheses and deploys overlap, and each has its own folders, home and objects. CDK
 * Terrain's CLI needs Node >= 22.19: test/helpers/node22.ts (installed once per machine, shared with other files).
 * npm and npx run with the test runs' own cache, kept per machine (test/helpers/npm-cache.ts: npm's environment
 * configuration; the lines run as written): offline where it holds the packages, and the `init` lines' `npx --yes`
 * runs the CLI npx installed at the machine's first run (there, each path's CLI is installed twice, by npx and by
 * the path's `npm install --save-dev` line: about 100 CPU seconds more for the file). The folders are on /dev/shm
 * (RAM, when mounted without noexec; else the system's temporary folder): about 1.5 GB of node_modules, written
 * and removed with less kernel time and no waiting on the disk. The destroys take the stack the deploy synthesized
 * (`--skip-synth`). The cdktf path's own stack is destroyed by `terraform destroy` in that stack's folder: the same
 * project's `cdktf destroy` runs at the end of the library's tests (each start of the cdktf CLI costs about 7 CPU
 * seconds); the cdktn path's by `cdktn destroy`.
 *
 * The test's stack defines the VM without starting it (`running: false`): the README's paths install and deploy
 * whatever stack main.ts holds, and what is under test is the path, not a guest boot (the guest suites boot
 * guests). Its base image is a small qcow2 the test makes, so the upload is quick.
 *
 * Then examples/library as its author ships it and a team uses it, following docs/guides/construct-library.md
 * (issue 24 item 3 and issue 35), in the project the README's cdktf path made (the guide's step 4 starts "in a
 * project made by `cdktf init`, as the README's cdktf path makes it"; one project instead of a second `cdktf init`
 * and a second install of cdktf-cli): the library is copied out of the repository, given @virtseed/cdktf from its
 * packed tarball, built (tsc: JavaScript and .d.ts) and packed (`npm pack`), beside the three paths; the guide's
 * step-4 commands then run as the Markdown writes them (read from it, our packages from their tarballs). The
 * project deploys a WebFleet without a `pool` (the fleet makes its own: the host's pool `default` is not used),
 * defined, not started (no guest boots), upgrades to a second library version whose default memory changed
 * (`cdktf diff` shows 256 → 384 on each VM), and destroys everything it made (`--skip-synth`: the stack `cdktf
 * diff` synthesized last).
 *
 * What each test covers (each README line's output is in the failure message of the line that fails):
 * - README cdktf path: `npx --yes cdktf-cli@0.21 init` (the real init; cdktf.json's app is `npx ts-node main.ts`),
 *   the TypeScript 5 pin, `npm install virtseed @virtseed/cdktf` (from their tarballs: the constructs are in
 *   node_modules), the project's cdktf-cli, `npx virtseed provider install` into the path's own home, `npx cdktf
 *   deploy` (ts-node synth: the stack has virtseed_domain, _volume and _cloudinit_seed and requires
 *   virtseed/virtseed at our version; on the host: the domain shut off, base, root and seed volumes, its own pool);
 *   the installed package holds the precompiled schema validators and the synth used them, loading no module of
 *   ajv's compiler (main.ts writes the synth's `require.cache` for that); `terraform destroy` of the synthesized
 *   stack leaves none of them.
 * - README cdktn path: the same on Node 22 (`node --version` on the path's PATH) with `npx --yes cdktn-cli@0.24
 *   init`, @virtseed/cdktn and `npx cdktn deploy`; `cdktn destroy --skip-synth` leaves nothing.
 * - README HCL path: `npm install virtseed`, `npx virtseed provider install`, `terraform init` and `terraform apply`
 *   with the README's provider block make the pool and the volume; `terraform destroy` leaves nothing.
 * - examples/library built and packed: the tarball is virtseed-web-fleet-1.0.0.tgz with lib/*.js and lib/*.d.ts,
 *   no TypeScript sources, the documented `@default 256` in the .d.ts and the documented peer dependencies.
 * - the guide's step 4 in the README cdktf project (after its own stack is gone): the install and deploy lines as
 *   written make two VMs of 256 MiB, the fleet's own pool and network.
 * - library 1.1.0 (default memory 384; `npm version`, packed again, installed): `cdktf diff` shows `memory = 256 ->
 *   384` on both VMs and `2 to change` (its synth runs main.ts with ts-node's TS_NODE_TRANSPILE_ONLY: the deploy
 *   before it type-checked the same main.ts).
 * - `cdktf destroy --skip-synth` of the fleet leaves no domain, volume, pool or network with its prefix.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { installPaths, type InstallPath } from '../../packages/build/install-paths';
import { docCommands } from '../helpers/doc-paths';
import { cleanupByPrefix, volumeNames } from '../helpers/guest';
import { cleanupNetworksByPrefix, networkNames, testSubnetOctet } from '../helpers/network';
import { node22Bin } from '../helpers/node22';
import { npmCacheEnv } from '../helpers/npm-cache';
import { packedProducts } from '../helpers/packages';
import { cleanupPoolsByPrefix, poolNames, poolVolumes } from '../helpers/pool';

const ROOT = path.resolve(__dirname, '..', '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const URI = 'qemu:///system';
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const PATHS = installPaths(README);
const GUIDE = fs.readFileSync(path.join(ROOT, 'docs', 'guides', 'construct-library.md'), 'utf8');
/** The library's objects (the WebFleet's domains, pool and network). */
const LIB_PREFIX = 'vstest-gitops-lib-';
const LIB_SUBNET = `10.213.${testSubnetOctet(`${LIB_PREFIX}net`)}.0/24`;

jest.setTimeout(1_500_000);

let tmp: string;
let tarballs: string[];

/** Bytes free on /dev/shm the file's folders may take (about 1.5 GB of node_modules while it runs). */
const SHM_NEEDED_BYTES = 4 * 1024 ** 3;

/** Where the test's folders go: /dev/shm when it is a tmpfs mounted without noexec (the paths run the provider
 *  and node_modules/.bin scripts from them) with at least SHM_NEEDED_BYTES free (it is memory, shared with the
 *  guests), else the system's temporary folder. */
function scratchRoot(): string {
  const shm = fs
    .readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' '))
    .find((f) => f[1] === '/dev/shm' && f[2] === 'tmpfs');
  if (!shm || (shm[3] ?? '').split(',').includes('noexec')) return os.tmpdir();
  const free = fs.statfsSync('/dev/shm');
  return free.bavail * free.bsize >= SHM_NEEDED_BYTES ? '/dev/shm' : os.tmpdir();
}
let image: string;

interface Run {
  cmd: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/** Runs a command; throws with its whole output when it fails. */
function run({ cmd, args, cwd, env }: Run): string {
  const r: SpawnSyncReturns<string> = spawnSync(cmd, args, { cwd, env: env ?? process.env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** {@link run} without blocking: the three paths run side by side. Rejects with the command's whole output. */
function runAsync({ cmd, args, cwd, env }: Run): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', (e) => reject(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) did not start: ${e.message}`)));
    child.on('close', (code, signal) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${code ?? signal}:\n${stdout}\n${stderr}`)),
    );
  });
}

function virsh(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync('virsh', ['-c', URI, ...args], { encoding: 'utf8' });
}

/** This test's domains, pools and their volumes on the host. */
function leftovers(prefix: string): string[] {
  const doms = virsh('list', '--all', '--name')
    .stdout.split('\n')
    .map((s) => s.trim())
    .filter((s) => s.startsWith(prefix));
  const pools = poolNames(prefix);
  const vols = pools.flatMap((p) => poolVolumes(p));
  return [...doms.map((d) => `domain ${d}`), ...pools.map((p) => `pool ${p}`), ...vols.map((v) => `volume ${v}`)];
}

function removeLeftovers(prefix: string): void {
  for (const item of leftovers(prefix)) {
    const [kind, name] = item.split(' ') as [string, string];
    if (kind === 'domain') {
      virsh('destroy', name);
      virsh('undefine', name, '--nvram');
    }
  }
  cleanupPoolsByPrefix(prefix);
}

const tarball = (name: string) => {
  const file = tarballs.find((t) => path.basename(t).startsWith(`${name}-${VERSION}`));
  if (!file) throw new Error(`no ${name} tarball among ${tarballs.join(', ')}`);
  return file;
};

/** Where main.ts writes the modules its synthesis loaded (the files of `require.cache`, a JSON array). */
const SYNTH_MODULES = 'synth-modules.json';

/**
 * Writes main.ts of a project `init` made: a stack of `framework` with the virtseed provider on the test's libvirt,
 * whose constructor goes on with `body` (lines indented 4 spaces) using `imports` (one import line per entry). After
 * `app.synth()` it writes the modules the synthesis loaded into {@link SYNTH_MODULES} (the test's probe, not a
 * user's line: {@link expectPrecompiledValidators} reads it).
 */
function writeMainTs(dir: string, framework: 'cdktf' | 'cdktn', imports: readonly string[], body: string): void {
  fs.writeFileSync(
    path.join(dir, 'main.ts'),
    `import { writeFileSync } from 'fs';
import { Construct } from 'constructs';
import { App, TerraformOutput, TerraformStack } from '${framework}';
${imports.join('\n')}

class Stack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new bindings.provider.VirtseedProvider(this, 'virtseed', { uri: '${URI}' });
${body}  }
}

const app = new App();
new Stack(app, 'app');
app.synth();
writeFileSync(${JSON.stringify(path.join(dir, SYNTH_MODULES))}, JSON.stringify(Object.keys(require.cache)));
`,
  );
}

/**
 * The installed construct package holds the precompiled validators (src/seed/schemas/*validators.generated, which
 * src/seed/checks/schema.ts loads by a lazy `require`), and the project's last synthesis used them: it loaded the
 * cloud-config one and no module of ajv's schema compiler (ajv/dist/compile, ajv-draft-04, ajv-formats' plugin),
 * i.e. it compiled no JSON Schema (what the package did at every synth while it lacked them).
 */
function expectPrecompiledValidators(project: string, framework: 'cdktf' | 'cdktn'): void {
  const schemas = path.join(project, 'node_modules', '@virtseed', framework, 'lib', 'src', 'seed', 'schemas');
  const generated = ['validators.generated.js', 'cloud-config.validators.generated.js'].map((f) => path.join(schemas, f));
  expect(generated.filter((f) => !fs.existsSync(f))).toEqual([]);
  const loaded = JSON.parse(fs.readFileSync(path.join(project, SYNTH_MODULES), 'utf8')) as string[];
  expect(loaded).toContain(path.join(schemas, 'cloud-config.validators.generated.js'));
  expect(
    loaded.filter((f) => /[/\\]node_modules[/\\](ajv[/\\]dist[/\\]compile|ajv-draft-04|ajv-formats[/\\]dist[/\\]index)/.test(f)),
  ).toEqual([]);
}

/** The user's stack, written into main.ts of the project `init` made: a VM in a storage pool of its own. */
function writeStack(dir: string, framework: 'cdktf' | 'cdktn', prefix: string): void {
  const pkg = framework === 'cdktf' ? '@virtseed/cdktf' : '@virtseed/cdktn';
  writeMainTs(
    dir,
    framework,
    [`import { BaseImage, bindings, CloudInit, NetworkAttachment, Size, StoragePool, VirtualMachine } from '${pkg}';`],
    `    const pool = new StoragePool(this, 'pool', { name: '${prefix}pool', path: '/var/lib/libvirt/images/${prefix}pool' });
    const vm = new VirtualMachine(this, 'vm', {
      name: '${prefix}vm',
      pool,
      baseImage: BaseImage.fromFile('${image}', { volumeName: '${prefix}base' }),
      diskSize: Size.mebibytes(128),
      memoryMiB: 128,
      running: false,
      networks: [NetworkAttachment.userMode()],
      cloudInit: CloudInit.fromConfig({ hostname: '${prefix}vm', cloudConfig: { runcmd: ['echo hello'] } }),
    });
    new TerraformOutput(this, 'instance_id', { value: vm.instanceId });
    new TerraformOutput(this, 'uuid', { value: vm.uuid });
`,
  );
}

/**
 * The environment of a README path: a home folder of the test's own (no ~/.terraformrc, an empty
 * ~/.terraform.d/plugins) and no CLI configuration or plugin cache from the machine; npm with the test runs' cache.
 */
function pathEnv(home: string, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  fs.mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...base, HOME: home, ...npmCacheEnv(), CHECKPOINT_DISABLE: '1' };
  for (const k of ['TF_CLI_CONFIG_FILE', 'TF_PLUGIN_CACHE_DIR', 'TF_LOG', 'TF_LOG_PATH']) delete env[k];
  return env;
}

/** The packed file standing in for a package of ours in an `npm install` line; other words unchanged. */
function packed(word: string): string {
  const names: Record<string, string> = { virtseed: 'virtseed', '@virtseed/cdktf': 'virtseed-cdktf', '@virtseed/cdktn': 'virtseed-cdktn' };
  return names[word] ? tarball(names[word]) : word;
}

/**
 * Runs the README's install path `name` in `cwd`, each line as written (ours from the packed files); `afterInit`
 * runs right after the framework's `init` line (the user writes the stack into main.ts then). Resolves to each line
 * with its wall time in seconds (also logged).
 */
async function runReadmePath(name: InstallPath, cwd: string, env: NodeJS.ProcessEnv, afterInit?: () => void): Promise<[string, number][]> {
  const times: [string, number][] = [];
  for (const line of PATHS[name]) {
    if (/["'$`|&;<>]/.test(line)) throw new Error(`README install path ${name}: "${line}" needs a shell; keep the lines plain commands`);
    const [cmd, ...args] = line.split(/\s+/) as [string, ...string[]];
    const t0 = process.hrtime.bigint();
    await runAsync({ cmd, args: cmd === 'npm' && args[0] === 'install' ? args.map(packed) : args, cwd, env });
    times.push([line, Number(process.hrtime.bigint() - t0) / 1e9]);
    if (afterInit && cmd === 'npx' && args.includes('init')) afterInit();
  }
  console.log(`README install path ${name}:\n${times.map(([l, t]) => `  ${t.toFixed(1)} s  ${l}`).join('\n')}`);
  return times;
}

/**
 * After a construct path: the synthesized stack, the VM on the host; then destroy (checks nothing is left): by the
 * project's `cli` (`npx --no-install <cli> destroy --skip-synth`), or with `cli` undefined by `terraform destroy` in
 * the synthesized stack's folder.
 */
async function checkAndDestroy(project: string, cli: 'cdktf' | 'cdktn' | undefined, env: NodeJS.ProcessEnv, prefix: string): Promise<void> {
  const synthesized = JSON.parse(fs.readFileSync(path.join(project, 'cdktf.out', 'stacks', 'app', 'cdk.tf.json'), 'utf8'));
  expect(Object.keys(synthesized.resource)).toEqual(
    expect.arrayContaining(['virtseed_domain', 'virtseed_volume', 'virtseed_cloudinit_seed']),
  );
  expect(synthesized.terraform.required_providers.virtseed).toMatchObject({ source: 'virtseed/virtseed', version: VERSION });
  const info = virsh('dominfo', `${prefix}vm`);
  expect({ status: info.status, out: info.stdout + info.stderr }).toMatchObject({ status: 0 });
  expect(info.stdout).toMatch(/State:\s+shut off/);
  expect(leftovers(prefix).filter((l) => l.startsWith('volume')).length).toBeGreaterThanOrEqual(3); // base, root, seed
  expect(leftovers(prefix)).toContain(`pool ${prefix}pool`);

  await runAsync(
    cli
      ? {
          cmd: 'npx',
          args: ['--no-install', cli, 'destroy', 'app', '--auto-approve', '--skip-provider-lock', '--skip-synth'],
          cwd: project,
          env,
        }
      : {
          cmd: 'terraform',
          args: ['destroy', '-auto-approve', '-input=false'],
          cwd: path.join(project, 'cdktf.out', 'stacks', 'app'),
          env,
        },
  );
  expect(leftovers(prefix)).toEqual([]);
}

/** The README's HCL provider block (under "Installing the provider"), a pool and a small volume in it, as a main.tf. */
function hclProject(dir: string, prefix: string): void {
  const block = /```hcl\n(terraform \{[\s\S]*?provider "virtseed" \{[\s\S]*?\n\})\n```/.exec(README)?.[1];
  if (!block) throw new Error('README.md has no ```hcl block with the terraform and provider "virtseed" blocks');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'main.tf'),
    `${block}\nresource "virtseed_pool" "p" {\n  name = "${prefix}pool"\n  path = "/var/lib/libvirt/images/${prefix}pool"\n}\n` +
      `resource "virtseed_volume" "v" {\n  pool     = virtseed_pool.p.name\n  name     = "${prefix}v.qcow2"\n  capacity = 1048576\n}\n`,
  );
}

/** Each README path, started in beforeAll and run side by side (their npm installs and deploys overlap); a test
 *  awaits its own. Resolves to the path's folder and environment. */
interface Started {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
}
const started: Partial<Record<InstallPath, Promise<Started>>> = {};

function start(name: InstallPath, go: () => Promise<Started>): void {
  const p = go();
  p.catch(() => undefined); // awaited (and reported) by the path's test; no unhandled rejection meanwhile
  started[name] = p;
}

async function startCdktf(): Promise<Started> {
  const prefix = 'vstest-pkgf-';
  removeLeftovers(prefix);
  const project = path.join(tmp, 'cdktf', 'app');
  fs.mkdirSync(project, { recursive: true });
  const env = pathEnv(path.join(tmp, 'home-cdktf'), process.env);
  await runReadmePath('cdktf', project, env, () => writeStack(project, 'cdktf', prefix));
  return { dir: project, env };
}

async function startCdktn(): Promise<Started> {
  const prefix = 'vstest-pkgn-';
  removeLeftovers(prefix);
  const env = pathEnv(path.join(tmp, 'home-cdktn'), { ...process.env, PATH: `${node22Bin()}:${process.env.PATH}` });
  const version = run({ cmd: 'node', args: ['--version'], cwd: tmp, env }).trim();
  if (!/^v22\./.test(version)) throw new Error(`node --version on the cdktn path's PATH gave ${version}, not v22`);
  const project = path.join(tmp, 'cdktn', 'app');
  fs.mkdirSync(project, { recursive: true });
  await runReadmePath('cdktn', project, env, () => writeStack(project, 'cdktn', prefix));
  return { dir: project, env };
}

async function startHcl(): Promise<Started> {
  const prefix = 'vstest-pkgh-';
  removeLeftovers(prefix);
  const dir = path.join(tmp, 'hcl');
  hclProject(dir, prefix);
  const env = pathEnv(path.join(tmp, 'home-hcl'), process.env);
  await runReadmePath('hcl', dir, env);
  return { dir, env };
}

/** examples/library's copy (built) and its packed 1.0.0, made in beforeAll beside the README paths. */
interface Library {
  readonly dir: string;
  readonly v1: string;
}
let library: Promise<Library>;
/** Whether the library's deploy is still on the host (afterAll destroys it then). */
let libraryDeployed = false;

/** npm for the library's own builds (not a documented path): the test runs' cache. */
const libraryEnv = (): NodeJS.ProcessEnv => ({ ...process.env, ...npmCacheEnv() });

/** Packs the library copy `dir` (its prepack builds it); resolves to the tarball's path. */
async function packLibrary(dir: string): Promise<string> {
  const out = path.join(tmp, 'library-packed');
  fs.mkdirSync(out, { recursive: true });
  await runAsync({ cmd: 'npm', args: ['pack', '--pack-destination', out, '--loglevel=error'], cwd: dir, env: libraryEnv() });
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version as string;
  const file = path.join(out, `virtseed-web-fleet-${version}.tgz`);
  if (!fs.existsSync(file)) throw new Error(`npm pack wrote no ${file}: ${fs.readdirSync(out).join(', ')}`);
  return file;
}

/** examples/library copied out of the repository, given @virtseed/cdktf from its tarball, built and packed. */
async function startLibrary(): Promise<Library> {
  const dir = path.join(tmp, 'web-fleet');
  fs.cpSync(path.join(ROOT, 'examples', 'library'), dir, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|lib)$/.test(src) && !src.endsWith('.tgz'),
  });
  await runAsync({
    cmd: 'npm',
    args: ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-dev', tarball('virtseed-cdktf')],
    cwd: dir,
    env: libraryEnv(),
  });
  return { dir, v1: await packLibrary(dir) };
}

/** The library's domains on the host. */
function libraryDomains(): string[] {
  return virsh('list', '--all', '--name')
    .stdout.split('\n')
    .map((s) => s.trim())
    .filter((s) => s.startsWith(LIB_PREFIX))
    .sort();
}

/** The user's stack, written into main.ts of the README cdktf project: a WebFleet without a pool. */
function writeFleetStack(dir: string): void {
  writeMainTs(
    dir,
    'cdktf',
    [`import { BaseImage, bindings } from '@virtseed/cdktf';`, `import { WebFleet } from 'virtseed-web-fleet';`],
    `    const fleet = new WebFleet(this, 'web', {
      namePrefix: '${LIB_PREFIX}',
      baseImage: BaseImage.fromFile('${image}', { volumeName: '${LIB_PREFIX}base' }),
      subnet: '${LIB_SUBNET}',
      running: false,
      cloudInit: { cloudConfig: { runcmd: ['echo hello from the fleet'] } },
    });
    new TerraformOutput(this, 'addresses', { value: fleet.members.map((m) => m.address) });
`,
  );
}

/** Runs the guide's command block `name` in `cwd` as written, `npm install` words naming our packages (and the
 *  library, `virtseed-web-fleet`) replaced by their tarballs. */
function runGuideLines(name: string, cwd: string, env: NodeJS.ProcessEnv, libraryTarball: string): void {
  for (const line of docCommands(GUIDE, name, 'construct-library.md')) {
    if (/["'$`|&;<>]/.test(line)) throw new Error(`construct-library.md ${name}: "${line}" needs a shell; keep the lines plain commands`);
    const [cmd, ...args] = line.split(/\s+/) as [string, ...string[]];
    const word = (w: string) => (w === 'virtseed-web-fleet' ? libraryTarball : packed(w));
    run({ cmd, args: cmd === 'npm' && args[0] === 'install' ? args.map(word) : args, cwd, env });
  }
}

beforeAll(() => {
  cleanupByPrefix(LIB_PREFIX);
  cleanupPoolsByPrefix(LIB_PREFIX);
  cleanupNetworksByPrefix(LIB_PREFIX);
  tmp = fs.mkdtempSync(path.join(scratchRoot(), 'vstest-pkg-'));
  tarballs = packedProducts(path.join(tmp, 'npm'));
  image = path.join(tmp, 'base.qcow2');
  run({ cmd: 'qemu-img', args: ['create', '-q', '-f', 'qcow2', image, '64M'], cwd: tmp });
  start('cdktn', startCdktn); // first: its Node 22 install (synchronous, once per checkout) before the others spawn
  start('cdktf', startCdktf);
  start('hcl', startHcl);
  library = startLibrary();
  library.catch(() => undefined); // awaited (and reported) by the library's tests
});

afterAll(async () => {
  await Promise.allSettled([...Object.values(started), library]); // nothing still writing while leftovers are removed
  try {
    const cdktf = await started.cdktf?.catch(() => undefined);
    if (libraryDeployed && cdktf) {
      spawnSync('npx', ['--no-install', 'cdktf', 'destroy', 'app', '--auto-approve', '--skip-provider-lock'], {
        cwd: cdktf.dir,
        env: cdktf.env,
        encoding: 'utf8',
      });
    }
  } finally {
    for (const prefix of ['vstest-pkgf-', 'vstest-pkgn-', 'vstest-pkgh-']) removeLeftovers(prefix);
    cleanupByPrefix(LIB_PREFIX);
    cleanupPoolsByPrefix(LIB_PREFIX);
    cleanupNetworksByPrefix(LIB_PREFIX);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
});

describe('the README install paths, from the packages, outside the repository (the three side by side)', () => {
  it('GIVEN an empty folder WHEN the README cdktf path runs as written, from the real cdktf init THEN the VM is deployed, and destroy removes it', async () => {
    const { dir: project, env } = await started.cdktf!;
    expect(JSON.parse(fs.readFileSync(path.join(project, 'cdktf.json'), 'utf8'))).toMatchObject({ app: 'npx ts-node main.ts' });
    expect(fs.existsSync(path.join(project, 'node_modules', '@virtseed', 'cdktf', 'lib', 'constructs', 'index.js'))).toBe(true);
    expectPrecompiledValidators(project, 'cdktf');
    await checkAndDestroy(project, undefined, env, 'vstest-pkgf-'); // cdktf destroy: the library's last test
  });

  it('GIVEN an empty folder, on Node 22 WHEN the README cdktn path runs as written, from the real cdktn init THEN the VM is deployed, and destroy removes it', async () => {
    const { dir: project, env } = await started.cdktn!;
    expect(run({ cmd: 'node', args: ['--version'], cwd: project, env }).trim()).toMatch(/^v22\./);
    expect(fs.existsSync(path.join(project, 'node_modules', '@virtseed', 'cdktn', 'lib', 'constructs', 'index.js'))).toBe(true);
    expectPrecompiledValidators(project, 'cdktn');
    await checkAndDestroy(project, 'cdktn', env, 'vstest-pkgn-');
  });

  it('GIVEN a folder with the README provider block in main.tf WHEN the README HCL path runs as written THEN the volume is created, and destroy removes it', async () => {
    const prefix = 'vstest-pkgh-';
    const { dir, env } = await started.hcl!;
    expect(leftovers(prefix)).toEqual([`pool ${prefix}pool`, `volume ${prefix}v.qcow2`]);
    await runAsync({ cmd: 'terraform', args: ['destroy', '-auto-approve', '-input=false'], cwd: dir, env });
    expect(leftovers(prefix)).toEqual([]);
  });
});

describe('examples/library built, packed, installed from its tarball into the README cdktf project and deployed', () => {
  let lib: Library;

  test('GIVEN the library and @virtseed/cdktf as a tarball WHEN built and packed THEN the package holds JavaScript and .d.ts with the documented props, no sources', async () => {
    lib = await library;
    expect(path.basename(lib.v1)).toBe('virtseed-web-fleet-1.0.0.tgz');
    const files = run({ cmd: 'tar', args: ['tzf', lib.v1], cwd: tmp })
      .split('\n')
      .filter(Boolean)
      .sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'package/lib/index.js',
        'package/lib/index.d.ts',
        'package/lib/web-fleet.js',
        'package/lib/web-fleet.d.ts',
        'package/package.json',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    const dts = fs.readFileSync(path.join(lib.dir, 'lib', 'web-fleet.d.ts'), 'utf8');
    expect(dts).toContain('@default 256');
    const manifest = JSON.parse(run({ cmd: 'tar', args: ['xzOf', lib.v1, 'package/package.json'], cwd: tmp }));
    expect(manifest.peerDependencies).toEqual({ '@virtseed/cdktf': '^0.1.0', cdktf: '^0.21.0', constructs: '^10.4.2' });
  });

  test("GIVEN the project the README cdktf path made WHEN the guide's step 4 runs as written THEN the fleet exists on the host in a pool of its own", async () => {
    const { dir: project, env } = await started.cdktf!;
    expect(leftovers('vstest-pkgf-')).toEqual([]); // the README path's stack is destroyed (its test above)
    runGuideLines('construct-library-install', project, env, lib.v1);
    writeFleetStack(project);
    libraryDeployed = true;
    runGuideLines('construct-library-deploy', project, env, lib.v1);

    const synth = JSON.parse(fs.readFileSync(path.join(project, 'cdktf.out', 'stacks', 'app', 'cdk.tf.json'), 'utf8'));
    const memories = Object.values(synth.resource.virtseed_domain as Record<string, { memory: number }>).map((d) => d.memory);
    expect(memories).toEqual([256, 256]);

    expect(libraryDomains()).toEqual([`${LIB_PREFIX}1`, `${LIB_PREFIX}2`]);
    expect(poolNames(LIB_PREFIX)).toEqual([`${LIB_PREFIX}pool`]);
    expect(networkNames(LIB_PREFIX)).toEqual([`${LIB_PREFIX}net`]);
  });

  test('GIVEN library 1.1.0 whose default memory is 384 WHEN the project upgrades and runs cdktf diff THEN the diff shows memory 256 → 384 on each VM', async () => {
    const { dir: project, env } = await started.cdktf!;
    const source = path.join(lib.dir, 'src', 'web-fleet.ts');
    const text = fs.readFileSync(source, 'utf8');
    expect(text).toContain('export const DEFAULT_MEMORY_MIB = 256;');
    fs.writeFileSync(source, text.replace('export const DEFAULT_MEMORY_MIB = 256;', 'export const DEFAULT_MEMORY_MIB = 384;'));
    run({ cmd: 'npm', args: ['version', '1.1.0', '--no-git-tag-version'], cwd: lib.dir, env: libraryEnv() });
    const v2 = await packLibrary(lib.dir);
    expect(path.basename(v2)).toBe('virtseed-web-fleet-1.1.0.tgz');

    run({ cmd: 'npm', args: ['install', '--no-audit', '--no-fund', '--loglevel=error', v2], cwd: project, env });
    // TS_NODE_TRANSPILE_ONLY (ts-node's environment configuration; cdktf.json's `npx ts-node main.ts` as written):
    // the deploy above type-checked this main.ts against the library's .d.ts; checking it again costs the diff's
    // synth about 4.5 of its 6.5 CPU seconds, and what this test is about is the plan.
    const diff = spawnSync('npx', ['--no-install', 'cdktf', 'diff', 'app', '--skip-provider-lock'], {
      cwd: project,
      env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0', TS_NODE_TRANSPILE_ONLY: '1' },
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const plain = `${diff.stdout}${diff.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
    expect({ status: diff.status, out: plain }).toMatchObject({ status: 0 });
    expect(plain.match(/~ memory\s+= 256 -> 384/g)).toHaveLength(2);
    expect(plain).toContain('2 to change');
  });

  test('GIVEN the deployed fleet WHEN the project destroys it THEN no domain, volume or network of it is left', async () => {
    const { dir: project, env } = await started.cdktf!;
    run({
      cmd: 'npx',
      args: ['--no-install', 'cdktf', 'destroy', 'app', '--auto-approve', '--skip-provider-lock', '--skip-synth'],
      cwd: project,
      env,
    });
    libraryDeployed = false;
    expect({
      domains: libraryDomains(),
      volumes: volumeNames(LIB_PREFIX),
      pools: poolNames(LIB_PREFIX),
      networks: networkNames(LIB_PREFIX),
    }).toEqual({
      domains: [],
      volumes: [],
      pools: [],
      networks: [],
    });
  });
});
