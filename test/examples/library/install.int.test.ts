/**
 * Issue 24 item 3 and issue 35: examples/library as its author ships it and a team uses it, following
 * docs/guides/construct-library.md. The library is copied out of the repository, given @virtseed/cdktf from this
 * checkout's packed tarball (`packages.js`, as `npm run package`: made once per test run, test/helpers/packages.ts),
 * built (tsc: JavaScript and .d.ts) and packed (`npm pack`). The project is made as the guide's step 4 says: the
 * README's cdktf path up to its TypeScript pin (the real `cdktf init`), then the guide's step-4 commands as the
 * Markdown writes them (read from it, our packages from their tarballs), with a home folder of the test's own and
 * no Terraform CLI configuration. It deploys a
 * WebFleet without a `pool` (the fleet makes its own: the host's pool `default` is not used) against libvirtd
 * (defined, not started: no guest boots), upgrades to a second library version whose default memory changed
 * (`cdktf diff` shows 256 → 384 on each VM), and destroys everything it made.
 *
 * The project's `cdktf init` lines start in beforeAll, beside the library's build and pack (they need nothing of
 * it); the second test awaits them. npm runs with the test runs' own cache, offline where it holds the packages
 * (test/helpers/npm-cache.ts). The destroy takes the stack `cdktf diff` synthesized last (`--skip-synth`).
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanupByPrefix, volumeNames } from '../../helpers/guest';
import { installPaths } from '../../../packages/build/install-paths';
import { docCommands } from '../../helpers/doc-paths';
import { npmCacheEnv } from '../../helpers/npm-cache';
import { packedProducts } from '../../helpers/packages';
import { cleanupNetworksByPrefix, networkNames, testSubnetOctet } from '../../helpers/network';
import { cleanupPoolsByPrefix, poolNames } from '../../helpers/pool';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const PREFIX = 'vstest-gitops-lib-';
const SUBNET = `10.213.${testSubnetOctet(`${PREFIX}net`)}.0/24`;
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const GUIDE = fs.readFileSync(path.join(ROOT, 'docs', 'guides', 'construct-library.md'), 'utf8');

jest.setTimeout(1_500_000);

let tmp: string;
let tarballs: string[];
let library: string;
let project: string;
let env: NodeJS.ProcessEnv;
const packed: Record<string, string> = {};
/** The project's `cdktf init` lines (the README's cdktf path up to its TypeScript pin), started in beforeAll. */
let initDone: Promise<void>;
let destroyed = false;
/** npm with the test runs' own cache (the library's builds). */
const NPM_ENV: NodeJS.ProcessEnv = { ...process.env, ...npmCacheEnv() };

/** Runs a command; throws with its whole output when it fails. */
function run(cmd: string, args: string[], cwd: string, runEnv: NodeJS.ProcessEnv = NPM_ENV): string {
  const r: SpawnSyncReturns<string> = spawnSync(cmd, args, { cwd, env: runEnv, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 900_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
}

/** {@link run} without blocking (the project's init runs beside the library's build). Rejects with the whole output. */
function runAsync(cmd: string, args: string[], cwd: string, runEnv: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    // Longer than run()'s bound: the first run of a checkout fills its npm cache here (test/helpers/npm-cache.ts).
    const child = spawn(cmd, args, { cwd, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'], timeout: 1_500_000 });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', (e) => reject(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) did not start: ${e.message}`)));
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${code ?? signal}:\n${out}`)),
    );
  });
}

const npmInstall = (cwd: string, args: string[]) => run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...args], cwd);

function tarball(name: string): string {
  const file = tarballs.find((t) => path.basename(t) === `${name}-${VERSION}.tgz`);
  if (!file) throw new Error(`no ${name} tarball among ${tarballs.join(', ')}`);
  return file;
}

function domains(): string[] {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', 'list', '--all', '--name'], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s.startsWith(PREFIX))
    .sort();
}

/** A documented command line as written, split into the command and its arguments; `npm install` words naming our
 *  packages become their tarballs. */
