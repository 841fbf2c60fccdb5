/**
 * The two integration lanes of the test command (issue #33), balanced from measured timings. test/lanes.json holds,
 * per integration test file, its measured wall time (`seconds`), its guest `boots` and `restores` (from
 * test-results/timings.json, scripts/test-timings.ts) and optionally a `lane` it is pinned to. scripts/test-all.sh
 * asks `split` which file runs in which lane: pinned files go to their lane, then the others, longest first, each
 * to the lane with the smaller total so far (greedy longest-processing-time); a file without a measured time counts
 * as the median of the measured ones (60 s when none is). Guest-booting files may land in either lane: there are
 * only two lanes, so at most two jest processes boot guests side by side.
 *
 * `npx tsx scripts/test-lanes.ts split [FILE...]` prints `<lane> <file>` lines (every integration file, or the
 * FILEs given); `npm run test:lanes` (`update [timings.json]`) rewrites test/lanes.json from a run's timings: the
 * measured files get their new figures; when the run measured every integration file, the pins are dropped too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { integrationFiles, Timings } from './test-timings';

/** The two integration lanes, in the order a tie is broken. */
export const LANES = ['heavy', 'int'] as const;
export type Lane = (typeof LANES)[number];

/** One file's entry in test/lanes.json. `seconds`: wall time measured (null until measured). */
export interface LaneEntry {
  readonly seconds: number | null;
  readonly boots?: number | null;
  readonly restores?: number | null;
  readonly lane?: Lane;
}

/** test/lanes.json. `files` keyed by the path relative to the checkout. */
export interface LanesFile {
  readonly comment?: string;
  readonly files: Readonly<Record<string, LaneEntry>>;
}

/** Seconds assumed for a file without a measured time: the median of the measured ones, 60 when none is. */
export function defaultSeconds(lanes: LanesFile): number {
  const known = Object.values(lanes.files)
    .map((e) => e.seconds)
    .filter((s): s is number => typeof s === 'number')
    .sort((a, b) => a - b);
  return known.length ? known[Math.floor(known.length / 2)] : 60;
}

/** Which lane each of `files` runs in, and each lane's estimated seconds (rules in the module comment). */
export function splitLanes(files: readonly string[], lanes: LanesFile): { lane: Record<string, Lane>; seconds: Record<Lane, number> } {
  const fallback = defaultSeconds(lanes);
  const est = (f: string) => lanes.files[f]?.seconds ?? fallback;
  const lane: Record<string, Lane> = {};
  const seconds: Record<Lane, number> = { heavy: 0, int: 0 };
  const pinned = files.filter((f) => lanes.files[f]?.lane);
  const free = files.filter((f) => !lanes.files[f]?.lane);
  for (const f of pinned) {
    const l = lanes.files[f].lane as Lane;
    lane[f] = l;
    seconds[l] += est(f);
  }
  for (const f of [...free].sort((a, b) => est(b) - est(a) || a.localeCompare(b))) {
    const l = LANES.reduce((best, x) => (seconds[x] < seconds[best] ? x : best), LANES[0]);
    lane[f] = l;
    seconds[l] += est(f);
  }
  return { lane, seconds };
}

/**
 * test/lanes.json after a run: the files of the integration lanes in `timings` get their seconds, boots and
 * restores; `allFiles`: every integration file of the checkout — when the run measured all of them, the pins are
 * dropped (the split comes from data from then on) and files no longer present are removed.
 */
export function updateLanes(lanes: LanesFile, timings: Timings, allFiles: readonly string[]): LanesFile {
  // A file that did not run (0 s: it failed to load) is not a measurement.
  const measured = new Map(timings.files.filter((f) => (f.lane === 'int' || f.lane === 'heavy') && f.seconds > 0).map((f) => [f.file, f]));
  const complete = allFiles.every((f) => measured.has(f));
  const files: Record<string, LaneEntry> = {};
  const keys = complete ? [...allFiles] : [...new Set([...Object.keys(lanes.files), ...measured.keys()])];
  for (const f of keys.sort()) {
    const m = measured.get(f);
    const old = lanes.files[f];
    const entry: LaneEntry = m ? { seconds: m.seconds, boots: m.boots, restores: m.restores } : { ...old };
    files[f] = !complete && old?.lane ? { ...entry, lane: old.lane } : entry;
  }
  return { ...(lanes.comment ? { comment: lanes.comment } : {}), files };
}

const LANES_JSON = path.join('test', 'lanes.json');

function readLanes(root: string): LanesFile {
  return JSON.parse(fs.readFileSync(path.join(root, LANES_JSON), 'utf8')) as LanesFile;
}

/** The CLI (run from the checkout): `split [FILE...]` or `update [timings.json]`. */
export function main(args: readonly string[], root: string): void {
  const [command, ...rest] = args;
  const all = integrationFiles(root, 'test');
  if (command === 'split') {
    const lanes = readLanes(root);
    const files = rest.length ? rest.map((f) => path.relative(root, path.resolve(root, f)).split(path.sep).join('/')) : all;
    const { lane, seconds } = splitLanes(files, lanes);
    for (const f of files) process.stdout.write(`${lane[f]} ${f}\n`);
    process.stderr.write(`test-lanes: estimated heavy ${Math.round(seconds.heavy)} s, int ${Math.round(seconds.int)} s (${LANES_JSON})\n`);
  } else if (command === 'update') {
    const timings = JSON.parse(fs.readFileSync(path.resolve(root, rest[0] ?? 'test-results/timings.json'), 'utf8')) as Timings;
    const updated = updateLanes(readLanes(root), timings, all);
    fs.writeFileSync(path.join(root, LANES_JSON), JSON.stringify(updated, null, 2) + '\n');
    const { seconds } = splitLanes(all, updated);
    process.stdout.write(
      `test-lanes: ${LANES_JSON} rewritten; estimated heavy ${Math.round(seconds.heavy)} s, int ${Math.round(seconds.int)} s\n`,
    );
  } else {
    throw new Error(`test-lanes: expected "split [FILE...]" or "update [timings.json]", got ${JSON.stringify(command)}`);
  }
}

if (require.main === module) main(process.argv.slice(2), process.cwd());
