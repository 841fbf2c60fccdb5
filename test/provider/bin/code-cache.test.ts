import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const LOADER = path.resolve(__dirname, '..', '..', '..', 'provider', 'bin', 'code-cache.js');

function run(file: string): string {
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(LOADER)}).runWithCodeCache(${JSON.stringify(file)})`], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`node exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

describe('runWithCodeCache', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-codecache-'));
    file = path.join(dir, 'main.js');
    fs.writeFileSync(path.join(dir, 'dep.js'), 'module.exports = 41;\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('GIVEN a CommonJS file WHEN run THEN it runs as a module (require, __dirname, module.exports) and a cache is written beside it', () => {
    fs.writeFileSync(
      file,
      "process.stdout.write(String(require('./dep') + 1) + ' ' + (__dirname === " +
        JSON.stringify(dir) +
        ") + ' ' + typeof module.exports);\n",
    );
    expect(run(file)).toBe('42 true object');
    const cache = fs.readFileSync(`${file}.v8cache`);
    expect(cache.toString('latin1').split('\n')[0]).toBe(
      `${fs.statSync(file).size}:${fs.statSync(file).mtimeMs}:${process.version}:${process.versions.v8}`,
    );
    expect(cache.length).toBeGreaterThan(100);
  });

  it('GIVEN a cache WHEN run again THEN the output is the same and the cache is not rewritten', () => {
    fs.writeFileSync(file, "process.stdout.write('same');\n");
    run(file);
    const first = fs.statSync(`${file}.v8cache`).mtimeMs;
    expect(run(file)).toBe('same');
    expect(fs.statSync(`${file}.v8cache`).mtimeMs).toBe(first);
  });

  it('GIVEN the file changed with the same length WHEN run THEN the new code runs and the cache is renewed', () => {
    fs.writeFileSync(file, "process.stdout.write('aaaa');\n");
    run(file);
    fs.writeFileSync(file, "process.stdout.write('bbbb');\n");
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(run(file)).toBe('bbbb');
    expect(fs.readFileSync(`${file}.v8cache`).toString('latin1').split('\n')[0]).toContain(String(fs.statSync(file).mtimeMs));
  });

  it('GIVEN a corrupt cache WHEN run THEN the file still runs', () => {
    fs.writeFileSync(file, "process.stdout.write('ok');\n");
    run(file);
    const key = fs.readFileSync(`${file}.v8cache`).toString('latin1').split('\n')[0];
    fs.writeFileSync(`${file}.v8cache`, Buffer.concat([Buffer.from(key + '\n'), Buffer.alloc(64, 7)]));
    expect(run(file)).toBe('ok');
  });
});
