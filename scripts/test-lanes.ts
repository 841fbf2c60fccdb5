/**
 * The integration files' measured timings (issue #33). test/lanes.json holds, per integration test file, its
 * measured wall time (`seconds`), its guest `boots` and `restores` (from test-results/timings.json,
 * scripts/test-timings.ts), `guests: true` when the file starts guests under a libvirtd of its own
 * (test/helpers/hosts.ts, test/faults/own-libvirtd.ts: the timing table does not see those), and optionally a `lane`
 * it was pinned to (the fixed split's: the queue ignores it); and `image.seconds`, the test image's build time in the
 * last run that built it (scripts/build-test-image.sh: a debootstrap, mostly waiting on the Debian mirror).
 * scripts/test-run.ts (the queue of scripts/test-all.sh's integration slots, scripts/test-queue.ts) takes from here
 * each file's estimate (its seconds, defaultSeconds when not measured), whether it starts guests (startsGuests: boots
 * or restores measured, `guests: true`, or not measured at all: unknown, assumed to) or reads the test image
 * (usesTestImage), and when the image will be ready (imageHeadStart).
 *
 * The fixed split (splitLanes) is what scripts/test-all.sh ran before the queue, kept to compare the two on
 * past runs (scripts/test-replay.ts). Lanes `heavy` and `int` may start guests, `noguest` runs only files that start
 * none. Head start: on a fresh machine (CI's case) the test image is still being built when the unit tests and checks
 * end. Lane `noguest` starts then; `heavy` and `int` start when the image is ready, an estimated `headStart` seconds
 * later (the recorded build time less how long it has been building). A file that reads the test image then also
 * waits for it, in a guest lane, even when it starts no guest. With the image cached, the head start is 0.
 * The split: each lane begins at its start (0 for `noguest`, the head start for the other two); pinned files go to
 * their lane; then the guest files, longest first, each to the guest lane that ends soonest so far; then the other
 * files, longest first, each to the lane that ends soonest among those it may run in (greedy longest-processing-
 * time; a tie goes to `noguest`, then `heavy`). A file without a measured time counts as the median of the measured
 * ones (60 s when none is).
 *
 * `npm run test:lanes` (`npx tsx scripts/test-lanes.ts update [timings.json]`) rewrites test/lanes.json from a run's timings: the
 * measured files get their new figures, and the image its build time when the run built it; when the run measured
 * every integration file, the pins are dropped too. It then prints the queue's makespan with those estimates.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_QUEUE, QueuedFile, simulate } from './test-queue';
import { integrationFiles, isIntegrationLane, Timings } from './test-timings';

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

/**
 * test/lanes.json. `files` keyed by the path relative to the checkout; `image.seconds`: the test image's build time
 * (wall seconds) in the last run that built it.
 */
export interface LanesFile {
  readonly comment?: string;
  readonly image?: { readonly seconds: number };
  readonly files: Readonly<Record<string, LaneEntry>>;
}

/** The image's build time assumed when test/lanes.json records none (a debootstrap on a 2-core machine, 2026-11). */
export const DEFAULT_IMAGE_SECONDS = 340;

/**
 * Seconds until the test image is ready, estimated: the recorded build time less `buildingFor` (seconds it has been
 * building so far), at least 0; 0 when `buildingFor` is undefined (the image is ready).
 */
export function imageHeadStart(lanes: LanesFile, buildingFor: number | undefined): number {
  if (buildingFor === undefined) return 0;
  return Math.max(0, Math.round((lanes.image?.seconds ?? DEFAULT_IMAGE_SECONDS) - buildingFor));
}

