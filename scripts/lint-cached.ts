/**
 * `npm run lint`'s two checks (eslint, then `prettier --check`, over the checkout) for the test command
 * (scripts/test-all.sh, issue #33), with their caches kept per machine in `lint/` of the test runs' cache folder
 * (test/helpers/npm-cache.ts testCacheRoot: `/var/cache/virtseed`, else the checkout's `.test-run`), beside the npm
 * cache and the test image. Both use the `content` cache strategy: a file's cached result is used only when its
 * content's hash and the hash of the tool's version, Node's version and the file's configuration are the ones
 * cached, so a file changed in any way (or a changed configuration) is checked again; a fresh clone's files have new
 * modification times, which the default `metadata` strategy would take as changes. On the 2-core test machine
 * (measured under load 15): without caches the two take about 40 CPU seconds (20 each); with both warm about 6;
 * a fresh clone in a new folder (eslint's warm, prettier's cold) about 23.
 *
 * eslint's cache (`lint/eslint-cache`) is keyed by each file's absolute path: it is kept there with the checkout's
 * path replaced by a placeholder and put back for each run (in `.test-run/lint/eslint-cache`), so any checkout or
 * fresh clone on the machine uses it, wherever it is. Prettier's also hashes each file's absolute path into the
 * cached options, which no rewriting can carry to another path: it is kept per checkout path
 * (`lint/prettier-cache-<sha256 of the path, 16 hex digits>`), so a later run of the same checkout, or a fresh clone
 * in the same folder (CI's case), uses it and a clone elsewhere starts cold. A cache written by two runs at once
 * ends as one of them wrote it (each is written to a temporary file, then renamed).
 *
 * Usage (in the checkout): `node dist/scripts/lint-cached.js`. Output: eslint's, then prettier's; exit status 1
 * when either check fails (both always run), else 0. A developer's `npm run lint` keeps each tool's own cache in
 * the checkout (`.eslintcache`, `node_modules/.cache/prettier`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { testCacheRoot } from '../test/helpers/npm-cache';

/** What stands for the checkout's path in the kept eslint cache. */
const PLACEHOLDER = '<virtseed-checkout>';

/** `from` replaced by `to` everywhere in file `src`, written atomically to `dest` (nothing when `src` is missing). */
function rewrite(src: string, dest: string, from: string, to: string): void {
  if (!fs.existsSync(src)) return;
  const text = fs.readFileSync(src, 'utf8').split(from).join(to);
  const tmp = `${dest}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, dest);
}

/** Runs node_modules/.bin/`tool` with `args` in `checkout`, its output passed through; true when it exits 0. */
function run(checkout: string, tool: string, args: string[]): boolean {
  const r = spawnSync(path.join(checkout, 'node_modules', '.bin', tool), args, { cwd: checkout, stdio: 'inherit' });
  if (r.error) throw r.error;
  return r.status === 0;
}

function main(): number {
  const checkout = process.cwd();
  const kept = path.join(testCacheRoot(checkout), 'lint');
  fs.mkdirSync(kept, { recursive: true });
  const work = path.join(checkout, '.test-run', 'lint');
  fs.mkdirSync(work, { recursive: true });
  // The checkout's path as it is written inside a JSON string (its quotes dropped).
  const inJson = JSON.stringify(checkout + path.sep).slice(1, -1);

  const eslintKept = path.join(kept, 'eslint-cache');
  const eslintWork = path.join(work, 'eslint-cache');
  rewrite(eslintKept, eslintWork, JSON.stringify(PLACEHOLDER + path.sep).slice(1, -1), inJson);
  const eslintOk = run(checkout, 'eslint', ['--cache', '--cache-strategy', 'content', '--cache-location', eslintWork, '.']);
  rewrite(eslintWork, eslintKept, inJson, JSON.stringify(PLACEHOLDER + path.sep).slice(1, -1));

  const key = createHash('sha256').update(checkout).digest('hex').slice(0, 16);
  const prettierCache = path.join(kept, `prettier-cache-${key}`);
  const prettierOk = run(checkout, 'prettier', [
    '--check',
    '--cache',
    '--cache-strategy',
    'content',
    '--cache-location',
    prettierCache,
    '.',
  ]);
  return eslintOk && prettierOk ? 0 : 1;
}

process.exitCode = main();
