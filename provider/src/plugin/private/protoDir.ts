import * as fs from 'node:fs';
import * as path from 'node:path';

const RELATIVE = path.join('provider', 'src', 'plugin', 'proto');

/** The folder with our .proto files. They are not compiled by tsc, so both `provider/src/plugin/private` (tsx,
 *  jest) and `dist/provider/src/plugin/private` (built) find them by walking up to the repo root. Throws when
 *  none is found. */
export function protoDir(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, RELATIVE);
    if (fs.existsSync(path.join(candidate, 'tfplugin6.proto'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find ${RELATIVE}/tfplugin6.proto above ${start}`);
    dir = parent;
  }
}
