import { replayRun, STARTUP_SECONDS } from '../../scripts/test-replay';
import { LanesFile } from '../../scripts/test-lanes';

describe('replayRun', () => {
  // Four guest files estimated alike and a no-guest file; g1 ran 300 s longer than estimated.
  const lanes: LanesFile = {
    files: {
      g1: { seconds: 200, boots: 1 },
      g2: { seconds: 200, boots: 1 },
      g3: { seconds: 200, boots: 1 },
      g4: { seconds: 200, boots: 1 },
      n1: { seconds: 100, boots: 0, restores: 0 },
    },
  };
  const measured = new Map([
    ['g1', 500],
    ['g2', 200],
    ['g3', 200],
    ['g4', 200],
    ['n1', 100],
  ]);

  it('GIVEN a file slower than estimated WHEN replayed THEN the split keeps its lane-mate after it and the queue moves it to a free guest slot', () => {
    const r = replayRun(lanes, measured, () => false, 0);
    // split: heavy g1, g3 (700 s); int g2, g4; noguest n1
    expect(r.staticSplit).toBe(Math.round(700 + STARTUP_SECONDS));
    // queue: g1 alone (501 s); g2, g3, g4 in the other guest slot
    expect(r.queue[60].makespan).toBe(Math.round(600 + 3 * STARTUP_SECONDS));
    expect(r.lowerBound).toBe(550); // the guest files over two slots
    expect(r).toMatchObject({ files: 5, sumSeconds: 1200, guestSeconds: 1100 });
  });

  it('GIVEN the image ready at 200 s WHEN replayed THEN both policies start the guest files then', () => {
    const r = replayRun(lanes, measured, () => false, 200);
    expect(r.staticSplit).toBeGreaterThanOrEqual(900);
    expect(r.queue[60].makespan).toBeGreaterThanOrEqual(800);
    expect(r.lowerBound).toBe(750);
  });
});