function docLine(line: string, tarballOf: Record<string, string>): [string, string[]] {
  if (/["'$`|&;<>]/.test(line)) throw new Error(`"${line}" needs a shell; keep the documented lines plain commands`);
  const [cmd, ...args] = line.split(/\s+/) as [string, ...string[]];
  return [cmd, cmd === 'npm' && args[0] === 'install' ? args.map((w) => tarballOf[w] ?? w) : args];
}

/** Runs a documented command line in `cwd` as written (see docLine). */
function runDocLine(line: string, cwd: string, runEnv: NodeJS.ProcessEnv, tarballOf: Record<string, string>): void {
  run(...docLine(line, tarballOf), cwd, runEnv);
}

/** The README's cdktf path up to its TypeScript pin ("a project made by cdktf init, as the README's cdktf path makes
 *  it"), run line by line in `project`. */
async function initProject(): Promise<void> {
  const readme = installPaths(README).cdktf;
  const initLines = readme.slice(0, readme.indexOf('npm install --save-dev typescript@5') + 1);
  if (!/^npx --yes cdktf-cli@0\.21 init /.test(initLines[0] ?? ''))
    throw new Error(`the README's cdktf path does not start with \`npx --yes cdktf-cli@0.21 init\`: ${initLines.join('; ')}`);
  for (const line of initLines) await runAsync(...docLine(line, {}), project, env);
}

/** Packs the library copy (its prepack builds it); returns the tarball's path. */
function pack(): string {
  const out = path.join(tmp, 'packed');
  fs.mkdirSync(out, { recursive: true });
  run('npm', ['pack', '--pack-destination', out, '--loglevel=error'], library);
  const version = JSON.parse(fs.readFileSync(path.join(library, 'package.json'), 'utf8')).version as string;
  const file = path.join(out, `virtseed-web-fleet-${version}.tgz`);
  if (!fs.existsSync(file)) throw new Error(`npm pack wrote no ${file}: ${fs.readdirSync(out).join(', ')}`);
  return file;
}

/** The user's stack, written into main.ts of the project `cdktf init` made: a WebFleet without a pool. */
function writeStack(dir: string, image: string): void {
  fs.writeFileSync(
    path.join(dir, 'main.ts'),
    `import { Construct } from 'constructs';
import { App, TerraformOutput, TerraformStack } from 'cdktf';
import { BaseImage, bindings } from '@virtseed/cdktf';
import { WebFleet } from 'virtseed-web-fleet';

class Stack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new bindings.provider.VirtseedProvider(this, 'virtseed', { uri: 'qemu:///system' });
    const fleet = new WebFleet(this, 'web', {
      namePrefix: '${PREFIX}',
      baseImage: BaseImage.fromFile('${image}', { volumeName: '${PREFIX}base' }),
      subnet: '${SUBNET}',
      running: false,
      cloudInit: { cloudConfig: { runcmd: ['echo hello from the fleet'] } },
    });
    new TerraformOutput(this, 'addresses', { value: fleet.members.map((m) => m.address) });
  }
}

const app = new App();
new Stack(app, 'app');
app.synth();
`,
  );
}

beforeAll(() => {
  cleanupByPrefix(PREFIX);
  cleanupPoolsByPrefix(PREFIX);
  cleanupNetworksByPrefix(PREFIX);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-gitops-lib-'));
  tarballs = packedProducts(path.join(tmp, 'npm'), ['cdktf', 'cli']);
  library = path.join(tmp, 'web-fleet');
  fs.cpSync(path.join(ROOT, 'examples', 'library'), library, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|lib)$/.test(src) && !src.endsWith('.tgz'),
  });
  project = path.join(tmp, 'app');
  fs.mkdirSync(project, { recursive: true });
  // A fresh user: a home folder of its own (the provider goes into its ~/.terraform.d/plugins), no CLI config.
  const home = path.join(tmp, 'home');
  fs.mkdirSync(home);
  env = { ...process.env, HOME: home, ...npmCacheEnv(), CHECKPOINT_DISABLE: '1' };
  for (const k of ['TF_CLI_CONFIG_FILE', 'TF_PLUGIN_CACHE_DIR', 'TF_LOG', 'TF_LOG_PATH']) delete env[k];
  initDone = initProject();
  initDone.catch(() => undefined); // awaited (and reported) by the second test; no unhandled rejection meanwhile
});

