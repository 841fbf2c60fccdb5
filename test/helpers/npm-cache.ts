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

/** npm's configuration for the tests' npm and npx runs: the cache above, packages taken from it when there. */
export function npmCacheEnv(): { npm_config_cache: string; npm_config_prefer_offline: string } {
  return { npm_config_cache: NPM_CACHE, npm_config_prefer_offline: 'true' };
}
