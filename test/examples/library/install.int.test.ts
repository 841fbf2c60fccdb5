/**
 * Issue 24 item 3: examples/library as its author ships it and a team uses it. The library is copied out of the
 * repository, given @virtseed/cdktf from this checkout's packed tarball (`packages.js`, as `npm run package`),
 * built (tsc: JavaScript and .d.ts) and packed (`npm pack`); a fresh cdktf project outside the repository installs
 * virtseed, @virtseed/cdktf and the library from their tarballs, synthesizes and deploys a WebFleet against
 * libvirtd (defined, not started: no guest boots), upgrades to a second library version whose default memory
 * changed (`cdktf diff` shows 256 → 384 on each VM), and destroys everything it made.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanupByPrefix, volumeNames } from '../../helpers/guest';
import { cleanupNetworksByPrefix, networkNames, testSubnetOctet } from '../../helpers/network';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const PREFIX = 'vstest-gitops-lib-';
const SUBNET = `10.213.${testSubnetOctet(`${PREFIX}net`)}.0/24`;

jest.setTimeout(1_500_000);

let tmp: string;
let tarballs: string[];
let library: string;
let project: string;
let env: NodeJS.ProcessEnv;
const packed: Record<string, string> = {};

/** Runs a command; throws with its whole output when it fails. */
function run(cmd: string, args: string[], cwd: string, runEnv: NodeJS.ProcessEnv = process.env): string {
  const r: SpawnSyncReturns<string> = spawnSync(cmd, args, { cwd, env: runEnv, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 900_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
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

/** A project as `cdktf init --template typescript` lays it out, using WebFleet in main.ts. */
function writeProject(dir: string, image: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const json = (file: string, value: unknown) => fs.writeFileSync(path.join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
  json('package.json', { name: `${PREFIX}app`, version: '1.0.0', main: 'main.js', types: 'main.ts', license: 'MPL-2.0', private: true });
  json('cdktf.json', {
    language: 'typescript',
    app: 'npx ts-node main.ts',
    projectId: `${PREFIX}project`,
    sendCrashReports: 'false',
    terraformProviders: [],
    terraformModules: [],
    context: {},
  });
  json('tsconfig.json', {
    compilerOptions: {
      target: 'ES2018',
      module: 'CommonJS',
      lib: ['es2018'],
      strict: true,
      declaration: true,
      noUnusedLocals: true,
      skipLibCheck: true,
      experimentalDecorators: true,
    },
    include: ['**/*.ts'],
    exclude: ['node_modules', 'cdktf.out'],
  });
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
  cleanupNetworksByPrefix(PREFIX);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-gitops-lib-'));
  const npmOut = path.join(tmp, 'npm');
  run('node', [path.join(ROOT, 'dist', 'packages', 'build', 'packages.js'), '--out', npmOut, '--only', 'cdktf,cli'], ROOT);
  tarballs = fs.readdirSync(npmOut).map((f) => path.join(npmOut, f));
  library = path.join(tmp, 'web-fleet');
  fs.cpSync(path.join(ROOT, 'examples', 'library'), library, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|lib)$/.test(src) && !src.endsWith('.tgz'),
  });
});

afterAll(() => {
  try {
    if (project && fs.existsSync(path.join(project, 'cdktf.out'))) {
      spawnSync('npx', ['--no-install', 'cdktf', 'destroy', 'app', '--auto-approve', '--skip-provider-lock'], {
        cwd: project,
        env,
        encoding: 'utf8',
      });
    }
  } finally {
    cleanupByPrefix(PREFIX);
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

  test('GIVEN a fresh project outside the repository WHEN it installs the tarballs, synthesizes and deploys THEN the fleet exists on the host', () => {
    const image = path.join(tmp, 'base.qcow2');
    run('qemu-img', ['create', '-q', '-f', 'qcow2', image, '64M'], tmp);
    project = path.join(tmp, 'app');
    writeProject(project, image);
    npmInstall(project, [tarball('virtseed'), tarball('virtseed-cdktf'), packed.v1!, 'cdktf@0.21', 'constructs@10.4.2']);
    npmInstall(project, ['--save-dev', 'cdktf-cli@0.21', 'ts-node@10', 'typescript@5', '@types/node@20']);
    const mirror = path.join(tmp, 'mirror');
    expect(run('npx', ['--no-install', 'virtseed', 'provider', 'install', '--mirror', mirror], project)).toMatch(/^provider_installation \{/);
    const rc = path.join(tmp, 'terraformrc');
    fs.writeFileSync(
      rc,
      `provider_installation {\n  filesystem_mirror {\n    path    = "${mirror}"\n    include = ["registry.terraform.io/virtseed/*"]\n  }\n  direct {\n    exclude = ["registry.terraform.io/virtseed/*"]\n  }\n}\n`,
    );
    // CDKTF_DISABLE_PLUGIN_CACHE_ENV: cdktf would otherwise point TF_PLUGIN_CACHE_DIR at ~/.terraform.d/plugin-cache,
    // shared by every checkout on the machine, and leave a link there to this test's temporary mirror.
    env = { ...process.env, TF_CLI_CONFIG_FILE: rc, CHECKPOINT_DISABLE: '1', CDKTF_DISABLE_PLUGIN_CACHE_ENV: '1' };
    delete env.TF_PLUGIN_CACHE_DIR;

    run('npx', ['--no-install', 'cdktf', 'synth'], project, env);
    const synth = JSON.parse(fs.readFileSync(path.join(project, 'cdktf.out', 'stacks', 'app', 'cdk.tf.json'), 'utf8'));
    const memories = Object.values(synth.resource.virtseed_domain as Record<string, { memory: number }>).map((d) => d.memory);
    expect(memories).toEqual([256, 256]);

    run('npx', ['--no-install', 'cdktf', 'deploy', 'app', '--auto-approve', '--skip-provider-lock'], project, env);
    expect(domains()).toEqual([`${PREFIX}1`, `${PREFIX}2`]);
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
    run('npx', ['--no-install', 'cdktf', 'destroy', 'app', '--auto-approve', '--skip-provider-lock'], project, env);
    expect({ domains: domains(), volumes: volumeNames(PREFIX), networks: networkNames(PREFIX) }).toEqual({
      domains: [],
      volumes: [],
      networks: [],
    });
  });
});
