import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleWithCodeCache } from '../../packages/build/bundle';
import { repoRoot } from '../../packages/build/repo';

describe('bundleWithCodeCache', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-bundle-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('GIVEN lazy built-ins WHEN the bundle loads THEN they load at their first use, through default, named, namespace and require forms', async () => {
    const program = await bundleWithCodeCache(repoRoot(), {
      entry: 'test/packages/fixtures/lazy-builtins/entry.ts',
      banner: '#!/usr/bin/env node',
      cacheName: 'lazy-test',
      lazyBuiltins: ['zlib', 'dns'],
    });
    const executable = path.join(dir, 'prog.js');
    fs.writeFileSync(executable, program.executable);
    fs.writeFileSync(path.join(dir, program.sourceFile), program.source);
    fs.writeFileSync(path.join(dir, 'main.js'), `require(${JSON.stringify(executable)}).run();`);
    const r = spawnSync(process.execPath, [path.join(dir, 'main.js')], {
      encoding: 'utf8',
      env: { ...process.env, VIRTSEED_CACHE_DIR: path.join(dir, 'cache') },
    });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: 'false false | virtseed true true function | true true',
      stderr: '',
    });
  });

  it('GIVEN a cold package WHEN the bundle requires it THEN it runs from the end of the bundle file, once; a file of another size is refused', async () => {
    const program = await bundleWithCodeCache(repoRoot(), {
      entry: 'test/packages/fixtures/cold-package/entry.ts',
      banner: '#!/usr/bin/env node',
      cacheName: 'cold-test',
      coldPackages: ['fflate'],
    });
    const source = Buffer.from(program.source).toString('latin1');
    const executable = path.join(dir, 'prog.js');
    fs.writeFileSync(executable, program.executable);
    fs.writeFileSync(path.join(dir, program.sourceFile), program.source);
    fs.writeFileSync(path.join(dir, 'main.js'), `require(${JSON.stringify(executable)}).run();`);
    const node = () => {
      const r = spawnSync(process.execPath, [path.join(dir, 'main.js')], {
        encoding: 'utf8',
        env: { ...process.env, VIRTSEED_CACHE_DIR: path.join(dir, 'cache') },
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    // The bundle's own text requires fflate; fflate's text (its gzip) follows it.
    expect(source.indexOf('require("fflate")')).toBeLessThan(source.lastIndexOf('gzipSync'));
    expect(node()).toEqual({ status: 0, stdout: 'virtseed true', stderr: '' });
    fs.appendFileSync(path.join(dir, program.sourceFile), '\n');
    expect(node()).toEqual({
      status: 1,
      stdout: '',
      stderr: `virtseed cold-test: ${path.join(dir, program.sourceFile)} is not the file this executable was built with (another size); reinstall it\n`,
    });
  });
});
