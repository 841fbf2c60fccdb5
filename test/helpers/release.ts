/**
 * The provider's signed release (packages/build/release.ts) built with the TEST signing key, for the tests that
 * serve it (test/packages/release-registry) and compare it with a clone's (test/packages/provider-reproducible).
 * Building it costs about half a minute of CPU (two single executables, zipped), so the test command builds it once
 * per run, beside the unit tests, into the folder named by `$VIRTSEED_TEST_RELEASE` (scripts/test-all.sh), and
 * both files take it from there. A file run alone (the variable unset) builds its own into the folder it gives.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The TEST signing key (never a release key). */
export const TEST_KEY = path.join(ROOT, 'test', 'packages', 'fixtures', 'release-test-key.asc');

/** The release the test command built (`$VIRTSEED_TEST_RELEASE`, when it names a folder holding a registry/), else
 *  undefined. */
export function sharedRelease(): string | undefined {
  const shared = process.env.VIRTSEED_TEST_RELEASE;
  return shared && fs.existsSync(path.join(shared, 'registry')) ? shared : undefined;
}

/**
 * The folder of the release: {@link sharedRelease}, else one built from this checkout into `out` (by `npm run
 * build`'s dist/packages/build/release.js). Throws Error with the build's output when it fails.
 */
export function testRelease(out: string): string {
  const shared = sharedRelease();
  if (shared) return shared;
  const args = [path.join(ROOT, 'dist', 'packages', 'build', 'release.js'), '--key', TEST_KEY, '--out', out];
  const r = spawnSync('node', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  return out;
}
