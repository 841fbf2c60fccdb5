/**
 * Wraps a bundled CommonJS program in a loader that keeps a V8 code cache of it, so every start after the first
 * skips parsing and compiling the bundle (issue #15: provider start-up and the `virtseed` CLI; Node 20 has no
 * built-in compile cache).
 *
 * The bundle is a separate file beside the loader (`sourceFile`), ASCII, read as one-byte (latin1) text at start and compiled with
 * `vm.Script` using `cachedData` from `$VIRTSEED_CACHE_DIR`, else `$XDG_CACHE_HOME/virtseed`, else
 * `~/.cache/virtseed`, in a file named by the program (`name`: `provider`, `cli`), the bundle's sha256 (fixed at
 * build time) and the Node/V8 version. (Embedded in the loader as a string literal, the 2 MB provider bundle cost
 * ~14 ms of parsing at every start, before any cache could help: measured 62.3 vs 48.4 ms for a program that only
 * loads it, Node's own start 45 ms.) A bundle file whose length is not the built one is compiled without a cache.
 * The cache folder is created private (0700) and a cache file is only read when the folder and the file belong to
 * the current user; a missing or rejected cache is (re)written at exit, atomically. Nothing is ever written next to
 * the executable (Terraform checksums the provider's folder). Any cache failure falls back to a plain compile. The
 * output depends only on the bundle, `name`, `sourceFile` and `commands` (reproducible builds).
 *
 * A cache holds the bytecode of the functions the run that wrote it compiled, and is kept while V8 accepts it. A
 * program with several commands (the CLI) therefore keeps one cache per command (`commands`): a cache written by
 * `virtseed provider install` holds none of `virtseed seed build`'s validators, which then compiled at every start
 * (measured: 40 ms more CPU per `seed build` process, issue #25).
 */
import { createHash } from 'node:crypto';

/** The global name the first stage's script defines (esbuild `iife` output with `globalName`). */
export const FIRST_STAGE_GLOBAL = 'virtseedFirstStage';

/** A first stage run before the bundle is loaded (the provider's work up to its handshake line). */
export interface FirstStage {
  /** A self-contained script defining {@link FIRST_STAGE_GLOBAL} (its exports); no shebang. */
  readonly script: string;
  /** The export to call: a function returning a promise of what the bundle's `run` receives. */
  readonly start: string;
}

/** A package bundled on its own and kept out of the bundle's compiled text (see codeCacheLoader's `cold`). */
export interface ColdModule {
  /** What the bundle passes to `require` for it (a package name). */
  readonly id: string;
  /** Its bundled CommonJS text, ASCII. */
  readonly source: string;
}

/** A loader and the bundle it runs, to be written side by side (the loader finds `sourceFile` in its own folder). */
export interface CodeCacheProgram {
  /** The loader program (no shebang/banner: the caller prepends it). */
  readonly loader: string;
  /** The bundle's text, without its shebang: the contents of `sourceFile`. */
  readonly source: string;
  /** The bundle's file name, beside the loader. */
  readonly sourceFile: string;
}

/** The file name of the bundle a loader named `name` runs, beside it, unless told another: `virtseed-<name>.bundle.js`. */
export function bundleFileName(name: string): string {
  return `virtseed-${name}.bundle.js`;
}

/**
 * The loader program running `bundle` (written as `sourceFile` beside it) with a code cache kept under the file
 * name prefix `name`. Throws `Error` when `name` is not lower-case letters and dashes, or `sourceFile` is not a
 * plain file name (letters, digits, `.`, `_`, `-`), or `firstStage.start` not an identifier, or a command is not
 * lower-case letters and dashes.
 *
 * With `commands`, a run whose first argument (`process.argv[2]`) is one of them keeps its own cache,
 * `<name>-<command>-<sha256>-...`; runs with any other first argument share `<name>-<sha256>-...`.
 *
 * With `seaAsset`, the loader is the main script of a Node single executable application (packages/build/sea.ts):
 * the bundle is not a file but the executable's asset of that key (`node:sea` `getAsset`), and `__filename` is
 * the executable; the code cache works as for a file.
 *
 * With `firstStage`, the loader runs that script first and calls its `start()`; the bundle is read, compiled and
 * run only when the promise `start()` returns resolves, and its export `run` is then called with the value. A
 * rejection is printed to stderr and ends the process with status 1.
 *
 * With `cold`, each module's text follows the bundle's in `sourceFile` and is neither read nor compiled at start:
 * the bundle's `require(id)` of one reads and runs it then (without a code cache; once per process). The loader
 * reads only the bundle's part at start, so a large package only some calls need (the provider's OpenPGP and XSLT
 * libraries, 0.8 MB of 3.1) costs no start its reading into memory (~12 ms of CPU per MB on the VM measured: page
 * faults, twice: the file's bytes and the string). A `sourceFile` of another length is then refused (the offsets
 * would be wrong): the process ends with status 1 and a message. Throws `Error` when an id is not a package name.
 */
