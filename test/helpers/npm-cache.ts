/**
 * The npm cache of the test runs: `/var/cache/virtseed/npm-cache`, shared by every checkout and fresh clone on the
 * machine as the test image in `/var/cache/virtseed/images` is (this checkout's `.test-run/npm-cache`, ignored by
 * git, when that folder cannot be written), used by every test file and run that runs npm or npx (the README's
 * install paths, `cdktf init`, CDK Terrain, Node 22), never the user's `~/.npm`, which the user changes. With it,
 * `prefer-offline`: a package (or its registry metadata) already in that cache is taken from it without asking the
 * registry again, so the second install of the same packages in a run (and every install of a later run, from this
 * clone or the next) is offline; what is missing is downloaded as usual. `npx` keeps the CLIs it installed there
 * too (`_npx/`), so `npx --yes cdktf-cli@0.21 init` runs the cdktf-cli it installed the first time instead of
 * installing its 600 packages again. Both go in as npm's environment configuration (`npm_config_cache`,
 * `npm_config_prefer_offline`), so the documented command lines run as written. npm locks what two runs at once
 * write there (its cache is content-addressed; npx locks its install folder). Delete the folder to have the
 * registry asked again (e.g. for a newer patch release of a pinned minor version). The machine's first run fills
 * it (about 0.9 GB: cdktf-cli, CDK Terrain, jest and TypeScript of the `init` templates, Node 22); that first run's
 * README install paths cost about 100 CPU seconds more (their CLIs installed by npx, everything downloaded).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * The folder for what the test runs keep between runs (absolute): `/var/cache/virtseed` when it can be made and
 * written (root, as the README's prerequisites ask), else `.test-run` in `checkout` (default: this checkout; the
 * compiled scripts in dist/ pass theirs).
 */
export function testCacheRoot(checkout = ROOT): string {
  const machine = '/var/cache/virtseed';
  try {
    fs.mkdirSync(machine, { recursive: true });
    fs.accessSync(machine, fs.constants.W_OK);
    return machine;
  } catch {
    return path.join(checkout, '.test-run');
  }
}

/** The cache folder (absolute; npm makes it on first use): `$VIRTSEED_TEST_NPM_CACHE` when set (e.g. a CI job's
 *  cache kept between runs on fresh machines), else `npm-cache` in {@link testCacheRoot}. */
export const NPM_CACHE = process.env.VIRTSEED_TEST_NPM_CACHE || path.join(testCacheRoot(), 'npm-cache');

/**
 * npm's configuration for the tests' npm and npx runs: the cache above, packages taken from it when there; no audit
 * of the installed tree (a request to the registry and a report at each install, which no test reads), no funding
 * message and no check for a newer npm (`npm_config_audit`, `npm_config_fund`, `npm_config_update_notifier`: what
 * an install puts into node_modules does not depend on them).
 */
export function npmCacheEnv(): Record<
  'npm_config_cache' | 'npm_config_prefer_offline' | 'npm_config_audit' | 'npm_config_fund' | 'npm_config_update_notifier',
  string
> {
  return {
    npm_config_cache: NPM_CACHE,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}
