/**
 * The construct API reference (docs/constructs/, typedoc + typedoc-plugin-markdown from the doc comments of
 * constructs/index.ts, configured by typedoc.json) is what `npm run docs` generates now, and typedoc finds no
 * broken `{@link}` or other warning in the doc comments. A unit test (typedoc reads sources only, ~8 CPU s) so that
 * whoever changes a doc comment sees the drift before landing. typedoc.json has `skipErrorChecking`: typedoc does
 * not type-check the constructs again (about 8 CPU s more; the build and the type check do). The order of a union's
 * members on the pages is the order the checker met them in, so `npm run docs` and this test use the same setting.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const COMMITTED = path.join(ROOT, 'docs', 'constructs');

function files(dir: string, rel = ''): string[] {
  return fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .flatMap((e) => {
      const child = rel ? `${rel}/${e.name}` : e.name;
      return e.isDirectory() ? files(dir, child) : [child];
    })
    .sort();
}

describe('docs/constructs', () => {
  let out: string;
  let log: string;
  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-typedoc-'));
    const args = [
      path.join(ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc'),
      '--out',
      out,
      '--treatWarningsAsErrors',
      '--logLevel',
      'Warn',
    ];
    const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
    log = `\`node ${args.join(' ')}\` exited ${r.status}:\n${r.stdout}${r.stderr}`;
    if (r.status !== 0) throw new Error(log);
  }, 320_000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it('GIVEN the doc comments WHEN typedoc regenerates the reference THEN the committed pages are the same (else run `npm run docs`)', () => {
    expect(files(COMMITTED)).toEqual(files(out));
    const differing = files(out).filter(
      (f) => fs.readFileSync(path.join(out, f), 'utf8') !== fs.readFileSync(path.join(COMMITTED, f), 'utf8'),
    );
    expect(differing).toEqual([]);
  });

  it('GIVEN the reference WHEN read THEN it documents the constructs users import', () => {
    for (const page of [
      'classes/VirtualMachine.md',
      'classes/CloudInitSeed.md',
      'classes/IgnitionConfig.md',
      'classes/Volume.md',
      'classes/BaseImage.md',
      'classes/Size.md',
      'enumerations/Reprovision.md',
    ]) {
      expect(files(out)).toContain(page);
    }
    expect(fs.readFileSync(path.join(out, 'classes', 'VirtualMachine.md'), 'utf8')).toContain('# Class: VirtualMachine');
  });
});
