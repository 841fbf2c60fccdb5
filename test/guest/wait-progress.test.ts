import { TOTAL_PER_SILENCE, waitBounds, waitVerdict } from '../../src/guest';

describe('waitVerdict', () => {
  const bounds = waitBounds(600);

  test('GIVEN wait_timeout 600 WHEN the bounds are derived THEN 600 s of silence and 6 × 600 s in all', () => {
    expect(bounds).toEqual({ silenceS: 600, totalS: 600 * TOTAL_PER_SILENCE });
    expect(TOTAL_PER_SILENCE).toBe(6);
  });

  test('GIVEN a guest printing every minute WHEN 13 minutes passed (a TCG boot under load) THEN the wait goes on', () => {
    const now = 13 * 60_000;
    expect(waitVerdict(bounds, 0, now - 60_000, now)).toEqual({ kind: 'wait', checkAtMs: now - 60_000 + 600_000 });
  });

  test('GIVEN a guest silent since its start WHEN wait_timeout passed THEN it is silent', () => {
    expect(waitVerdict(bounds, 1000, 1000, 601_000)).toEqual({ kind: 'silent', silentMs: 600_000 });
    expect(waitVerdict(bounds, 1000, 1000, 600_999)).toEqual({ kind: 'wait', checkAtMs: 601_000 });
  });

  test('GIVEN a guest that printed, then nothing for wait_timeout WHEN checked THEN it is silent for that long', () => {
    expect(waitVerdict(bounds, 0, 300_000, 900_000)).toEqual({ kind: 'silent', silentMs: 600_000 });
  });

  test('GIVEN a guest that never stops printing WHEN the total bound passed THEN it took too long, even with output a moment ago', () => {
    expect(waitVerdict(bounds, 0, 3_599_000, 3_600_000)).toEqual({ kind: 'too-long', elapsedMs: 3_600_000 });
  });

  test('GIVEN output near the end of the total bound WHEN checked THEN the next look is at the total bound, not a full silence later', () => {
    expect(waitVerdict(bounds, 0, 3_500_000, 3_550_000)).toEqual({ kind: 'wait', checkAtMs: 3_600_000 });
  });

  test('GIVEN a last-output time before the start (an earlier boot) WHEN checked THEN the silence counts from the start', () => {
    expect(waitVerdict(waitBounds(10), 50_000, 0, 55_000)).toEqual({ kind: 'wait', checkAtMs: 60_000 });
  });
});
