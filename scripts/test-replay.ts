/**
 * Replays past runs of the test command through the integration slots (issue #33), to compare the queue
 * (scripts/test-queue.ts) with the fixed three-lane split it replaced (scripts/test-lanes.ts splitLanes) on data
 * rather than by a timed test. For each run folder (a checkout that ran scripts/test-all.sh): its per-file wall
 * times (`test-results/timings.json`) are what each file takes; its committed `test/lanes.json` is what the run
 * knew beforehand (the estimates both policies plan with); its sources say which files read the test image.
 *
 * Printed per run, in seconds from the first slot's start to the last file's end (the makespan): the lanes' wall as
 * measured, the static split from the run's own estimates replayed with the measured times, the queue with each
 * batch size, and the lower bound (the longest file; all files over three slots; the guest files over two). A jest
 * process adds `STARTUP_SECONDS` (one per lane for the split, one per batch for the queue). Two cases: the image
 * cached (ready at 0) and a fresh machine (ready `FRESH_IMAGE_SECONDS` after the first start, estimated right).
 * The replay keeps each file's measured time whatever runs beside it: contention changes with the order, which it
 * cannot know.
 *
 * `npx tsx scripts/test-replay.ts [--startup SECONDS] RUN_DIR...` (e.g. /work/cirun10; `--startup`: a jest
 * process's start-up, STARTUP_SECONDS by default).
 *
 * Runs 7, 9 and 10 (main 6485abf, 77d8b27, f9e3381; image cached): the split 1430, 1529, 1465 s; the queue (60 s
 * batches) 1421, 1424, 1383 s; the lower bound 1397, 1400, 1363 s. With the image ready at 200 s: 1561, 1667, 1613
 * against 1433, 1509, 1515 s. A start-up of 3 s instead of 1.3: the queue 1451, 1451, 1410 s (the split 1432, 1531,
 * 1467 s): the gain is the variance absorbed, less the batches' start-ups.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LanesFile, queuedFiles, splitLanes, usesTestImage, GUEST_LANES, LANES } from './test-lanes';
import { DEFAULT_QUEUE, simulate } from './test-queue';
import { Timings } from './test-timings';

/** Wall seconds a jest process adds to its files (`jest --runInBand` of a 1.5 s file: 2.8 s wall). */
export const STARTUP_SECONDS = 1.3;
/** When the image is ready in the fresh-machine case (seconds after the first slot's start). */
export const FRESH_IMAGE_SECONDS = 200;
/** The batch sizes compared (0: one jest process per file). */
export const BATCH_SIZES = [0, 30, 45, 60, 90] as const;

/** One run's figures (seconds; see the module comment). */
export interface ReplayFigures {
  readonly files: number;
  readonly sumSeconds: number;
  readonly guestSeconds: number;
  readonly lowerBound: number;
  readonly staticSplit: number;
  /** By batch size. */
  readonly queue: Readonly<Record<number, { readonly makespan: number; readonly processes: number }>>;
}

/**
 * The figures of one run: `lanes` its test/lanes.json, `measured` each integration file's wall seconds in it,
 * `readsImage` whether a file reads the test image, `imageReadyAt` 0 (cached) or the image's readiness (seconds).
 */
