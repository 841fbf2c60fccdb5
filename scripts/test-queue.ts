/**
 * The integration tests' queue (issue #33): which files a free slot runs next. scripts/test-run.ts runs the files in
 * `SLOTS` slots side by side and asks {@link nextBatch} whenever a slot is free (a batch ended, or the test image
 * became ready); scripts/test-replay.ts replays past runs through {@link simulate}. Pure: no clock or process of its
 * own (the caller passes its clock, in seconds from the first slot's start).
 *
 * The policy:
 * - At most `guestSlots` (2) batches that start guests run at any moment: TCG guests take a core each on a 2-core
 *   machine. A file starts guests when test/lanes.json says so (scripts/test-lanes.ts startsGuests: boots or
 *   restores measured, `guests: true`, or not measured yet); it also needs the test image. A file that starts none
 *   but reads the image (usesTestImage) needs the image too; the others may run at any time.
 * - A free slot takes the longest file it may run (estimates from test/lanes.json), a guest file before any other:
 *   guest files are the run's critical path (two at a time), the others fill the third slot and the gaps.
 * - Short files share a jest process (a start costs about 1.2 CPU s): a file estimated under the batch limit takes
 *   with it, longest first, the next files of its kind (guest or not) that keep the batch's estimate within it. A
 *   longer file runs alone. The limit is `batchSeconds`, or a slot's share of what is pending when that is less
 *   (near the end, smaller batches, so that the slots end close together).
 * - While the test image is being built (a fresh machine), the files that need it wait. The slots that will take
 *   them when it is ready (as many as `guestSlots`, fewer when fewer such files are left) only take files estimated
 *   to end by the image's estimated readiness (the longest that fit; when none fits, the shortest); the others take
 *   any file. With the image ready from the start, this never applies.
 * - A slot that may run nothing now gets an empty batch: it waits for another batch to end or the image, or, when
 *   nothing is pending, it is done.
 */

/** One integration test file in the queue. `seconds`: its estimated wall time (test/lanes.json). */
export interface QueuedFile {
  readonly file: string;
  readonly seconds: number;
  /** Starts guests (and so needs the test image). */
  readonly guest: boolean;
  /** Reads the test image (needs it although it may start no guest). */
  readonly readsImage: boolean;
}

/** A batch running in another slot: whether it starts guests, and its estimated end (seconds on the caller's clock). */
export interface RunningBatch {
  readonly guest: boolean;
  readonly endsAt: number;
}

/**
 * The test image: ready, or not yet and estimated ready at `estimatedAt` (seconds on the caller's clock; may be in
 * the past when the build is late).
 */
export type ImageState = { readonly ready: true } | { readonly ready: false; readonly estimatedAt: number };

export interface QueueState {
  /** Files not started yet. */
  readonly pending: readonly QueuedFile[];
  /** The batches running in the other slots. */
  readonly running: readonly RunningBatch[];
  /** Seconds on the caller's clock. */
  readonly now: number;
  readonly image: ImageState;
}

export interface QueueOptions {
  /** Slots side by side (3). */
  readonly slots: number;
  /** At most this many batches that start guests at once (2). */
  readonly guestSlots: number;
  /** A file estimated under this many seconds shares its jest process with others up to this many in all (60). */
  readonly batchSeconds: number;
}

/**
 * The slots and batch size of scripts/test-run.ts. 60 s a batch: 43–52 jest processes for the 83 files of runs 7,
 * 9 and 10 instead of 83 (56 files take under 30 s, 629 s in all in run 10), with makespans replayed as short as
 * with 30 or 45 s batches (scripts/test-replay.ts compares the sizes; a batch shrinks near the end anyway).
 */
export const DEFAULT_QUEUE: QueueOptions = { slots: 3, guestSlots: 2, batchSeconds: 60 };

/** Longest first; equal estimates by path, so that a run's order is reproducible. */
function longestFirst(files: readonly QueuedFile[]): QueuedFile[] {
  return [...files].sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
}

/** Whether a file needs the test image: it starts guests, or reads the image. */
export const needsImage = (f: QueuedFile): boolean => f.guest || f.readsImage;

/**
 * The files a free slot runs next, in one jest process, in order (the policy in the module comment); empty when it
 * may run none now.
 */
