import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeCacheLoader } from '../../packages/build/code-cache-loader';

describe('codeCacheLoader', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-loader-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function run(program: string, cacheDir: string, name?: string): string {
    const file = path.join(dir, 'prog.js');
    const wrapped = codeCacheLoader(program, name);
    fs.writeFileSync(file, wrapped.loader);
    fs.writeFileSync(path.join(dir, wrapped.sourceFile), wrapped.source);
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', env: { ...process.env, VIRTSEED_CACHE_DIR: cacheDir } });
    if (r.status !== 0) throw new Error(`node ${file} exited ${r.status}: ${r.stderr}`);
    return r.stdout;
  }

  it('GIVEN a bundled program WHEN run twice THEN it runs as the main module both times and a private cache is kept', () => {
    const program =
      "#!/usr/bin/env node\nconst path = require('path');\nprocess.stdout.write(typeof require('fs').readFileSync + ' ' + (require.main === module) + ' ' + path.basename(__filename));\n";
    const cache = path.join(dir, 'cache', 'virtseed');
    expect(run(program, cache)).toBe('function true prog.js');
    const files = fs.readdirSync(cache);
    expect(files).toEqual([expect.stringMatching(/^provider-[0-9a-f]{32}-v\d+\.\d+\.\d+-.*\.v8cache$/)]);
    expect(fs.statSync(cache).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(cache, files[0])).mode & 0o777).toBe(0o600);
    const written = fs.statSync(path.join(cache, files[0])).mtimeMs;
    expect(run(program, cache)).toBe('function true prog.js');
    expect(fs.statSync(path.join(cache, files[0])).mtimeMs).toBe(written); // accepted, not rewritten
  });

  it("GIVEN the name cli WHEN run THEN its cache file is named cli-..., apart from the provider's", () => {
    const cache = path.join(dir, 'cache');
    expect(run("process.stdout.write('cli');", cache, 'cli')).toBe('cli');
    expect(fs.readdirSync(cache)).toEqual([expect.stringMatching(/^cli-[0-9a-f]{32}-v\d+\.\d+\.\d+-.*\.v8cache$/)]);
  });

  it('GIVEN a name that is not lower-case letters and dashes WHEN wrapping THEN it throws naming the name', () => {
    expect(() => codeCacheLoader('1;', '../x')).toThrow('codeCacheLoader: name must be lower-case letters and dashes, got "../x"');
  });

  it('GIVEN an unusable cache folder WHEN run THEN the program still runs', () => {
    fs.writeFileSync(path.join(dir, 'file'), '');
    expect(run("process.stdout.write('ran');", path.join(dir, 'file', 'cache'))).toBe('ran');
  });

  it('GIVEN the same bundle WHEN wrapped twice THEN the bytes are the same (reproducible artifact)', () => {
    expect(codeCacheLoader('module.exports = 1;\n')).toEqual(codeCacheLoader('module.exports = 1;\n'));
  });

  it('GIVEN a bundle THEN the loader does not embed it: it reads the file beside it, named after the program', () => {
    const wrapped = codeCacheLoader('#!/usr/bin/env node\nprocess.stdout.write("marker-" + "text");\n', 'cli');
    expect(wrapped.sourceFile).toBe('virtseed-cli.bundle.js');
    expect(wrapped.source).toBe('process.stdout.write("marker-" + "text");\n');
    expect(wrapped.loader).not.toContain('marker-');
    expect(() => codeCacheLoader('1;', 'cli', '../x.js')).toThrow('codeCacheLoader: sourceFile must be a plain file name, got "../x.js"');
  });

  it('GIVEN a first stage WHEN run THEN the bundle is read only once its start resolves, and run gets what it gave', () => {
    // The first stage writes the bundle file itself before resolving: had the loader read it earlier, it would fail.
    const wrapped = codeCacheLoader("module.exports.run = (v) => process.stdout.write('run ' + v);", 'provider', undefined, {
      script: `var virtseedFirstStage = { start: () => new Promise((resolve) => setTimeout(() => {
        require('fs').renameSync(require('path').join(__dirname, 'later.js'), require('path').join(__dirname, 'virtseed-provider.bundle.js'));
        process.stdout.write('first; ');
        resolve('handoff');
      }, 50)) };`,
      start: 'start',
    });
    fs.writeFileSync(path.join(dir, 'prog.js'), wrapped.loader);
    fs.writeFileSync(path.join(dir, 'later.js'), wrapped.source);
    const r = spawnSync(process.execPath, [path.join(dir, 'prog.js')], {
      encoding: 'utf8',
      env: { ...process.env, VIRTSEED_CACHE_DIR: path.join(dir, 'cache') },
    });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'first; run handoff', '']);
  });

  it('GIVEN a first stage that fails WHEN run THEN the process ends with status 1 and the error, the bundle unread', () => {
    const wrapped = codeCacheLoader("process.stdout.write('bundle ran');", 'provider', undefined, {
      script: "var virtseedFirstStage = { start: () => Promise.reject(new Error('no socket')) };",
      start: 'start',
    });
    fs.writeFileSync(path.join(dir, 'prog.js'), wrapped.loader);
    const r = spawnSync(process.execPath, [path.join(dir, 'prog.js')], { encoding: 'utf8' });
    expect([r.status, r.stdout, r.stderr]).toEqual([1, '', expect.stringContaining('virtseed provider: Error: no socket')]);
  });

  it('GIVEN a first stage export that is not an identifier WHEN wrapping THEN it throws naming it', () => {
    expect(() => codeCacheLoader('1;', 'provider', undefined, { script: '', start: 'a();b' })).toThrow(
      'codeCacheLoader: firstStage.start must be an identifier, got "a();b"',
    );
  });

  it('GIVEN a bundle file that is not the one built (another length) WHEN run THEN it runs without reading or writing a cache', () => {
    const cache = path.join(dir, 'cache');
    const wrapped = codeCacheLoader("process.stdout.write('one');", 'provider');
    fs.writeFileSync(path.join(dir, 'prog.js'), wrapped.loader);
    fs.writeFileSync(path.join(dir, wrapped.sourceFile), "process.stdout.write('other');");
    const r = spawnSync(process.execPath, [path.join(dir, 'prog.js')], {
      encoding: 'utf8',
      env: { ...process.env, VIRTSEED_CACHE_DIR: cache },
    });
    expect(r.stdout).toBe('other');
    expect(fs.existsSync(cache)).toBe(false);
  });

  it('GIVEN commands WHEN runs start with one of them or another word THEN each command keeps its own cache, the rest share one', () => {
    const cache = path.join(dir, 'cache');
    const wrapped = codeCacheLoader("process.stdout.write(process.argv[2] ?? 'none');", 'cli', undefined, undefined, [
      'seed',
      'plan-summary',
    ]);
    fs.writeFileSync(path.join(dir, 'prog.js'), wrapped.loader);
    fs.writeFileSync(path.join(dir, wrapped.sourceFile), wrapped.source);
    for (const args of [['seed', 'build'], ['plan-summary'], ['--help'], []]) {
      const r = spawnSync(process.execPath, [path.join(dir, 'prog.js'), ...args], {
        encoding: 'utf8',
        env: { ...process.env, VIRTSEED_CACHE_DIR: cache },
      });
      expect([r.status, r.stdout, r.stderr]).toEqual([0, args[0] ?? 'none', '']);
    }
    const names = fs.readdirSync(cache).map((f) => f.replace(/-[0-9a-f]{32}-.*$/, ''));
    expect(names.sort()).toEqual(['cli', 'cli-plan-summary', 'cli-seed']);
  });

  it('GIVEN a command that is not lower-case letters and dashes WHEN wrapping THEN it throws naming it', () => {
    expect(() => codeCacheLoader('1;', 'cli', undefined, undefined, ['Seed'])).toThrow(
      'codeCacheLoader: commands must be lower-case letters and dashes, got "Seed"',
    );
  });

  it('GIVEN no commands WHEN wrapping THEN the cache name is the one every earlier build used (provider artifact unchanged)', () => {
    expect(codeCacheLoader('1;').loader).toMatch(/'provider-[0-9a-f]{32}-' \+ process\.version/);
  });
});
