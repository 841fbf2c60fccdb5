/**
 * A small sample of the ISO writer fuzz run (scripts/fuzz/iso.ts; the full run is `npx tsx scripts/fuzz/iso.ts
 * --count 10000`): random trees read back identically by isoinfo and xorriso through Rock Ridge and Joliet, and
 * trees that break a limit refused with a ValidationError.
 */
import { fuzz, prng, randomTree } from '../../../scripts/fuzz/iso';

jest.setTimeout(300_000);

describe('ISO writer fuzz sample', () => {
  it('GIVEN 40 random trees (seed 7) WHEN written and read back by isoinfo and xorriso THEN every tree agrees', () => {
    const { tried, failures } = fuzz(7, 40);
    expect(tried).toBe(40);
    expect(failures).toEqual([]);
  });

  it('GIVEN the fuzz generator WHEN asked for many trees THEN it covers Unicode, depth limits, empty files and invalid trees', () => {
    let unicode = 0;
    let deep = 0;
    let empty = 0;
    let invalid = 0;
    for (let i = 0; i < 400; i++) {
      const t = randomTree(prng(7 * 1_000_003 + i));
      if (t.invalid) invalid++;
      if (t.files.some((f) => /[^\x00-\x7f]/.test(f.path))) unicode++;
      if (t.files.some((f) => f.path.split('/').length >= 5)) deep++;
      if (t.files.some((f) => f.content.length === 0)) empty++;
    }
    expect(Math.min(unicode, deep, empty, invalid)).toBeGreaterThan(10);
  });
});