/** Whether a test file's source reads the test image: calls testImage() (test/helpers/guest.ts) or reads $VIRTSEED_TEST_IMAGE_DIR. */
export function usesTestImage(source: string): boolean {
  return /\btestImage\(|\bVIRTSEED_TEST_IMAGE_DIR\b/.test(source);
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
 * The queue's view of `files` (paths relative to the checkout; scripts/test-queue.ts): each one's estimate from
 * `lanes` (its seconds, {@link defaultSeconds} when not measured), whether it starts guests ({@link startsGuests}),
 * and `readsImage(file)`.
 */
export function queuedFiles(files: readonly string[], lanes: LanesFile, readsImage: (file: string) => boolean): QueuedFile[] {
  const fallback = defaultSeconds(lanes);
  return files.map((file) => ({
    file,
    seconds: lanes.files[file]?.seconds ?? fallback,
    guest: startsGuests(lanes.files[file]),
    readsImage: readsImage(file),
  }));
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

/** What the split knows beyond test/lanes.json. */
export interface SplitOptions {
  /** Seconds lane `noguest` starts before the guest lanes (imageHeadStart); 0 when absent. */
  readonly headStart?: number;
  /**
   * Whether a file must wait for the test image although it starts no guest: it reads the image (usesTestImage)
   * and the image is not ready yet. None when absent.
   */
  readonly needsImage?: (file: string) => boolean;
}

/**
 * Which lane each of `files` runs in, and each lane's estimated end in seconds from the first lane's start (its
 * start plus its files' seconds; rules in the module comment). Throws when a file that starts guests is pinned to
 * the no-guest lane.
 */
export function splitLanes(
  files: readonly string[],
  lanes: LanesFile,
  options: SplitOptions = {},
): { lane: Record<string, Lane>; seconds: Record<Lane, number> } {
  const headStart = options.headStart ?? 0;
  const needsImage = options.needsImage ?? (() => false);
  const fallback = defaultSeconds(lanes);
  const est = (f: string) => lanes.files[f]?.seconds ?? fallback;
  const lane: Record<string, Lane> = {};
  const seconds: Record<Lane, number> = { heavy: headStart, int: headStart, noguest: 0 };
  const put = (f: string, l: Lane) => {
    lane[f] = l;
    seconds[l] += est(f);
  };
  const longestFirst = (xs: readonly string[]) => [...xs].sort((a, b) => est(b) - est(a) || a.localeCompare(b));
  const least = (among: readonly Lane[]) => among.reduce((best, x) => (seconds[x] < seconds[best] ? x : best), among[0]);
  // Guest files, and while the image is being built the files that read it, run in the lanes that start once it is ready.
  const waitsForImage = (f: string) => startsGuests(lanes.files[f]) || needsImage(f);
  const free: string[] = [];
  for (const f of files) {
    const pin = lanes.files[f]?.lane;
    if (!pin || (pin === 'noguest' && needsImage(f))) free.push(f);
    else if (pin === 'noguest' && startsGuests(lanes.files[f]))
      throw new Error(`test-lanes: ${f} is pinned to lane noguest but starts guests (test/lanes.json: boots, restores or guests)`);
    else put(f, pin);
  }
  for (const f of longestFirst(free.filter(waitsForImage))) put(f, least(GUEST_LANES));
  for (const f of longestFirst(free.filter((f) => !waitsForImage(f)))) put(f, least(ANY_LANE));
  return { lane, seconds };
}

/**
 * test/lanes.json after a run: the files of the integration lanes in `timings` get their seconds, boots and
 * restores (a `guests` marker stays); `allFiles`: every integration file of the checkout — when the run measured all of them, the pins are
 * dropped (the split comes from data from then on) and files no longer present are removed. `image.seconds`
 * becomes the run's build time when the run built the image (a cached image says nothing about a build).
 */
export function updateLanes(lanes: LanesFile, timings: Timings, allFiles: readonly string[]): LanesFile {
  // A file that did not run (0 s: it failed to load) is not a measurement.
  const measured = new Map(timings.files.filter((f) => isIntegrationLane(f.lane) && f.seconds > 0).map((f) => [f.file, f]));
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
  const image = timings.image?.built ? { seconds: timings.image.seconds } : lanes.image;
  return { ...(lanes.comment ? { comment: lanes.comment } : {}), ...(image ? { image } : {}), files };
}

const LANES_JSON = path.join('test', 'lanes.json');

function readLanes(root: string): LanesFile {
  return JSON.parse(fs.readFileSync(path.join(root, LANES_JSON), 'utf8')) as LanesFile;
}

/** The CLI (run from the checkout): `update [timings.json]`. */
export function main(args: readonly string[], root: string): void {
  const [command, ...rest] = args;
  const all = integrationFiles(root, 'test');
  if (command === 'update') {
    const timings = JSON.parse(fs.readFileSync(path.resolve(root, rest[0] ?? 'test-results/timings.json'), 'utf8')) as Timings;
    const updated = updateLanes(readLanes(root), timings, all);
    fs.writeFileSync(path.join(root, LANES_JSON), JSON.stringify(updated, null, 2) + '\n');
    const files = queuedFiles(all, updated, () => false);
    const est = new Map(files.map((f) => [f.file, f.seconds]));
    const { makespan } = simulate(files, (f) => est.get(f) ?? 0, {
      ...DEFAULT_QUEUE,
      imageReadyAt: 0,
      imageEstimatedAt: 0,
      startupSeconds: 0,
    });
    process.stdout.write(
      `test-lanes: ${LANES_JSON} rewritten; the integration slots estimated to end after ${Math.round(makespan)} s with the image cached\n`,
    );
  } else {
    throw new Error(`test-lanes: expected "update [timings.json]", got ${JSON.stringify(command)}`);
  }
}

if (require.main === module) main(process.argv.slice(2), process.cwd());
