import { backupDue, formatAge } from '../../src/backup';

describe('formatAge', () => {
  it.each([
    [0, '0 s'],
    [-5_000, '0 s'],
    [45_400, '45 s'],
    [725_000, '12 min 5 s'],
    [3_600_000, '1 h'],
    [11_520_000, '3 h 12 min'],
    [187_200_000, '2 d 4 h'],
    [86_400_000 + 59_000, '1 d'],
  ])('GIVEN %d ms THEN %s', (ms, text) => {
    expect(formatAge(ms)).toBe(text);
  });

  it('GIVEN NaN THEN it throws naming the value', () => {
    expect(() => formatAge(NaN)).toThrow('age NaN');
  });
});

describe('backupDue', () => {
  const now = new Date('2026-11-29T12:00:00Z');
  it('GIVEN no backup THEN due', () => {
    expect(backupDue(null, 60, now)).toEqual({ due: true });
  });
  it('GIVEN a backup older than max_age THEN due, with its age', () => {
    expect(backupDue('2026-11-28T11:00:00Z', 86400, now)).toEqual({ due: true, ageMs: 90_000_000 });
  });
  it('GIVEN a backup within max_age THEN not due', () => {
    expect(backupDue('2026-11-29T11:59:00.000Z', 3600, now)).toEqual({ due: false, ageMs: 60_000 });
  });
  it('GIVEN a takenAt that is no date THEN it throws naming it', () => {
    expect(() => backupDue('yesterday', 60, now)).toThrow('takenAt "yesterday"');
  });
});
