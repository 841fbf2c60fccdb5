/**
 * The three integration lanes of the test command (issue #33), balanced from measured timings. test/lanes.json holds,
 * per integration test file, its measured wall time (`seconds`), its guest `boots` and `restores` (from
 * test-results/timings.json, scripts/test-timings.ts), `guests: true` when the file starts guests under a libvirtd
 * of its own (test/helpers/hosts.ts, test/faults/own-libvirtd.ts: the timing table does not see those), and
 * optionally a `lane` it is pinned to. scripts/test-all.sh asks `split` which file runs in which lane.
 *
 * Lanes: `heavy` and `int` may start guests; `noguest` runs only files that start none. At most two jest processes
 * boot guests side by side on a 2-core machine (TCG guests take a core each), so a file that starts a guest — boots
 * or restores measured, `guests: true`, or not measured at all (unknown: assumed to) — goes to `heavy` or `int`;
 * a file that starts none may go to any of the three. The split: pinned files go to their lane; then the guest
 * files, longest first, each to the guest lane with the smaller total so far; then the other files, longest
 * first, each to the lane with the smallest total of all three (greedy longest-processing-time; a tie goes to
 * `noguest`, then `heavy`). A file without a measured time counts as the median of the measured ones (60 s when
 * none is). The run's wall time is then about the largest lane's total.
 *
 * `npx tsx scripts/test-lanes.ts split [FILE...]` prints `<lane> <file>` lines (every integration file, or the
 * FILEs given); `npm run test:lanes` (`update [timings.json]`) rewrites test/lanes.json from a run's timings: the
 * measured files get their new figures; when the run measured every integration file, the pins are dropped too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { integrationFiles, INTEGRATION_LANES, Timings } from './test-timings';

/** The integration lanes, in the order a tie between guest lanes is broken. */
export const LANES = ['heavy', 'int', 'noguest'] as const;
export type Lane = (typeof LANES)[number];
/** The lanes whose files may start guests (two: at most two jest processes boot guests side by side). */
export const GUEST_LANES: readonly Lane[] = ['heavy', 'int'];
/** Where a file that starts no guest goes on a tie: the no-guest lane first. */
const ANY_LANE: readonly Lane[] = ['noguest', 'heavy', 'int'];

/**
 * One file's entry in test/lanes.json. `seconds`: wall time measured (null until measured); `boots`, `restores`:
 * QEMU starts the timing table counted; `guests`: the file starts guests the table cannot count (under a libvirtd
 * of its own).
 */
export interface LaneEntry {
  readonly seconds: number | null;
  readonly boots?: number | null;
  readonly restores?: number | null;
  readonly guests?: boolean;
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

/**
 * Whether a file's entry says it may start a guest: `guests: true`, a boot or restore counted, or no measurement
 * (no entry, or neither boots nor restores known).
 */
export function startsGuests(entry: LaneEntry | undefined): boolean {
  if (!entry) return true;
  if (entry.guests) return true;
  if (typeof entry.boots !== 'number' && typeof entry.restores !== 'number') return true;
  return (entry.boots ?? 0) > 0 || (entry.restores ?? 0) > 0;
}

/**
 * Which lane each of `files` runs in, and each lane's estimated seconds (rules in the module comment). Throws when
 * a file that starts guests is pinned to the no-guest lane.
 */
export function splitLanes(files: readonly string[], lanes: LanesFile): { lane: Record<string, Lane>; seconds: Record<Lane, number> } {
  const fallback = defaultSeconds(lanes);
  const est = (f: string) => lanes.files[f]?.seconds ?? fallback;
  const lane: Record<string, Lane> = {};
  const seconds: Record<Lane, number> = { heavy: 0, int: 0, noguest: 0 };
  const put = (f: string, l: Lane) => {
    lane[f] = l;
    seconds[l] += est(f);
  };
  const longestFirst = (xs: readonly string[]) => [...xs].sort((a, b) => est(b) - est(a) || a.localeCompare(b));
  const least = (among: readonly Lane[]) => among.reduce((best, x) => (seconds[x] < seconds[best] ? x : best), among[0]);
  const free: string[] = [];
  for (const f of files) {
    const pin = lanes.files[f]?.lane;
    if (!pin) free.push(f);
    else if (pin === 'noguest' && startsGuests(lanes.files[f]))
      throw new Error(`test-lanes: ${f} is pinned to lane noguest but starts guests (test/lanes.json: boots, restores or guests)`);
    else put(f, pin);
  }
  for (const f of longestFirst(free.filter((f) => startsGuests(lanes.files[f])))) put(f, least(GUEST_LANES));
  for (const f of longestFirst(free.filter((f) => !startsGuests(lanes.files[f])))) put(f, least(ANY_LANE));
  return { lane, seconds };
}

/**
 * test/lanes.json after a run: the files of the integration lanes in `timings` get their seconds, boots and
 * restores (a `guests` marker stays); `allFiles`: every integration file of the checkout — when the run measured all of them, the pins are
 * dropped (the split comes from data from then on) and files no longer present are removed.
 */
export function updateLanes(lanes: LanesFile, timings: Timings, allFiles: readonly string[]): LanesFile {
  // A file that did not run (0 s: it failed to load) is not a measurement.
  const measured = new Map(timings.files.filter((f) => INTEGRATION_LANES.includes(f.lane) && f.seconds > 0).map((f) => [f.file, f]));
  const complete = allFiles.every((f) => measured.has(f));
  const files: Record<string, LaneEntry> = {};
  const keys = complete ? [...allFiles] : [...new Set([...Object.keys(lanes.files), ...measured.keys()])];
  for (const f of keys.sort()) {
    const m = measured.get(f);
    const old = lanes.files[f];
    // `guests` is not measured (the timing table cannot see those guests): it stays.
    const entry: LaneEntry = m
      ? { seconds: m.seconds, boots: m.boots, restores: m.restores, ...(old?.guests ? { guests: true } : {}) }
      : { ...old };
    files[f] = !complete && old?.lane ? { ...entry, lane: old.lane } : entry;
  }
  return { ...(lanes.comment ? { comment: lanes.comment } : {}), files };
}

const LANES_JSON = path.join('test', 'lanes.json');

function readLanes(root: string): LanesFile {
  return JSON.parse(fs.readFileSync(path.join(root, LANES_JSON), 'utf8')) as LanesFile;
}

/** Each lane's estimated seconds, as `heavy N s, int N s, noguest N s`. */
function laneSummary(seconds: Record<Lane, number>): string {
  return LANES.map((l) => `${l} ${Math.round(seconds[l])} s`).join(', ');
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
    process.stderr.write(`test-lanes: estimated ${laneSummary(seconds)} (${LANES_JSON})\n`);
  } else if (command === 'update') {
    const timings = JSON.parse(fs.readFileSync(path.resolve(root, rest[0] ?? 'test-results/timings.json'), 'utf8')) as Timings;
    const updated = updateLanes(readLanes(root), timings, all);
    fs.writeFileSync(path.join(root, LANES_JSON), JSON.stringify(updated, null, 2) + '\n');
    const { seconds } = splitLanes(all, updated);
    process.stdout.write(`test-lanes: ${LANES_JSON} rewritten; estimated ${laneSummary(seconds)}\n`);
  } else {
    throw new Error(`test-lanes: expected "split [FILE...]" or "update [timings.json]", got ${JSON.stringify(command)}`);
  }
}

if (require.main === module) main(process.argv.slice(2), process.cwd());
