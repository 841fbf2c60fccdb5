import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultSeconds, LanesFile, splitLanes, updateLanes } from '../../scripts/test-lanes';
import { FileTiming, integrationFiles, Timings } from '../../scripts/test-timings';

const ROOT = path.resolve(__dirname, '..', '..');

function timing(file: string, seconds: number, boots = 0, lane = 'int'): FileTiming {
  return { lane, file, seconds, boots, restores: 0, passed: 1, failed: 0, slowest: [] };
}

describe('splitLanes', () => {
  it('GIVEN measured files WHEN split THEN the longest goes first and each next one to the lane with less so far', () => {
    const lanes: LanesFile = {
      files: { a: { seconds: 500 }, b: { seconds: 400 }, c: { seconds: 300 }, d: { seconds: 200 }, e: { seconds: 100 } },
    };
    const { lane, seconds } = splitLanes(['e', 'd', 'c', 'b', 'a'], lanes);
    // a→heavy (500), b→int (400), c→int (700), d→heavy (700), e→heavy on a tie (800)
    expect(lane).toEqual({ a: 'heavy', b: 'int', c: 'int', d: 'heavy', e: 'heavy' });
    expect(seconds).toEqual({ heavy: 800, int: 700 });
  });

  it('GIVEN pinned files WHEN split THEN they stay in their lane and the others balance around them', () => {
    const lanes: LanesFile = { files: { a: { seconds: 100, lane: 'int' }, b: { seconds: 100, lane: 'int' }, c: { seconds: 150 } } };
    expect(splitLanes(['a', 'b', 'c'], lanes).lane).toEqual({ a: 'int', b: 'int', c: 'heavy' });
  });

  it('GIVEN a file not in lanes.json WHEN split THEN it counts as the median of the measured files', () => {
    const lanes: LanesFile = { files: { a: { seconds: 10 }, b: { seconds: 30 }, c: { seconds: 1000 } } };
    expect(defaultSeconds(lanes)).toBe(30);
    expect(splitLanes(['a', 'new'], lanes).seconds).toEqual({ heavy: 30, int: 10 });
    expect(defaultSeconds({ files: { a: { seconds: null } } })).toBe(60);
  });

  it('GIVEN the committed test/lanes.json WHEN every integration file is split THEN each file is in exactly one lane', () => {
    const lanes = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'lanes.json'), 'utf8')) as LanesFile;
    const files = integrationFiles(ROOT, 'test');
    const { lane } = splitLanes(files, lanes);
    expect(Object.keys(lane).sort()).toEqual(files);
    expect(new Set(Object.values(lane))).toEqual(new Set(['heavy', 'int']));
  });
});

describe('updateLanes', () => {
  const seed: LanesFile = { comment: 'c', files: { a: { seconds: null, lane: 'heavy' }, b: { seconds: null, lane: 'int' } } };

  it('GIVEN a run that measured every file WHEN lanes.json is updated THEN it has the figures and no pins', () => {
    const t: Timings = { files: [timing('a', 300, 2, 'heavy'), timing('b', 40), timing('u', 1, 0, 'unit')], lanes: [], unattributed: [] };
    expect(updateLanes(seed, t, ['a', 'b'])).toEqual({
      comment: 'c',
      files: { a: { seconds: 300, boots: 2, restores: 0 }, b: { seconds: 40, boots: 0, restores: 0 } },
    });
  });

  it('GIVEN a run of some files (one failed to load: 0 s) WHEN lanes.json is updated THEN the measured ones get their figures and every pin stays', () => {
    const t: Timings = { files: [timing('b', 40), timing('new', 7), timing('a', 0, 0, 'heavy')], lanes: [], unattributed: [] };
    expect(updateLanes(seed, t, ['a', 'b', 'new']).files).toEqual({
      a: { seconds: null, lane: 'heavy' },
      b: { seconds: 40, boots: 0, restores: 0, lane: 'int' },
      new: { seconds: 7, boots: 0, restores: 0 },
    });
  });
});
