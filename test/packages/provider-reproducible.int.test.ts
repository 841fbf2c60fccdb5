/**
 * The provider artifact is the same from any clone of a commit: two `git clone`s of this repository's HEAD into
 * folders of different depth build it (packages/build/provider-artifact.ts, node_modules linked from this
 * checkout), the zips and SHA256SUMS are byte-identical, and a `.terraform.lock.hcl` made by `terraform init` with
 * one clone's packed mirror is accepted with the other's mirror and with an unpacked `virtseed provider install`.
 * The signed release (packages/build/release.ts: the single executables, SHA256SUMS, its signature by the TEST key,
 * the registry documents) is byte-identical from both clones too. The two clones are made and built side by side.
 *
 * Under the test command, the first build is this checkout's own (itself a clone, at another depth): its
 * dist/provider-artifact (`npm run build`) and the release the run made once (test/helpers/release.ts), when its
 * tracked files are HEAD's (`git status --porcelain --untracked-files=no` prints nothing); then one clone is made
 * and built, not two. Otherwise (a file run alone, or uncommitted changes) both builds are clones, as above.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sharedRelease, TEST_KEY } from '../helpers/release';

const ROOT = path.resolve(__dirname, '..', '..');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

jest.setTimeout(1_200_000);

/** A build's output folders: the artifact (provider-artifact.ts) and the signed release (release.ts). */
interface Build {
  readonly artifact: string;
  readonly release: string;
}

let tmp: string;
const builds: Build[] = [];

