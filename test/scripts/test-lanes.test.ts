import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  DEFAULT_IMAGE_SECONDS,
  defaultSeconds,
  imageHeadStart,
  LanesFile,
  splitLanes,
  startsGuests,
  updateLanes,
  usesTestImage,
} from '../../scripts/test-lanes';
import { FileTiming, integrationFiles, Timings } from '../../scripts/test-timings';

const ROOT = path.resolve(__dirname, '..', '..');

function timing(file: string, seconds: number, boots = 0, lane = 'int'): FileTiming {
  return { lane, file, seconds, boots, restores: 0, passed: 1, failed: 0, slowest: [] };
}

/** Two guest files and three that start none (seconds and boots as test/lanes.json has them). */
const MIXED: LanesFile['files'] = {
  g1: { seconds: 400, boots: 2 },
  g2: { seconds: 300, boots: 1 },
  n1: { seconds: 350, boots: 0, restores: 0 },
  n2: { seconds: 250, boots: 0, restores: 0 },
  n3: { seconds: 100, boots: 0, restores: 0 },
};

describe('splitLanes', () => {
  it('GIVEN measured guest files WHEN split THEN the longest goes first and each next one to the guest lane with less so far', () => {
    const lanes: LanesFile = {
      files: {
        a: { seconds: 500, boots: 1 },
        b: { seconds: 400, boots: 2 },
        c: { seconds: 300, restores: 1 },
        d: { seconds: 200, boots: 1 },
        e: { seconds: 100, boots: 0, guests: true },
      },
    };
    const { lane, seconds } = splitLanes(['e', 'd', 'c', 'b', 'a'], lanes);
    // a→heavy (500), b→int (400), c→int (700), d→heavy (700), e→heavy on a tie (800); none in noguest
    expect(lane).toEqual({ a: 'heavy', b: 'int', c: 'int', d: 'heavy', e: 'heavy' });
    expect(seconds).toEqual({ heavy: 800, int: 700, noguest: 0 });
  });

  it('GIVEN guest and no-guest files WHEN split THEN guest files stay in the two guest lanes and the others balance all three', () => {
    const { lane, seconds } = splitLanes(['g1', 'g2', 'n1', 'n2', 'n3'], { files: MIXED });
    // g1→heavy (400), g2→int (300); n1→noguest (350), n2→int (300 was least: 550), n3→noguest (350 was least: 450)
    expect(lane).toEqual({ g1: 'heavy', g2: 'int', n1: 'noguest', n2: 'int', n3: 'noguest' });
    expect(seconds).toEqual({ heavy: 400, int: 550, noguest: 450 });
  });

  it('GIVEN no-guest files only WHEN split THEN a tie goes to the no-guest lane first', () => {
    const lanes: LanesFile = { files: { a: { seconds: 10, boots: 0 }, b: { seconds: 10, boots: 0 }, c: { seconds: 10, boots: 0 } } };
    expect(splitLanes(['a', 'b', 'c'], lanes).lane).toEqual({ a: 'noguest', b: 'heavy', c: 'int' });
  });

  it('GIVEN pinned files WHEN split THEN they stay in their lane and the others balance around them', () => {
    const lanes: LanesFile = {
      files: { a: { seconds: 100, boots: 1, lane: 'int' }, b: { seconds: 100, boots: 1, lane: 'int' }, c: { seconds: 150, boots: 1 } },
    };
    expect(splitLanes(['a', 'b', 'c'], lanes).lane).toEqual({ a: 'int', b: 'int', c: 'heavy' });
  });

  it('GIVEN a guest file pinned to the no-guest lane WHEN split THEN it throws naming the file', () => {
    const lanes: LanesFile = { files: { a: { seconds: 100, boots: 1, lane: 'noguest' } } };
    expect(() => splitLanes(['a'], lanes)).toThrow(/a is pinned to lane noguest but starts guests/);
  });

  it('GIVEN entries WHEN asked whether they start guests THEN only a measured file with no boot, restore or guests marker does not', () => {
    expect(startsGuests({ seconds: 10, boots: 0, restores: 0 })).toBe(false);
    expect(startsGuests({ seconds: 10, boots: 0 })).toBe(false);
    expect(startsGuests({ seconds: 10, boots: 1, restores: 0 })).toBe(true);
    expect(startsGuests({ seconds: 10, boots: 0, restores: 1 })).toBe(true);
    expect(startsGuests({ seconds: 10, boots: 0, restores: 0, guests: true })).toBe(true);
    expect(startsGuests({ seconds: null })).toBe(true); // not measured: unknown
    expect(startsGuests(undefined)).toBe(true); // a new file
  });

  it('GIVEN a file not in lanes.json WHEN split THEN it counts as the median of the measured files, in a guest lane', () => {
    const lanes: LanesFile = { files: { a: { seconds: 10, boots: 1 }, b: { seconds: 30, boots: 1 }, c: { seconds: 1000, boots: 0 } } };
    expect(defaultSeconds(lanes)).toBe(30);
    expect(splitLanes(['a', 'new'], lanes)).toEqual({ lane: { new: 'heavy', a: 'int' }, seconds: { heavy: 30, int: 10, noguest: 0 } });
    expect(defaultSeconds({ files: { a: { seconds: null } } })).toBe(60);
  });

  it('GIVEN the committed test/lanes.json WHEN every integration file is split THEN each file is in exactly one lane and no guest file in noguest', () => {
    const lanes = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'lanes.json'), 'utf8')) as LanesFile;
    const files = integrationFiles(ROOT, 'test');
    const { lane } = splitLanes(files, lanes);
    expect(Object.keys(lane).sort()).toEqual(files);
    expect(new Set(Object.values(lane))).toEqual(new Set(['heavy', 'int', 'noguest']));
    expect(files.filter((f) => lane[f] === 'noguest' && startsGuests(lanes.files[f]))).toEqual([]);
    // fleet's and wait-fault's guests run under daemons of their own.
    for (const f of ['test/e2e/fleet.int.test.ts', 'test/faults/wait-fault.int.test.ts']) expect(lane[f]).not.toBe('noguest');
  });
});

