/**
 * One TypeScript entry point and everything it imports (our code, packages from node_modules, JSON) bundled by
 * esbuild into one CommonJS file for `node` >= 20, run by a small executable beside it through a V8 code cache
 * (./code-cache-loader.ts): the provider artifact and the `virtseed` CLI (start-up time, issue #15). The bytes depend only on the sources and the
 * locked esbuild version: no absolute paths (a bundle naming the checkout's path is refused), no timestamps.
 */
import * as esbuild from 'esbuild';
import { codeCacheLoader, FIRST_STAGE_GLOBAL, type ColdModule, type FirstStage } from './code-cache-loader';

export interface BundleOptions {
  /** The entry point, relative to the checkout (e.g. `cli/main.ts`). */
  readonly entry: string;
  /** First lines of the executable: the shebang, then any comment or version check (run before the bundle). */
  readonly banner: string;
  /** The code cache's file name prefix (`provider`, `cli`). */
  readonly cacheName: string;
  /**
   * A first stage bundled into the executable itself and run before the bundle is read: `entry` (relative to the
   * checkout) exports `start`, a function returning a promise; `entry`'s bundle must then export `run`, called with
   * what that promise gives (the provider: everything up to the handshake line, then gRPC and the handlers).
   */
  readonly firstStage?: { readonly entry: string; readonly start: string };
  /** The program's commands (first arguments) that each keep their own code cache (see codeCacheLoader). */
  readonly cacheCommands?: readonly string[];
  /** Node built-in modules (without `node:`) the bundle loads on the first use of one of their exports rather than
   *  when a module requiring them loads (those only some calls need; see lazyBuiltins). */
  readonly lazyBuiltins?: readonly string[];
  /** Packages (from node_modules) each bundled on its own after the bundle's text in its file, read and compiled
   *  only when the bundle requires them (codeCacheLoader's `cold`): large ones that only some calls need and that
   *  our code requires where it uses them, not at load. */
  readonly coldPackages?: readonly string[];
}

/** The two files of a bundled program, written side by side. */
export interface BundledProgram {
  /** The executable: `banner`, then the code-cache loader (a few KiB). */
  readonly executable: Uint8Array;
  /** The bundle the executable runs: ASCII (esbuild writes other characters as escapes), so its loader reads it as
   *  one-byte text, without decoding UTF-8 into a two-byte string (~5 ms of each start for the provider's 2 MB). */
  readonly source: Uint8Array;
  /** The bundle's file name, beside the executable. */
  readonly sourceFile: string;
  /** The same loader as the main script of a Node single executable application, the bundle being its asset
   *  {@link SEA_BUNDLE_ASSET} (packages/build/sea.ts); no banner. */
  readonly seaMain: string;
}

/** The asset key of the bundle in a single executable application. */
export const SEA_BUNDLE_ASSET = 'bundle';

/** esbuild's settings for our bundles: Node 20, minified whitespace and syntax, ASCII, no comments. */
const ESBUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  write: false,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  charset: 'ascii',
  preserveSymlinks: true,
  // jsonc-parser's main file is UMD, whose requires esbuild cannot see; its ES module build bundles whole.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  logLevel: 'silent',
} as const satisfies esbuild.BuildOptions;

/**
 * A plugin that gives the bundle, for each Node built-in module named in `modules` (without `node:`) and required by
 * a module whose path matches `importer` (any module when absent), a stand-in that loads the real module on the
 * first use of one of its exports: a module only some calls need then costs nothing at start-up. The stand-in is a
 * `Proxy` forwarding every read, `in`, key listing and property description to the real module (so `import * as`
 * and destructuring see the same exports; a module that reads an export while it loads just loads it then).
 */
function lazyBuiltins(name: string, modules: readonly string[], importer?: RegExp): esbuild.Plugin {
  const namespace = `lazy-builtin-${name}`;
  const filter = new RegExp(`^(node:)?(${modules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`);
  return {
    name,
    setup(build) {
      build.onResolve({ filter }, (args) =>
        args.namespace !== namespace && (!importer || importer.test(args.importer))
          ? { path: `lazy_builtin_${args.path.replace(/^node:/, '').replace(/\//g, '_')}`, pluginData: args.path, namespace }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace }, (args) => ({
        contents:
          `let real; const load = () => (real ??= require(${JSON.stringify(`node:${String(args.pluginData).replace(/^node:/, '')}`)}));\n` +
          'module.exports = new Proxy({}, {\n' +
          "  get: (_t, key) => (key === 'default' ? load() : load()[key]),\n" +
          '  set: (_t, key, value) => ((load()[key] = value), true),\n' +
          '  has: (_t, key) => key in load(),\n' +
          '  ownKeys: () => Reflect.ownKeys(load()),\n' +
          '  getOwnPropertyDescriptor: (_t, key) => {\n' +
          '    const d = Reflect.getOwnPropertyDescriptor(load(), key);\n' +
          '    return d && { ...d, configurable: true };\n' +
          '  },\n' +
          '});\n',
        loader: 'js',
      }));
    },
  };
}

