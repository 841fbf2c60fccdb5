/**
 * Builds the `virtseed` CLI as one bundled file run through a V8 code cache (run by `npm run build`):
 *
 *   node dist/packages/build/cli-bundle.js        writes dist/virtseed.js (beside dist/provider-artifact)
 *
 * bin/virtseed runs it in a checkout; the `virtseed` npm package ships the same bytes as its dist/virtseed.js
 * (packages.ts). One file instead of ~90 modules and no compile on later starts: `virtseed seed build` as a process,
 * issue #15.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleWithCodeCache } from './bundle';
import { repoRoot } from './repo';

/** First lines of the executable: refuse an old node with a clear message instead of a syntax error. */
const BANNER = `#!/usr/bin/env node
// virtseed command line (bundled by packages/build/cli-bundle.ts; MPL-2.0, bundled packages keep their licenses)
if (+process.versions.node.split('.')[0] < 20) { process.stderr.write('virtseed needs Node.js >= 20; found ' + process.version + '\\n'); process.exit(1); }`;

/** The CLI's executable bytes (cli/main.ts bundled, with its code-cache loader). */
export function bundleCli(root: string): Promise<Uint8Array> {
  return bundleWithCodeCache(root, { entry: 'cli/main.ts', banner: BANNER, cacheName: 'cli' });
}

/** Writes the executable to `file` (mode 0755, atomically). */
export async function writeCliBundle(file: string, root: string = repoRoot()): Promise<void> {
  const bytes = await bundleCli(root);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(tmp, bytes, { mode: 0o755 });
  fs.renameSync(tmp, file);
}

if (require.main === module) {
  const root = repoRoot();
  const file = path.join(root, 'dist', 'virtseed.js');
  writeCliBundle(file, root).then(
    () => process.stderr.write(`cli-bundle: wrote ${path.relative(process.cwd(), file) || file}\n`),
    (e: Error) => {
      process.stderr.write(`cli-bundle: ${e.message}\n`);
      process.exit(1);
    },
  );
}
