import { DEFAULT_QUEUE, nextBatch, QueuedFile, QueueState, simulate } from '../../scripts/test-queue';

const g = (file: string, seconds: number): QueuedFile => ({ file, seconds, guest: true, readsImage: false });
const n = (file: string, seconds: number): QueuedFile => ({ file, seconds, guest: false, readsImage: false });
const img = (file: string, seconds: number): QueuedFile => ({ file, seconds, guest: false, readsImage: true });

const names = (fs: readonly QueuedFile[]) => fs.map((f) => f.file);
const ready = { ready: true } as const;
const state = (pending: QueuedFile[], over: Partial<QueueState> = {}): QueueState => ({
  pending,
  running: [],
  now: 0,
  image: ready,
  ...over,
});

/** Enough pending work that the batch limit is batchSeconds (60), not a slot's share. */
const FILLER = [n('big1', 300), n('big2', 300)];

describe('nextBatch with the image ready', () => {
  it('GIVEN guest and no-guest files WHEN a slot is free THEN it takes the longest guest file, even when a no-guest file is longer', () => {
    expect(names(nextBatch(state([n('n', 500), g('g1', 100), g('g2', 300)])))).toEqual(['g2']);
  });

  it('GIVEN two guest batches running WHEN the third slot is free THEN it takes the longest no-guest file', () => {
    const running = [
      { guest: true, endsAt: 100 },
      { guest: true, endsAt: 200 },
    ];
    expect(names(nextBatch(state([g('g', 400), n('a', 50), n('b', 200), img('i', 100)], { running })))).toEqual(['b']);
  });

  it('GIVEN one guest batch and one no-guest batch running WHEN a slot is free THEN it may take a guest file', () => {
    const running = [
      { guest: true, endsAt: 100 },
      { guest: false, endsAt: 200 },
    ];
    expect(names(nextBatch(state([g('g', 40), n('b', 200)], { running })))).toEqual(['g']);
  });

  it('GIVEN short files WHEN batched THEN the longest takes the next of its kind that keep the batch within 60 s; a long file runs alone', () => {
    expect(names(nextBatch(state([...FILLER, n('a', 40)])))).toEqual(['big1']);
    // two guest batches running: the guest files wait; a: 40, b would make 70 (over): skipped, c: 55, d: 60
    const running = [
      { guest: true, endsAt: 100 },
      { guest: true, endsAt: 100 },
    ];
    const pending = [g('g1', 300), g('g2', 300), n('a', 40), n('b', 30), n('c', 15), n('d', 5), n('e', 1)];
    expect(names(nextBatch(state(pending, { running })))).toEqual(['a', 'c', 'd']);
  });

  it('GIVEN guest files WHEN batched THEN no no-guest file joins them', () => {
    expect(names(nextBatch(state([...FILLER, g('g1', 20), g('g2', 20), n('n1', 10)])))).toEqual(['g1', 'g2']);
  });

  it('GIVEN little pending WHEN batched THEN the limit is a slot share of it, so the last batches are small', () => {
    // 90 s pending over 3 slots: at most 30 s a batch
    expect(names(nextBatch(state([n('a', 20), n('b', 20), n('c', 20), n('d', 10), n('e', 10), n('f', 10)])))).toEqual(['a', 'd']);
  });

  it('GIVEN equal estimates WHEN ordered THEN by path, so a run is reproducible', () => {
    expect(names(nextBatch(state([n('b', 100), n('a', 100), n('c', 100)])))).toEqual(['a']);
  });

  it('GIVEN nothing pending WHEN a slot is free THEN it gets an empty batch', () => {
    expect(nextBatch(state([]))).toEqual([]);
  });
});

