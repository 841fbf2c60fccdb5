import { formatAge } from '../../src/backup';

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
