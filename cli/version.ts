/** The version `virtseed --version` prints: the `version` of the virtseed package.json above this module. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Walks up from `start` to the package.json named `virtseed`. Throws `Error` when there is none. */
export function packageVersion(start: string = __dirname): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'virtseed' && typeof pkg.version === 'string') return pkg.version;
    }
    if (dirname(dir) === dir) throw new Error(`no virtseed package.json above ${start}`);
  }
}
