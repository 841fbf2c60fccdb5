// Runs one CommonJS file (the provider's entry, or its bundle) with a V8 code cache kept beside it, so later starts
// skip parsing and compiling it (start-up time, issue #15). Node 20 has no built-in module compile cache.
// The cache is keyed by the file's size, mtime and the Node/V8 version (V8 itself only checks the source length);
// a missing, stale or rejected cache is rewritten at exit, atomically; any failure falls back to a plain compile.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');

/** Loads `file` as the main module (require.main-like), using and refreshing `<file>.v8cache`. */
function runWithCodeCache(file) {
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const key = Buffer.from(`${stat.size}:${stat.mtimeMs}:${process.version}:${process.versions.v8}\n`);
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  try {
    const blob = fs.readFileSync(cacheFile);
    if (blob.subarray(0, key.length).equals(key)) cachedData = blob.subarray(key.length);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  if (!cachedData || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, Buffer.concat([key, script.createCachedData()]));
        fs.renameSync(tmp, cacheFile);
      } catch {
        // read-only install folder: run without a cache
      }
    });
  }
  const mod = new Module(file, null);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  mod.loaded = true;
  require.cache[file] = mod;
  process.mainModule = mod;
  const req = (id) => mod.require(id);
  req.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  req.cache = require.cache;
  req.main = mod;
  script.runInThisContext()(mod.exports, req, mod, file, path.dirname(file));
}

module.exports = { runWithCodeCache };