/**
 * commander requires node:child_process when it loads, for executable subcommands, which virtseed never uses; that
 * require (with net and streams) cost every CLI start ~7 ms of CPU (issue #25). In the bundle, commander's
 * node:child_process is a stand-in that loads the real module on first use.
 */
const lazyChildProcessForCommander = lazyBuiltins(
  'lazy-child-process-for-commander',
  ['child_process'],
  /[\\/]node_modules[\\/]commander[\\/]/,
);

/**
 * esbuild hands a CommonJS module to an ES module importer through `__toESM`, which copies its exports, so a
 * stand-in of lazyBuiltins imported by our TypeScript would load the real module right there. The stand-in
 * answers named reads and `default` (the module itself, as Node's own ES module wrapper of a built-in does), so it
 * is passed as it is.
 */
function unwrapLazyBuiltins(text: string): string {
  return text.replace(/__toESM\((require_lazy_builtin_[A-Za-z0-9_$]+)\(\)(?:,1)?\)/g, '$1()');
}

/** One bundled entry point's text. Throws `Error` when esbuild fails, or the text contains `root` or is not ASCII. */
async function bundleText(root: string, entry: string, options: esbuild.BuildOptions, lazy: readonly string[] = []): Promise<string> {
  const result = await esbuild.build({
    ...ESBUILD_OPTIONS,
    plugins: [lazyChildProcessForCommander, ...(lazy.length ? [lazyBuiltins('lazy-builtins', lazy)] : [])],
    ...options,
    absWorkingDir: root,
    ...(options.stdin ? {} : { entryPoints: [entry] }),
    outfile: 'bundle.js',
  });
  const out = result.outputFiles?.[0];
  if (!out) throw new Error(`esbuild wrote no output for ${entry}`);
  const text = unwrapLazyBuiltins(Buffer.from(out.contents).toString('utf8'));
  const leak = text.indexOf(root);
  if (leak >= 0)
    throw new Error(`the bundle of ${entry} contains the checkout's path ${root} (at ${leak}): it would differ between clones`);
  const wide = text.search(/[^\x00-\x7f]/);
  if (wide >= 0) throw new Error(`the bundle of ${entry} is not ASCII (at ${wide}): its loader reads it as one-byte text`);
  return text;
}

/** The executable and its bundle. Throws `Error` when esbuild fails, or a bundle contains `root` or is not ASCII. */
export async function bundleWithCodeCache(root: string, options: BundleOptions): Promise<BundledProgram> {
  const coldPackages = options.coldPackages ?? [];
  const text = await bundleText(
    root,
    options.entry,
    { format: 'cjs', banner: { js: options.banner }, external: [...coldPackages] },
    options.lazyBuiltins,
  );
  const cold: ColdModule[] = [];
  for (const id of coldPackages) {
    const stdin = {
      contents: `module.exports = require(${JSON.stringify(id)});\n`,
      resolveDir: root,
      sourcefile: `cold-${id}.js`,
      loader: 'js' as const,
    };
    cold.push({ id, source: await bundleText(root, `the cold package ${id}`, { format: 'cjs', stdin }, options.lazyBuiltins) });
  }
  const banner = text.slice(0, text.indexOf(options.banner) + options.banner.length);
  let firstStage: FirstStage | undefined;
  if (options.firstStage) {
    const script = await bundleText(root, options.firstStage.entry, { format: 'iife', globalName: FIRST_STAGE_GLOBAL });
    firstStage = { script, start: options.firstStage.start };
  }
  // The same loader twice: reading the bundle beside it (the artifact), or from the single executable's asset.
  const loaderFrom = (asset: string | undefined) =>
    codeCacheLoader(text.slice(banner.length), options.cacheName, undefined, firstStage, options.cacheCommands, asset, cold);
  const program = loaderFrom(undefined);
  const sea = loaderFrom(SEA_BUNDLE_ASSET);
  return {
    seaMain: sea.loader,
    executable: Buffer.from(`${banner}\n${program.loader}`, 'utf8'),
    source: Buffer.from(program.source, 'latin1'),
    sourceFile: program.sourceFile,
  };
}