export function replayRun(
  lanes: LanesFile,
  measured: ReadonlyMap<string, number>,
  readsImage: (file: string) => boolean,
  imageReadyAt: number,
  startup = STARTUP_SECONDS,
): ReplayFigures {
  const files = [...measured.keys()].sort();
  const actual = (f: string) => measured.get(f) ?? 0;
  const queued = queuedFiles(files, lanes, readsImage);
  const { lane } = splitLanes(files, lanes, { headStart: imageReadyAt, needsImage: imageReadyAt > 0 ? readsImage : undefined });
  const laneEnd = (l: (typeof LANES)[number]) => {
    const mine = files.filter((f) => lane[f] === l);
    if (!mine.length) return 0;
    return (GUEST_LANES.includes(l) ? imageReadyAt : 0) + startup + mine.reduce((n, f) => n + actual(f), 0);
  };
  const sum = files.reduce((n, f) => n + actual(f), 0);
  const guestSeconds = queued.filter((f) => f.guest).reduce((n, f) => n + actual(f.file), 0);
  const queue: Record<number, { makespan: number; processes: number }> = {};
  for (const batchSeconds of BATCH_SIZES) {
    const r = simulate(queued, actual, {
      ...DEFAULT_QUEUE,
      batchSeconds,
      imageReadyAt,
      imageEstimatedAt: imageReadyAt,
      startupSeconds: startup,
    });
    queue[batchSeconds] = { makespan: round(r.makespan), processes: r.batches.length };
  }
  return {
    files: files.length,
    sumSeconds: round(sum),
    guestSeconds: round(guestSeconds),
    lowerBound: round(Math.max(sum / DEFAULT_QUEUE.slots, imageReadyAt + guestSeconds / DEFAULT_QUEUE.guestSlots, ...files.map(actual))),
    staticSplit: round(Math.max(...LANES.map(laneEnd))),
    queue,
  };
}

const round = (x: number) => Math.round(x);

/**
 * The run's estimates: test/lanes.json as committed at the checkout's HEAD (a checkout may have rewritten it from its
 * own run since, `npm run test:lanes`); the file as it is when the folder is not a git checkout.
 */
function committedLanes(dir: string): LanesFile {
  let text: string;
  try {
    text = execFileSync('git', ['-C', dir, 'show', 'HEAD:test/lanes.json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    text = fs.readFileSync(path.join(dir, 'test', 'lanes.json'), 'utf8');
  }
  return JSON.parse(text) as LanesFile;
}

/** The table for the run folders `dirs`; `startup`: a jest process's start-up in seconds. */
export function main(dirs: readonly string[], startup = STARTUP_SECONDS): string {
  const out: string[] = [];
  const head = `| run | image | files | lanes measured (s) | static split (s) | ${BATCH_SIZES.map((b) => `queue, ${b ? `${b} s batches` : 'a process per file'} (s, processes)`).join(' | ')} | lower bound (s) |`;
  out.push(head, `|---|---|--:|--:|--:|${BATCH_SIZES.map(() => '--:|').join('')}--:|`);
  for (const dir of dirs) {
    const lanes = committedLanes(dir);
    const timings = JSON.parse(fs.readFileSync(path.join(dir, 'test-results', 'timings.json'), 'utf8')) as Timings;
    const measured = new Map(timings.files.filter((f) => f.lane !== 'unit').map((f) => [f.file, f.seconds]));
    const readers = new Set(
      [...measured.keys()].filter((f) => {
        try {
          return usesTestImage(fs.readFileSync(path.join(dir, f), 'utf8'));
        } catch {
          return false;
        }
      }),
    );
    const lanesWall = Math.max(0, ...timings.lanes.filter((l) => l.lane !== 'unit').map((l) => l.wallSeconds));
    for (const imageReadyAt of [0, FRESH_IMAGE_SECONDS]) {
      const r = replayRun(lanes, measured, (f) => readers.has(f), imageReadyAt, startup);
      const cells = BATCH_SIZES.map((b) => `${r.queue[b].makespan} (${r.queue[b].processes})`);
      out.push(
        `| ${path.basename(dir)} | ${imageReadyAt ? `ready at ${imageReadyAt} s` : 'cached'} | ${r.files} | ${imageReadyAt ? '' : Math.round(lanesWall)} | ${r.staticSplit} | ${cells.join(' | ')} | ${r.lowerBound} |`,
      );
    }
  }
  return out.join('\n') + '\n';
}

if (require.main === module) {
  const args = process.argv.slice(2);
  let startup = STARTUP_SECONDS;
  if (args[0] === '--startup') {
    startup = Number(args[1]);
    if (!Number.isFinite(startup) || startup < 0) throw new Error(`test-replay: --startup expects seconds, got ${JSON.stringify(args[1])}`);
    args.splice(0, 2);
  }
  process.stdout.write(main(args, startup));
}