describe('nextBatch while the image is being built', () => {
  const building = (estimatedAt: number) => ({ ready: false, estimatedAt }) as const;

  it('GIVEN guest files and image readers WHEN nothing else is pending THEN the slot waits (empty batch)', () => {
    expect(nextBatch(state([g('g', 100), img('i', 50)], { image: building(100) }))).toEqual([]);
  });

  it('GIVEN no file past the estimate yet WHEN a slot is free THEN it takes the longest file that needs no image, though it ends later', () => {
    expect(names(nextBatch(state([g('g', 100), img('i', 500), n('long', 300), n('short', 50)], { image: building(100) })))).toEqual([
      'long',
    ]);
  });

  it('GIVEN one slot already busy past the estimate WHEN another is free THEN it takes the longest that ends by the estimate', () => {
    const running = [{ guest: false, endsAt: 300 }];
    const pending = [g('g1', 100), g('g2', 100), n('long', 300), n('mid', 90), n('fits', 50), n('small', 5)];
    // now 20, ready estimated at 100: 80 s budget; mid (90) does not fit, fits (50) does, small (5) joins it (55)
    expect(names(nextBatch(state(pending, { running, now: 20, image: building(100) })))).toEqual(['fits', 'small']);
  });

  it('GIVEN no file fits before the estimate WHEN a slot that the guests will need is free THEN it takes the shortest', () => {
    const running = [{ guest: false, endsAt: 300 }];
    // two guest files pending: two slots are kept for them
    const pending = [g('g1', 100), g('g2', 100), n('a', 300), n('b', 90)];
    expect(names(nextBatch(state(pending, { running, now: 50, image: building(100) })))).toEqual(['b']);
  });

  it('GIVEN a single file waiting for the image WHEN two slots are busy past the estimate THEN the third still keeps free for it', () => {
    const running = [
      { guest: false, endsAt: 300 },
      { guest: false, endsAt: 300 },
    ];
    expect(names(nextBatch(state([g('g1', 100), n('a', 300), n('b', 30)], { running, now: 0, image: building(100) })))).toEqual(['b']);
    // one slot busy past it: the other two may run anything (one file needs one slot)
    expect(
      names(nextBatch(state([g('g1', 100), n('a', 300), n('b', 30)], { running: running.slice(1), now: 0, image: building(100) }))),
    ).toEqual(['a']);
  });
});

describe('simulate', () => {
  const files = [
    g('g1', 300),
    g('g2', 250),
    g('g3', 200),
    g('g4', 20),
    n('n1', 280),
    n('n2', 100),
    n('n3', 30),
    n('n4', 20),
    img('i1', 40),
  ];
  const secs = new Map(files.map((f) => [f.file, f.seconds]));
  const actual = (f: string) => secs.get(f) as number;
  const opts = { ...DEFAULT_QUEUE, imageReadyAt: 0, imageEstimatedAt: 0, startupSeconds: 0 };

  /** The most guest batches running at one moment. */
  function maxGuestsAtOnce(batches: { guest: boolean; start: number; end: number }[]): number {
    const guests = batches.filter((b) => b.guest);
    return Math.max(0, ...guests.map((b) => guests.filter((o) => o.start <= b.start && b.start < o.end).length));
  }

  it('GIVEN files and exact estimates WHEN simulated THEN each file runs once, at most two guest batches at once, and the slots end close', () => {
    const { batches, makespan } = simulate(files, actual, opts);
    expect(batches.flatMap((b) => b.files).sort()).toEqual(names(files).sort());
    expect(maxGuestsAtOnce(batches)).toBeLessThanOrEqual(2);
    // 1240 s of files: 413 s a slot at best; guests 770 s over two: 385 s
    expect(makespan).toBeGreaterThanOrEqual(1240 / 3);
    expect(makespan).toBeLessThanOrEqual(1240 / 3 + 40);
  });

  it('GIVEN the image ready at 150 s WHEN simulated THEN no file that needs it starts before, and the others run meanwhile', () => {
    const { batches } = simulate(files, actual, { ...opts, imageReadyAt: 150, imageEstimatedAt: 150 });
    const needs = new Set(files.filter((f) => f.guest || f.readsImage).map((f) => f.file));
    for (const b of batches) if (b.files.some((f) => needs.has(f))) expect(b.start).toBeGreaterThanOrEqual(150);
    expect(batches.filter((b) => b.start < 150).length).toBeGreaterThan(0);
    expect(maxGuestsAtOnce(batches)).toBeLessThanOrEqual(2);
  });

  it('GIVEN a start-up cost WHEN simulated THEN each batch takes it once', () => {
    const { batches } = simulate([n('a', 10), n('b', 10)], (f) => (f === 'a' ? 10 : 10), { ...opts, startupSeconds: 2 });
    // 20 s pending over 3 slots: a limit of 6.7 s, so one file a batch
    expect(batches.map((b) => b.end - b.start)).toEqual([12, 12]);
  });

  it('GIVEN a file much longer than estimated WHEN simulated THEN the others move to the free slots (the makespan is its own)', () => {
    const est = [g('a', 100), g('b', 100), g('c', 100), g('d', 100)];
    const { makespan } = simulate(est, (f) => (f === 'a' ? 400 : 100), opts);
    expect(makespan).toBe(400); // a then c in one guest lane, b then d in the other: the split's 500
  });

  it('GIVEN no files WHEN simulated THEN nothing runs', () => {
    expect(simulate([], actual, opts)).toEqual({ batches: [], makespan: 0 });
  });
});