afterAll(async () => {
  await initDone?.catch(() => undefined); // no init still writing while the folder is removed
  try {
    if (!destroyed && project && fs.existsSync(path.join(project, 'cdktf.out'))) {
      spawnSync('npx', ['--no-install', 'cdktf', 'destroy', 'app', '--auto-approve', '--skip-provider-lock'], {
        cwd: project,
        env,
        encoding: 'utf8',
      });
    }
  } finally {
    cleanupByPrefix(PREFIX);
    cleanupPoolsByPrefix(PREFIX);
    cleanupNetworksByPrefix(PREFIX);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
});

describe('examples/library built, packed, installed from its tarball and deployed', () => {
  test('GIVEN the library and @virtseed/cdktf as a tarball WHEN built and packed THEN the package holds JavaScript and .d.ts with the documented props, no sources', () => {
    npmInstall(library, ['--save-dev', tarball('virtseed-cdktf')]);
    packed.v1 = pack();
    expect(path.basename(packed.v1)).toBe('virtseed-web-fleet-1.0.0.tgz');
    const files = run('tar', ['tzf', packed.v1], tmp).split('\n').filter(Boolean).sort();
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
    const dts = fs.readFileSync(path.join(library, 'lib', 'web-fleet.d.ts'), 'utf8');
    expect(dts).toContain('@default 256');
    const manifest = JSON.parse(run('tar', ['xzOf', packed.v1, 'package/package.json'], tmp));
    expect(manifest.peerDependencies).toEqual({ '@virtseed/cdktf': '^0.1.0', cdktf: '^0.21.0', constructs: '^10.4.2' });
  });

  test("GIVEN an empty folder outside the repository WHEN the guide's step 4 runs as written, from the real cdktf init THEN the fleet exists on the host in a pool of its own", async () => {
    const image = path.join(tmp, 'base.qcow2');
    run('qemu-img', ['create', '-q', '-f', 'qcow2', image, '64M'], tmp);
    const ours = { virtseed: tarball('virtseed'), '@virtseed/cdktf': tarball('virtseed-cdktf'), 'virtseed-web-fleet': packed.v1! };
    await initDone; // the README's cdktf path up to its TypeScript pin (started in beforeAll)
    for (const line of docCommands(GUIDE, 'construct-library-install', 'construct-library.md')) runDocLine(line, project, env, ours);
    writeStack(project, image);
    for (const line of docCommands(GUIDE, 'construct-library-deploy', 'construct-library.md')) runDocLine(line, project, env, ours);

    const synth = JSON.parse(fs.readFileSync(path.join(project, 'cdktf.out', 'stacks', 'app', 'cdk.tf.json'), 'utf8'));
    const memories = Object.values(synth.resource.virtseed_domain as Record<string, { memory: number }>).map((d) => d.memory);
    expect(memories).toEqual([256, 256]);

    expect(domains()).toEqual([`${PREFIX}1`, `${PREFIX}2`]);
    expect(poolNames(PREFIX)).toEqual([`${PREFIX}pool`]);
    expect(networkNames(PREFIX)).toEqual([`${PREFIX}net`]);
  });

  test('GIVEN library 1.1.0 whose default memory is 384 WHEN the project upgrades and runs cdktf diff THEN the diff shows memory 256 → 384 on each VM', () => {
    const source = path.join(library, 'src', 'web-fleet.ts');
    const text = fs.readFileSync(source, 'utf8');
    expect(text).toContain('export const DEFAULT_MEMORY_MIB = 256;');
    fs.writeFileSync(source, text.replace('export const DEFAULT_MEMORY_MIB = 256;', 'export const DEFAULT_MEMORY_MIB = 384;'));
    run('npm', ['version', '1.1.0', '--no-git-tag-version'], library);
    packed.v2 = pack();
    expect(path.basename(packed.v2)).toBe('virtseed-web-fleet-1.1.0.tgz');

    npmInstall(project, [packed.v2]);
    const diff = run('npx', ['--no-install', 'cdktf', 'diff', 'app', '--skip-provider-lock'], project, {
      ...env,
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    });
    const plain = diff.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain.match(/~ memory\s+= 256 -> 384/g)).toHaveLength(2);
    expect(plain).toContain('2 to change');
  });

  test('GIVEN the deployed fleet WHEN the project destroys it THEN no domain, volume or network of it is left', () => {
    run('npx', ['--no-install', 'cdktf', 'destroy', 'app', '--auto-approve', '--skip-provider-lock', '--skip-synth'], project, env);
    destroyed = true;
    expect({ domains: domains(), volumes: volumeNames(PREFIX), pools: poolNames(PREFIX), networks: networkNames(PREFIX) }).toEqual({
      domains: [],
      volumes: [],
      pools: [],
      networks: [],
    });
  });
});
