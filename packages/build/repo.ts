/** The checkout's root and the one version number (package.json's), for the package builds. */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The folder holding package.json and provider/, above `start` (works from packages/build and dist/packages/build).
 *  @throws Error when there is none. */
export function repoRoot(start: string = __dirname): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'provider'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root above ${start}`);
    dir = parent;
  }
  return dir;
}

/** package.json's `version`: the version of the provider and of every package. */
export function repoVersion(root: string = repoRoot()): string {
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: unknown }).version;
  if (typeof version !== 'string') throw new Error(`${root}/package.json has no version`);
  return version;
}