function ok(r: SpawnSyncReturns<string>, what: string): string {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Runs a command without blocking (the clones build side by side); rejects with `what` and its whole output. */
function okAsync(cmd: string, args: string[], cwd: string | undefined, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', (e) => reject(new Error(`${what} did not start: ${e.message}`)));
    child.on('close', (code, signal) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${what} exited ${code ?? signal}:\n${stdout}\n${stderr}`)),
    );
  });
}

function terraformInit(work: string, config: string): SpawnSyncReturns<string> {
  const rc = path.join(work, '..', `${path.basename(work)}.tfrc`);
  fs.writeFileSync(rc, config);
  const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: rc, CHECKPOINT_DISABLE: '1' };
  delete env.TF_PLUGIN_CACHE_DIR;
  fs.rmSync(path.join(work, '.terraform'), { recursive: true, force: true });
  return spawnSync('terraform', ['init', '-input=false', '-no-color', '-lockfile=readonly'], { cwd: work, env, encoding: 'utf8' });
}

const mirrorConfig = (mirror: string) =>
  `provider_installation {\n  filesystem_mirror {\n    path    = "${mirror}"\n    include = ["registry.terraform.io/virtseed/*"]\n  }\n  direct {\n    exclude = ["registry.terraform.io/virtseed/*"]\n  }\n}\n`;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-clone-'));
  // Both clones at one commit (a commit made while the first clone builds would otherwise date the second's signature).
  const head = ok(spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }), 'git rev-parse HEAD').trim();
  const own = checkoutBuild(head);
  const dirs = [...(own ? [] : ['a']), path.join('somewhere', 'much', 'deeper', 'b')].map((rel) => path.join(tmp, rel));
  await Promise.all(
    dirs.map(async (dir) => {
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      await okAsync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, dir], undefined, `git clone ${ROOT} ${dir}`);
      await okAsync('git', ['checkout', '--quiet', head], dir, `git checkout ${head} in ${dir}`);
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
      await okAsync(
        TSX,
        ['packages/build/provider-artifact.ts', '--out', 'artifact'],
        dir,
        `tsx packages/build/provider-artifact.ts in ${dir}`,
      );
      await okAsync(
        TSX,
        ['packages/build/release.ts', '--key', TEST_KEY, '--out', 'release'],
        dir,
        `tsx packages/build/release.ts in ${dir}`,
      );
    }),
  );
  builds.push(...(own ? [own] : []), ...dirs.map((dir) => ({ artifact: path.join(dir, 'artifact'), release: path.join(dir, 'release') })));
});

/**
 * This checkout's own build, when the test command made it at `head` (`$VIRTSEED_TEST_BUILT_HEAD`, scripts/test-all.sh):
 * dist/provider-artifact and the run's release ({@link sharedRelease}), with no tracked file changed since. Else
 * undefined (the test makes two clones).
 */
function checkoutBuild(head: string): Build | undefined {
  const release = sharedRelease();
  const artifact = path.join(ROOT, 'dist', 'provider-artifact');
  if (!release || process.env.VIRTSEED_TEST_BUILT_HEAD !== head || !fs.existsSync(artifact)) return undefined;
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' });
  return status.status === 0 && status.stdout === '' ? { artifact, release } : undefined;
}

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Every file under `dir`, as `./relative/path`, sorted. */
function filesIn(dir: string): string[] {
  return spawnSync('find', ['.', '-type', 'f'], { cwd: dir, encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
}

/** Those of `files` (relative paths) whose bytes differ between folders `a` and `b`. */
function differingFiles(files: readonly string[], a: string, b: string): string[] {
  return files.filter((f) => !fs.readFileSync(path.join(a, f)).equals(fs.readFileSync(path.join(b, f))));
}

describe('provider artifact from two clones', () => {
  it('GIVEN two clones in different folders WHEN each builds the artifact THEN every file has the same bytes', () => {
    const [a, b] = builds.map((x) => x.artifact) as [string, string];
    const files = filesIn(a);
    expect(files).toContain(`./terraform-provider-virtseed_${VERSION}_linux_amd64.zip`);
    expect(files).toContain(`./terraform-provider-virtseed_${VERSION}_SHA256SUMS`);
    expect(files).toContain(`./mirror/registry.terraform.io/virtseed/virtseed/${VERSION}.json`);
    expect(filesIn(b)).toEqual(files);
    expect(differingFiles(files, a, b)).toEqual([]);
    const sums = spawnSync('sha256sum', ['-c', `terraform-provider-virtseed_${VERSION}_SHA256SUMS`], {
      cwd: b,
      encoding: 'utf8',
    });
    expect({ status: sums.status, out: sums.stdout + sums.stderr }).toMatchObject({ status: 0 });
  });

  it('GIVEN two clones WHEN each builds the signed release THEN every file has the same bytes', () => {
    const [a, b] = builds.map((x) => x.release) as [string, string];
    const files = filesIn(a);
    expect(files).toEqual(
      expect.arrayContaining([
        `./terraform-provider-virtseed_${VERSION}_linux_amd64.zip`,
        `./terraform-provider-virtseed_${VERSION}_linux_arm64.zip`,
        `./terraform-provider-virtseed_${VERSION}_SHA256SUMS.sig`,
        `./registry/v1/providers/virtseed/virtseed/${VERSION}/download/linux/arm64`,
      ]),
    );
    expect(filesIn(b)).toEqual(files);
    expect(differingFiles(files, a, b)).toEqual([]);
  });

  it('GIVEN a lock file made with clone a THEN terraform init accepts clone b packed and clone b installed unpacked', () => {
    const [a, b] = builds.map((x) => x.artifact) as [string, string];
    const work = path.join(tmp, 'work');
    fs.mkdirSync(work);
    fs.writeFileSync(
      path.join(work, 'main.tf'),
      `terraform {\n  required_providers {\n    virtseed = { source = "virtseed/virtseed", version = "${VERSION}" }\n  }\n}\n`,
    );
    const rc = path.join(tmp, 'first.tfrc');
    const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: rc, CHECKPOINT_DISABLE: '1' };
    fs.writeFileSync(rc, mirrorConfig(path.join(a, 'mirror')));
    delete env.TF_PLUGIN_CACHE_DIR;
    ok(spawnSync('terraform', ['init', '-input=false', '-no-color'], { cwd: work, env, encoding: 'utf8' }), 'terraform init (clone a)');
    const lock = fs.readFileSync(path.join(work, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toMatch(/"h1:[A-Za-z0-9+/]{43}="/);

    const packed = terraformInit(work, mirrorConfig(path.join(b, 'mirror')));
    expect({ status: packed.status, out: packed.stdout + packed.stderr }).toMatchObject({ status: 0 });

    const unpacked = path.join(tmp, 'unpacked');
    ok(
      spawnSync('node', [path.join(ROOT, 'bin', 'virtseed'), 'provider', 'install', '--from', b, '--mirror', unpacked], {
        encoding: 'utf8',
      }),
      'virtseed provider install --from clone b',
    );
    const viaInstall = terraformInit(work, mirrorConfig(unpacked));
    expect({ status: viaInstall.status, out: viaInstall.stdout + viaInstall.stderr }).toMatchObject({ status: 0 });
    expect(fs.readFileSync(path.join(work, '.terraform.lock.hcl'), 'utf8')).toBe(lock);
  });
});