export function nextBatch(state: QueueState, options: QueueOptions = DEFAULT_QUEUE): QueuedFile[] {
  const { pending, running, now, image } = state;
  const guestsRunning = running.filter((r) => r.guest).length;
  const mayRun = (f: QueuedFile) => !needsImage(f) || (image.ready && (!f.guest || guestsRunning < options.guestSlots));
  const eligible = longestFirst(pending.filter(mayRun));
  if (!eligible.length) return [];
  let pool: QueuedFile[];
  // Near the end, smaller batches: the slots then end closer together.
  let limit = Math.min(options.batchSeconds, pending.reduce((n, f) => n + f.seconds, 0) / options.slots);
  if (image.ready) {
    const guests = eligible.filter((f) => f.guest);
    pool = guests.length ? guests : eligible;
  } else {
    // The slots the image's files will need when it is ready stay free by then (see the module comment).
    const reserved = Math.min(options.guestSlots, pending.filter(needsImage).length);
    const past = running.filter((r) => r.endsAt > image.estimatedAt).length;
    if (reserved > 0 && past >= options.slots - reserved) {
      const budget = Math.max(0, image.estimatedAt - now);
      const fits = eligible.filter((f) => f.seconds <= budget);
      pool = fits.length ? fits : [eligible[eligible.length - 1]];
      limit = Math.min(limit, budget);
    } else pool = eligible;
  }
  const [first, ...rest] = pool;
  const batch = [first];
  let sum = first.seconds;
  if (sum < limit)
    for (const f of rest)
      if (f.guest === first.guest && sum + f.seconds <= limit) {
        batch.push(f);
        sum += f.seconds;
      }
  return batch;
}

/** One batch of a simulated run: its slot (0-based), files, and start and end (seconds from the first start). */
export interface SimulatedBatch {
  readonly slot: number;
  readonly files: readonly string[];
  readonly guest: boolean;
  readonly start: number;
  readonly end: number;
}

export interface SimulationOptions extends QueueOptions {
  /** When the image is ready (seconds from the first start; 0: ready from the start). */
  readonly imageReadyAt: number;
  /** When the queue estimates it ready (the head start scripts/test-lanes.ts imageHeadStart gives). */
  readonly imageEstimatedAt: number;
  /** Wall seconds a jest process adds to its files' (start-up). */
  readonly startupSeconds: number;
}

/**
 * Replays `files` through the queue: each batch takes its files' `actual(file)` seconds plus `startupSeconds`;
 * {@link nextBatch} sees only the files' estimates. Returns the batches and the makespan (the last batch's end, 0
 * for no files). Throws if the queue stalls with files left (a policy bug).
 */
export function simulate(
  files: readonly QueuedFile[],
  actual: (file: string) => number,
  options: SimulationOptions,
): { batches: SimulatedBatch[]; makespan: number } {
  let pending = [...files];
  const slots: ({ guest: boolean; estEnd: number; end: number } | undefined)[] = Array.from({ length: options.slots }, () => undefined);
  const batches: SimulatedBatch[] = [];
  let now = 0;
  for (;;) {
    const image: ImageState = now >= options.imageReadyAt ? { ready: true } : { ready: false, estimatedAt: options.imageEstimatedAt };
    for (let s = 0; s < slots.length; s++) {
      if (slots[s]) continue;
      const running = slots.flatMap((r) => (r ? [{ guest: r.guest, endsAt: r.estEnd }] : []));
      const batch = nextBatch({ pending, running, now, image }, options);
      if (!batch.length) continue;
      const taken = new Set(batch.map((f) => f.file));
      pending = pending.filter((f) => !taken.has(f.file));
      const guest = batch.some((f) => f.guest);
      const end = now + options.startupSeconds + batch.reduce((n, f) => n + actual(f.file), 0);
      slots[s] = { guest, estEnd: now + batch.reduce((n, f) => n + f.seconds, 0), end };
      batches.push({ slot: s, files: batch.map((f) => f.file), guest, start: now, end });
    }
    const ends = slots.flatMap((r) => (r ? [r.end] : []));
    if (!ends.length && !pending.length) break;
    const events = [...ends, ...(image.ready ? [] : [options.imageReadyAt])];
    if (!events.length) throw new Error(`test-queue: stalled with ${pending.length} files left at ${now} s`);
    now = Math.min(...events);
    for (let s = 0; s < slots.length; s++) if (slots[s] && (slots[s] as { end: number }).end <= now) slots[s] = undefined;
  }
  return { batches, makespan: batches.reduce((m, b) => Math.max(m, b.end), 0) };
}