export function codeCacheLoader(
  bundle: string,
  name = 'provider',
  sourceFile = bundleFileName(name),
  firstStage?: FirstStage,
  commands: readonly string[] = [],
  seaAsset?: string,
  cold: readonly ColdModule[] = [],
): CodeCacheProgram {
  if (!/^[a-z-]+$/.test(name)) throw new Error(`codeCacheLoader: name must be lower-case letters and dashes, got ${JSON.stringify(name)}`);
  if (!/^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(sourceFile))
    throw new Error(`codeCacheLoader: sourceFile must be a plain file name, got ${JSON.stringify(sourceFile)}`);
  if (seaAsset !== undefined && !/^[a-z][a-z-]*$/.test(seaAsset))
    throw new Error(`codeCacheLoader: seaAsset must be lower-case letters and dashes, got ${JSON.stringify(seaAsset)}`);
  const badCommand = commands.find((c) => !/^[a-z][a-z-]*$/.test(c));
  if (badCommand !== undefined)
    throw new Error(`codeCacheLoader: commands must be lower-case letters and dashes, got ${JSON.stringify(badCommand)}`);
  const badCold = cold.find((c) => !/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+$/.test(c.id));
  if (badCold !== undefined)
    throw new Error(`codeCacheLoader: a cold module's id must be a package name, got ${JSON.stringify(badCold.id)}`);
  const main = bundle.replace(/^#!.*\n/, '');
  const source = main + cold.map((c) => c.source).join('');
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 32);
  // Where each cold module's text is in the file: id → [offset, length].
  const coldAt: Record<string, [number, number]> = {};
  let at = main.length;
  for (const c of cold) {
    coldAt[c.id] = [at, c.source.length];
    at += c.source.length;
  }
  if (firstStage && !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(firstStage.start))
    throw new Error(`codeCacheLoader: firstStage.start must be an identifier, got ${JSON.stringify(firstStage.start)}`);
  // The first argument, when it is one of `commands`, names the cache (`cli-seed-<hash>-...`); any other shares one.
  const prefix = commands.length
    ? `'${name}-' + (${JSON.stringify(commands)}.includes(process.argv[2]) ? process.argv[2] + '-' : '') + '${hash}-'`
    : `'${name}-${hash}-'`;
  const load = `const fs = require('fs'), os = require('os'), path = require('path'), vm = require('vm'), Module = require('module');
${
  cold.length === 0
    ? `const source = ${
        seaAsset === undefined
          ? `fs.readFileSync(path.join(__dirname, ${JSON.stringify(sourceFile)}), 'latin1')`
          : `Buffer.from(require('node:sea').getAsset(${JSON.stringify(seaAsset)})).toString('latin1')`
      };
const bundleRequire = require;`
    : `// The bundle's text, then cold modules' (${JSON.stringify(coldAt)}: offset, length), read when required.
const cold = ${JSON.stringify(coldAt)};
const readPart = ${
        seaAsset === undefined
          ? `(offset, length) => {
  const fd = fs.openSync(path.join(__dirname, ${JSON.stringify(sourceFile)}), 'r');
  try {
    if (fs.fstatSync(fd).size !== ${source.length}) {
      process.stderr.write('virtseed ${name}: ' + path.join(__dirname, ${JSON.stringify(sourceFile)}) + ' is not the file this executable was built with (another size); reinstall it\\n');
      process.exit(1);
    }
    const bytes = Buffer.allocUnsafeSlow(length);
    fs.readSync(fd, bytes, 0, length, offset);
    return bytes.latin1Slice(0, length);
  } finally { fs.closeSync(fd); }
}`
          : `(offset, length) => Buffer.from(require('node:sea').getAsset(${JSON.stringify(seaAsset)})).latin1Slice(offset, offset + length)`
      };
const source = readPart(0, ${main.length});
const coldExports = {};
const loadCold = (id) => {
  const m = { exports: {} };
  new vm.Script(Module.wrap(readPart(cold[id][0], cold[id][1])), { filename: __filename + '#' + id }).runInThisContext()(m.exports, require, m, __filename, __dirname);
  return m.exports;
};
const bundleRequire = Object.assign((id) => (Object.hasOwn(cold, id) ? (coldExports[id] ??= loadCold(id)) : require(id)), require);`
}
let file, cachedData;
try {
  if (source.length !== ${main.length}) throw new Error('not the bundle this loader was built with');
  const home = os.homedir();
  const dir = process.env.VIRTSEED_CACHE_DIR || path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'virtseed');
  file = path.join(dir, ${prefix} + process.version + '-' + process.versions.v8 + '.v8cache');
  const mine = (p) => { const st = fs.statSync(p); return typeof process.getuid !== 'function' || st.uid === process.getuid(); };
  if (mine(dir) && mine(file)) cachedData = fs.readFileSync(file);
} catch (e) { cachedData = undefined; }
const script = new vm.Script(Module.wrap(source), { filename: __filename, cachedData });
if (file && (!cachedData || script.cachedDataRejected)) {
  process.once('exit', () => {
    try {
      const dir = path.dirname(file); // two levels at most, not recursive (Node's recursive mkdir can spin on /proc)
      for (const d of [path.dirname(dir), dir]) { try { fs.mkdirSync(d, { mode: 0o700 }); } catch (e) { if (e.code !== 'EEXIST') throw e; } }
      const tmp = file + '.' + process.pid + '.tmp';
      fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(tmp, file);
    } catch (e) { /* read-only home: run without a cache */ }
  });
}
script.runInThisContext()(module.exports, bundleRequire, module, __filename, __dirname);`;
  const loader = firstStage
    ? `(function () {
${firstStage.script.trim()}
function load() {
${load}
return module.exports;
}
${FIRST_STAGE_GLOBAL}.${firstStage.start}().then((handoff) => load().run(handoff)).catch((e) => {
  process.stderr.write('virtseed ${name}: ' + ((e && e.stack) || String(e)) + '\\n');
  process.exit(1);
});
})();
`
    : `(function () {
${load}
})();
`;
  return { loader, source, sourceFile };
}
