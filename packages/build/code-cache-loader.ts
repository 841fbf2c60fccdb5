/**
 * Wraps a bundled CommonJS program in a loader that keeps a V8 code cache of it, so every start after the first
 * skips parsing and compiling the bundle (issue #15: provider start-up, about 30 ms of ~155 ms measured on this
 * machine, and the `virtseed` CLI; Node 20 has no built-in compile cache).
 *
 * The bundle is embedded as a string and compiled with `vm.Script` using `cachedData` from
 * `$VIRTSEED_CACHE_DIR`, else `$XDG_CACHE_HOME/virtseed`, else `~/.cache/virtseed`, in a file named by the program
 * (`name`: `provider`, `cli`), the bundle's sha256 (fixed at build time) and the Node/V8 version. The folder is
 * created private (0700) and a cache file is only read when the folder and the file belong to the current user; a
 * missing or rejected cache is (re)written at exit, atomically. Nothing is ever written next to the executable
 * (Terraform checksums the provider's folder). Any failure falls back to a plain compile. The output depends only
 * on the bundle and `name` (reproducible builds).
 */
import { createHash } from 'node:crypto';

/** The loader program (no shebang/banner: the caller prepends it) running `bundle` with a code cache kept under
 *  the file name prefix `name` (lower-case letters and dashes). Throws `Error` for another `name`. */
export function codeCacheLoader(bundle: string, name = 'provider'): string {
  if (!/^[a-z-]+$/.test(name)) throw new Error(`codeCacheLoader: name must be lower-case letters and dashes, got ${JSON.stringify(name)}`);
  const body = bundle.replace(/^#!.*\n/, '');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 32);
  return `(function () {
const fs = require('fs'), os = require('os'), path = require('path'), vm = require('vm'), Module = require('module');
const source = ${JSON.stringify(body)};
let file, cachedData;
try {
  const home = os.homedir();
  const dir = process.env.VIRTSEED_CACHE_DIR || path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'virtseed');
  file = path.join(dir, '${name}-${hash}-' + process.version + '-' + process.versions.v8 + '.v8cache');
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
script.runInThisContext()(module.exports, require, module, __filename, __dirname);
})();
`;
}
