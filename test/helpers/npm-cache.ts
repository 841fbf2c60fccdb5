/**
 * The npm cache of this checkout's test runs: `.test-run/npm-cache` (ignored by git), shared by every test file and
 * run of this checkout that runs npm or npx (the README's install paths, `cdktf init`, CDK Terrain, Node 22), never
 * the user's `~/.npm`, which other checkouts and the user change. With it, `prefer-offline`: a package (or its
 * registry metadata) already in that cache is taken from it without asking the registry again, so the second
 * install of the same packages in a run (and every install of a later run) is offline; what is missing is
 * downloaded as usual. Both go in as npm's environment configuration (`npm_config_cache`,
 * `npm_config_prefer_offline`), so the documented command lines run as written. Delete the folder to have the
 * registry asked again (e.g. for a newer patch release of a pinned minor version). A fresh checkout fills it once
 * (about 0.7 GB: cdktf-cli, CDK Terrain, jest and TypeScript of the `init` templates, Node 22).
 */
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The cache folder (absolute; npm makes it on first use): `$VIRTSEED_TEST_NPM_CACHE` when set (e.g. a CI job's
 *  cache kept between runs of fresh clones), else this checkout's `.test-run/npm-cache`. */
export const NPM_CACHE = process.env.VIRTSEED_TEST_NPM_CACHE || path.join(ROOT, '.test-run', 'npm-cache');

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