describe('splitLanes with the test image still being built', () => {
  const lanes: LanesFile = { files: { ...MIXED, img: { seconds: 50, boots: 0, restores: 0 } } };
  const files = ['g1', 'g2', 'n1', 'n2', 'n3', 'img'];

  it('GIVEN a head start of 200 s WHEN split THEN lane noguest takes the no-guest files until it would end later than a guest lane', () => {
    const { lane, seconds } = splitLanes(files, lanes, { headStart: 200 });
    // heavy and int begin at 200: g1→heavy (600), g2→int (500); n1→noguest (350), n2→noguest (350 was least: 600),
    // n3→int (500 was least: 600), img→noguest on a tie (650)
    expect(lane).toEqual({ g1: 'heavy', g2: 'int', n1: 'noguest', n2: 'noguest', n3: 'int', img: 'noguest' });
    expect(seconds).toEqual({ heavy: 600, int: 600, noguest: 650 });
  });

  it('GIVEN no head start (the image cached) WHEN split THEN the split is the one without the option', () => {
    expect(splitLanes(files, lanes, { headStart: 0 })).toEqual(splitLanes(files, lanes));
  });

  it('GIVEN a file that reads the image while it is being built WHEN split THEN it waits in a guest lane though it starts no guest', () => {
    const { lane } = splitLanes(files, lanes, { headStart: 200, needsImage: (f) => f === 'img' });
    expect(lane.img).not.toBe('noguest');
    expect(['heavy', 'int']).toContain(lane.img);
  });

  it('GIVEN an image reader pinned to lane noguest while the image is being built WHEN split THEN it goes to a guest lane', () => {
    const pinned: LanesFile = { files: { ...lanes.files, img: { seconds: 50, boots: 0, lane: 'noguest' } } };
    expect(splitLanes(['img'], pinned, { headStart: 100, needsImage: () => true }).lane).toEqual({ img: 'heavy' });
    expect(splitLanes(['img'], pinned, { headStart: 100 }).lane).toEqual({ img: 'noguest' });
  });

  it('GIVEN the build time recorded and how long the image has been building WHEN the head start is estimated THEN it is what remains, at least 0', () => {
    const recorded: LanesFile = { image: { seconds: 340 }, files: {} };
    expect(imageHeadStart(recorded, 150)).toBe(190);
    expect(imageHeadStart(recorded, 400)).toBe(0); // slower than recorded: no estimate left
    expect(imageHeadStart(recorded, undefined)).toBe(0); // ready
    expect(imageHeadStart({ files: {} }, 40)).toBe(DEFAULT_IMAGE_SECONDS - 40);
  });

  it('GIVEN test sources WHEN asked whether they read the test image THEN a testImage() call or $VIRTSEED_TEST_IMAGE_DIR says so', () => {
    expect(usesTestImage("import { testImage } from '../helpers/guest';\nconst img = testImage();")).toBe(true);
    expect(usesTestImage('const dir = process.env.VIRTSEED_TEST_IMAGE_DIR;')).toBe(true);
    expect(usesTestImage("import { cleanupByPrefix } from '../helpers/guest';")).toBe(false);
  });

  it('GIVEN the committed test/lanes.json and its files that read the image WHEN split with a head start THEN none of them nor any guest file is in noguest', () => {
    const committed = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'lanes.json'), 'utf8')) as LanesFile;
    const all = integrationFiles(ROOT, 'test');
    const readers = new Set(all.filter((f) => usesTestImage(fs.readFileSync(path.join(ROOT, f), 'utf8'))));
    expect(readers).toContain('test/e2e/upload-integrity.int.test.ts'); // starts no guest, reads the image
    const { lane, seconds } = splitLanes(all, committed, { headStart: imageHeadStart(committed, 150), needsImage: (f) => readers.has(f) });
    expect(all.filter((f) => lane[f] === 'noguest' && (readers.has(f) || startsGuests(committed.files[f])))).toEqual([]);
    // the head start goes to lane noguest: it ends no sooner than with the same files and no head start
    const without = splitLanes(all, committed, { headStart: 0, needsImage: (f) => readers.has(f) }).seconds;
    expect(seconds.noguest).toBeGreaterThanOrEqual(without.noguest);
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

  it('GIVEN a file marked guests: true and a file of the no-guest lane WHEN lanes.json is updated THEN the marker stays and both get their figures', () => {
    const marked: LanesFile = { files: { a: { seconds: 100, boots: 0, guests: true }, b: { seconds: 50, boots: 0 } } };
    const t: Timings = { files: [timing('a', 90, 0, 'heavy'), timing('b', 45, 0, 'noguest')], lanes: [], unattributed: [] };
    expect(updateLanes(marked, t, ['a', 'b']).files).toEqual({
      a: { seconds: 90, boots: 0, restores: 0, guests: true },
      b: { seconds: 45, boots: 0, restores: 0 },
    });
  });

  it('GIVEN a run that built the image WHEN lanes.json is updated THEN image.seconds is its build time; a cached image keeps the old one', () => {
    const old: LanesFile = { image: { seconds: 340 }, files: {} };
    const built = { built: true, seconds: 402.5, startMs: 0, endMs: 402_500 };
    const t: Timings = { files: [], lanes: [], unattributed: [], image: built };
    expect(updateLanes(old, t, []).image).toEqual({ seconds: 402.5 });
    expect(updateLanes(old, { ...t, image: { ...built, built: false, seconds: 1 } }, []).image).toEqual({ seconds: 340 });
    expect(updateLanes({ files: {} }, { ...t, image: undefined }, [])).toEqual({ files: {} });
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
