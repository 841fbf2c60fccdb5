/**
 * Builds the `virtseed` CLI as one bundled file, run through a V8 code cache by a small executable beside it (run by
 * `npm run build`):
 *
 *   node dist/packages/build/cli-bundle.js        writes dist/virtseed.js and dist/virtseed-cli.bundle.js
 *
 * bin/virtseed runs it in a checkout; the `virtseed` npm package ships the same two files in its dist/
 * (packages.ts). One file instead of ~90 modules and no compile on later starts: `virtseed seed build` as a process,
 * issue #15.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI_COMMANDS } from '../../cli/commands/names';
import { bundleWithCodeCache, type BundledProgram } from './bundle';
import { bundleFileName } from './code-cache-loader';
import { repoRoot } from './repo';

/** The CLI's code cache name (and so its bundle's file name, {@link bundleFileName}). */
const CLI_CACHE_NAME = 'cli';

/** First lines of the executable: refuse an old node with a clear message instead of a syntax error. */
const BANNER = `#!/usr/bin/env node
// virtseed command line (bundled by packages/build/cli-bundle.ts; MPL-2.0, bundled packages keep their licenses)
if (+process.versions.node.split('.')[0] < 20) { process.stderr.write('virtseed needs Node.js >= 20; found ' + process.version + '\\n'); process.exit(1); }`;

/** The CLI's executable (its code-cache loader) and the bundle of cli/main.ts it runs. */
export function bundleCli(root: string): Promise<BundledProgram> {
  // One code cache per command: each holds the bytecode its own command runs (issue #25).
  return bundleWithCodeCache(root, { entry: 'cli/main.ts', banner: BANNER, cacheName: CLI_CACHE_NAME, cacheCommands: CLI_COMMANDS });
}

/** The build's CLI (`npm run build`): the executable and, beside it, the bundle it runs, in `root`'s dist/. */
export function builtCliFiles(root: string): { executable: string; bundle: string } {
  return { executable: path.join(root, 'dist', 'virtseed.js'), bundle: path.join(root, 'dist', bundleFileName(CLI_CACHE_NAME)) };
}

/** Writes the executable to `file` (mode 0755) and its bundle beside it (0644), each atomically, bundle first. */
export async function writeCliBundle(file: string, root: string = repoRoot()): Promise<void> {
  const program = await bundleCli(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const write = (target: string, data: Uint8Array, mode: number) => {
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data, { mode });
    fs.renameSync(tmp, target);
  };
  write(path.join(path.dirname(file), program.sourceFile), program.source, 0o644);
  write(file, program.executable, 0o755);
}

if (require.main === module) {
  const root = repoRoot();
  const file = builtCliFiles(root).executable;
  writeCliBundle(file, root).then(
    () => process.stderr.write(`cli-bundle: wrote ${path.relative(process.cwd(), file) || file}\n`),
    (e: Error) => {
      process.stderr.write(`cli-bundle: ${e.message}\n`);
      process.exit(1);
    },
  );
}
