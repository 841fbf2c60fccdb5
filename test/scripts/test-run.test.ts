import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { queuedFiles, usesTestImage } from '../../scripts/test-lanes';
import { parseRunArgs, readImage } from '../../scripts/test-run';

describe('parseRunArgs', () => {
  it('GIVEN the results folder, the image building, files and jest arguments WHEN parsed THEN each is in its place', () => {
    expect(parseRunArgs(['test-results', '--image-building', '42', 'a.int.test.ts', 'b.int.test.ts', '--', '-t', 'x'])).toEqual({
      results: 'test-results',
      buildingFor: 42,
      files: ['a.int.test.ts', 'b.int.test.ts'],
      jestArgs: ['-t', 'x'],
    });
    expect(parseRunArgs(['r', '--'])).toEqual({ results: 'r', files: [], jestArgs: [] });
  });

  it('GIVEN no results folder or bad seconds WHEN parsed THEN it throws saying what it expects', () => {
    expect(() => parseRunArgs([])).toThrow(/expected RESULTS/);
    expect(() => parseRunArgs(['r', '--image-building', 'soon'])).toThrow(/--image-building expects seconds, got "soon"/);
  });
});

describe('queuedFiles', () => {
  it('GIVEN lanes.json entries and sources WHEN queued THEN estimates, guests and image readers come from them', () => {
    const lanes = { files: { g: { seconds: 100, boots: 1 }, n: { seconds: 20, boots: 0, restores: 0 } } };
    const src: Record<string, string> = { g: '', n: 'testImage()', x: '' };
    expect(queuedFiles(['g', 'n', 'x'], lanes, (f) => usesTestImage(src[f]))).toEqual([
      { file: 'g', seconds: 100, guest: true, readsImage: false },
      { file: 'n', seconds: 20, guest: false, readsImage: true },
      { file: 'x', seconds: 100, guest: true, readsImage: false }, // not measured: the median, and guests assumed
    ]);
  });
});

describe('readImage', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-run-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('GIVEN no image.end WHEN read THEN the image is not done', () => {
    fs.writeFileSync(path.join(dir, 'image.status'), '0\n');
    expect(readImage(dir)).toEqual({ done: false });
  });

  it('GIVEN status 0 and the folder on image.out last line WHEN read THEN it is ready there', () => {
    fs.writeFileSync(path.join(dir, 'image.status'), '0\n');
    fs.writeFileSync(path.join(dir, 'image.out'), 'noise\n/var/cache/virtseed/images/x\n');
    fs.writeFileSync(path.join(dir, 'image.end'), '1\n');
    expect(readImage(dir)).toEqual({ done: true, dir: '/var/cache/virtseed/images/x' });
  });

  it('GIVEN a failed build WHEN read THEN it says so with the status', () => {
    fs.writeFileSync(path.join(dir, 'image.status'), '3\n');
    fs.writeFileSync(path.join(dir, 'image.end'), '1\n');
    expect(readImage(dir)).toEqual({ done: true, failed: 'exit status 3, no folder in image.out' });
  });
});
