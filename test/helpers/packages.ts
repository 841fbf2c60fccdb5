/**
 * Our npm products as their packed tarballs (`npm run package`: packages/build/packages.ts), for the tests that
 * install them as a user would. Making them costs minutes (bindings generated and compiled for two frameworks; the
 * CLI and the provider artifact are the build's dist/), so the test command makes them once per run, beside the unit tests, into the folder named by
 * `$VIRTSEED_TEST_PACKAGES` (scripts/test-all.sh), and every file takes them from there. A file run alone (the
 * variable unset) makes its own into `out`, as before.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** What `--only` may name (packages/build/packages.ts). */
export type Product = 'cdktf' | 'cdktn' | 'cli';

/**
 * The paths of the packed tarballs: those in `$VIRTSEED_TEST_PACKAGES` when it names a folder holding them, else
 * `only`'s (all when absent) made into `out`. Throws Error with the build's output when it fails.
 */
export function packedProducts(out: string, only?: readonly Product[]): string[] {
  const shared = process.env.VIRTSEED_TEST_PACKAGES;
  if (shared && fs.existsSync(shared)) {
    const files = fs.readdirSync(shared).filter((f) => f.endsWith('.tgz'));
    if (files.length) return files.map((f) => path.join(shared, f));
  }
  const args = [path.join(ROOT, 'dist', 'packages', 'build', 'packages.js'), '--out', out, ...(only ? ['--only', only.join(',')] : [])];
  const r = spawnSync('node', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  return fs.readdirSync(out).map((f) => path.join(out, f));
}
