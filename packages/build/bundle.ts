/**
 * One TypeScript entry point and everything it imports (our code, packages from node_modules, JSON) bundled by
 * esbuild into one CommonJS file for `node` >= 20, run by a small executable beside it through a V8 code cache
 * (./code-cache-loader.ts): the provider artifact and the `virtseed` CLI (start-up time, issue #15). The bytes depend only on the sources and the
 * locked esbuild version: no absolute paths (a bundle naming the checkout's path is refused), no timestamps.
 */
import * as esbuild from 'esbuild';
import { codeCacheLoader } from './code-cache-loader';

export interface BundleOptions {
  /** The entry point, relative to the checkout (e.g. `cli/main.ts`). */
  readonly entry: string;
  /** First lines of the executable: the shebang, then any comment or version check (run before the bundle). */
  readonly banner: string;
  /** The code cache's file name prefix (`provider`, `cli`). */
  readonly cacheName: string;
}

/** The two files of a bundled program, written side by side. */
export interface BundledProgram {
  /** The executable: `banner`, then the code-cache loader (a few KiB). */
  readonly executable: Uint8Array;
  /** The bundle the executable runs, UTF-8. */
  readonly source: Uint8Array;
  /** The bundle's file name, beside the executable. */
  readonly sourceFile: string;
}

/** The executable and its bundle. Throws `Error` when esbuild fails or the bundle contains `root`. */
export async function bundleWithCodeCache(root: string, options: BundleOptions): Promise<BundledProgram> {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [options.entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    outfile: 'bundle.js',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    charset: 'utf8',
    preserveSymlinks: true,
    // jsonc-parser's main file is UMD, whose requires esbuild cannot see; its ES module build bundles whole.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    logLevel: 'silent',
    banner: { js: options.banner },
  });
  const out = result.outputFiles?.[0];
  if (!out) throw new Error(`esbuild wrote no output for ${options.entry}`);
  const text = Buffer.from(out.contents).toString('utf8');
  const leak = text.indexOf(root);
  if (leak >= 0)
    throw new Error(`the bundle of ${options.entry} contains the checkout's path ${root} (at ${leak}): it would differ between clones`);
  const banner = text.slice(0, text.indexOf(options.banner) + options.banner.length);
  const program = codeCacheLoader(text.slice(banner.length), options.cacheName);
  return {
    executable: Buffer.from(`${banner}\n${program.loader}`, 'utf8'),
    source: Buffer.from(program.source, 'utf8'),
    sourceFile: program.sourceFile,
  };
}
