/**
 * Runs the integration test files of scripts/test-all.sh in three slots side by side (issue #33), each file when a
 * slot frees, in the order of the queue (scripts/test-queue.ts: at most two batches that start guests at once,
 * guest files first, longest first, short files batched into one jest process). What it knows of a file comes from
 * test/lanes.json (its estimated seconds; whether it starts guests: scripts/test-lanes.ts startsGuests) and its
 * source (whether it reads the test image: usesTestImage).
 *
 * `node dist/scripts/test-run.js RESULTS [--image-building SECONDS] [FILE...] [-- JEST_ARG...]`, from the checkout:
 * - RESULTS: the results folder (test-results). Each batch is a `jest --selectProjects integration --runInBand`
 *   process whose output goes to `RESULTS/<slot>-b<NN>.log` and its `--json` to `<slot>-b<NN>.json` (slots `slot1`
 *   to `slot3`, NN the batch's number in the run), each JSON's path a line of `RESULTS/int-results.txt` when the
 *   batch starts (a batch that dies before writing it then counts as failed). When a batch ends, a line says how it
 *   went and its output follows; at the end, one line per slot and the batches that failed.
 * - The test image: scripts/test-all.sh builds it beside, writing `RESULTS/image.status` (the build's exit status)
 *   and then `image.end`; `image.out`'s last line is its folder. Until then the files that need it wait (given
 *   `$VIRTSEED_TEST_IMAGE_DIR` once it is ready); if the build failed they are not run (listed, and the exit status
 *   is 1). `--image-building SECONDS`: it has been building that long (the queue estimates when it will be ready from
 *   test/lanes.json's `image.seconds`: imageHeadStart); without it and without `image.end`, it counts as just
 *   started.
 * - FILEs: the integration files to run (default: every one of the checkout). JEST_ARGs go to every jest process.
 *
 * Exit status 0 when every batch passed, 1 otherwise.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { imageHeadStart, LanesFile, queuedFiles, usesTestImage } from './test-lanes';
import { DEFAULT_QUEUE, ImageState, needsImage, nextBatch, QueuedFile } from './test-queue';
import { integrationFiles } from './test-timings';

/** The command line, parsed. */
export interface RunArgs {
  readonly results: string;
  /** Seconds the image has been building; undefined when not said. */
  readonly buildingFor?: number;
  readonly files: readonly string[];
  readonly jestArgs: readonly string[];
}

/** Parses `RESULTS [--image-building SECONDS] [FILE...] [-- JEST_ARG...]`; throws on a missing RESULTS or bad SECONDS. */
export function parseRunArgs(args: readonly string[]): RunArgs {
  const dash = args.indexOf('--');
  const own = dash < 0 ? [...args] : args.slice(0, dash);
  const jestArgs = dash < 0 ? [] : args.slice(dash + 1);
  const results = own.shift();
  if (!results) throw new Error('test-run: expected RESULTS [--image-building SECONDS] [FILE...] [-- JEST_ARG...]');
  let buildingFor: number | undefined;
  if (own[0] === '--image-building') {
    buildingFor = Number(own[1]);
    if (!own[1] || !Number.isFinite(buildingFor) || buildingFor < 0)
      throw new Error(`test-run: --image-building expects seconds, got ${JSON.stringify(own[1])}`);
    own.splice(0, 2);
  }
  return { results, ...(buildingFor === undefined ? {} : { buildingFor }), files: own, jestArgs };
}

/**
 * The image as scripts/test-all.sh left it in `results`: not done yet, ready (its folder), or failed (its status).
 * `image.end` says it is done; `image.status` and `image.out` are written before it.
 */
export function readImage(results: string): { done: false } | { done: true; dir: string } | { done: true; failed: string } {
  if (!fs.existsSync(path.join(results, 'image.end'))) return { done: false };
  const read = (n: string) => {
    try {
      return fs.readFileSync(path.join(results, n), 'utf8').trim();
    } catch {
      return '';
    }
  };
  const status = read('image.status');
  const dir = read('image.out').split('\n').pop() ?? '';
  if (status !== '0' || !dir) return { done: true, failed: `exit status ${status || 'unknown'}${dir ? '' : ', no folder in image.out'}` };
  return { done: true, dir };
}

interface Running {
  readonly slot: string;
  readonly id: string;
  readonly files: readonly QueuedFile[];
  readonly guest: boolean;
  readonly startMs: number;
  readonly estEnd: number;
  readonly child: ChildProcess;
}

const SLOTS = Array.from({ length: DEFAULT_QUEUE.slots }, (_, i) => `slot${i + 1}`);

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** Runs the files (see the module comment); resolves to the exit status. */
export async function main(args: readonly string[], root: string): Promise<number> {
  const opts = parseRunArgs(args);
  const results = path.resolve(root, opts.results);
  const lanes = JSON.parse(fs.readFileSync(path.join(root, 'test', 'lanes.json'), 'utf8')) as LanesFile;
  const rel = (f: string) => path.relative(root, path.resolve(root, f)).split(path.sep).join('/');
  const files = opts.files.length ? opts.files.map(rel) : integrationFiles(root, 'test');
  let pending = queuedFiles(files, lanes, (f) => usesTestImage(fs.readFileSync(path.join(root, f), 'utf8')));
  const jestBin = require.resolve('jest/bin/jest', { paths: [root] });
  const t0 = Date.now();
  const now = () => (Date.now() - t0) / 1000;
  let image: ImageState = { ready: false, estimatedAt: imageHeadStart(lanes, opts.buildingFor ?? 0) };
  let imageDir: string | undefined;
  const running = new Map<string, Running>();
  const slotEnd = new Map<string, number>();
  const failed: string[] = [];
  const notRun: string[] = [];
  let batches = 0;
  let ran = 0;
  const say = (line: string) => process.stdout.write(`${line}\n`);

  // Once the image is done, ready or not, the queue sees it ready: if it failed, no file left needs it.
  const checkImage = () => {
    if (image.ready) return;
    const s = readImage(results);
    if (!s.done) return;
    image = { ready: true };
    if ('dir' in s) {
      imageDir = s.dir;
      say(`slots: the test image is ready at ${Math.round(now())} s (${s.dir})`);
      return;
    }
    const needs = pending.filter(needsImage);
    pending = pending.filter((f) => !needsImage(f));
    notRun.push(...needs.map((f) => f.file));
    say(
      `slots: no test image (scripts/build-test-image.sh: ${s.failed})${needs.length ? `; NOT RUN: ${needs.map((f) => f.file).join(' ')}` : ''}`,
    );
  };

  return new Promise<number>((resolve) => {
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      const ends = SLOTS.map((s) => (slotEnd.has(s) ? `${s} ended at ${Math.round(slotEnd.get(s) as number)} s` : `${s} ran nothing`)).join(
        ', ',
      );
      say(`slots: ${batches} jest processes ran ${ran} files in ${Math.round(now())} s; ${ends}`);
      if (failed.length) say(`slots: FAILED: ${failed.join(', ')} (their output above)`);
      if (notRun.length) say(`slots: ${notRun.length} files NOT RUN (no test image)`);
      resolve(failed.length || notRun.length ? 1 : 0);
    };
    const schedule = () => {
      if (finished) return;
      checkImage();
      for (const slot of SLOTS) {
        if (running.has(slot)) continue;
        const others = [...running.values()].map((r) => ({ guest: r.guest, endsAt: r.estEnd }));
        const batch = nextBatch({ pending, running: others, now: now(), image }, DEFAULT_QUEUE);
        if (!batch.length) continue;
        const taken = new Set(batch.map((f) => f.file));
        pending = pending.filter((f) => !taken.has(f.file));
        start(slot, batch);
      }
      if (!running.size && !pending.length) finish();
      else if (!running.size && image.ready) {
        // Nothing may run and nothing runs: a queue bug; say so rather than hang.
        say(`slots: nothing can start with ${pending.length} files left: ${pending.map((f) => f.file).join(' ')}`);
        failed.push('the queue');
        notRun.push(...pending.map((f) => f.file));
        pending = [];
        finish();
      }
    };
    const start = (slot: string, batch: QueuedFile[]) => {
      batches++;
      const id = `${slot}-b${String(batches).padStart(2, '0')}`;
      const json = path.join(results, `${id}.json`);
      const log = path.join(results, `${id}.log`);
      fs.appendFileSync(path.join(results, 'int-results.txt'), `${path.relative(root, json)}\n`);
      const out = fs.openSync(log, 'w');
      const child = spawn(
        process.execPath,
        [
          jestBin,
          '--selectProjects',
          'integration',
          '--runInBand',
          '--runTestsByPath',
          ...batch.map((f) => f.file),
          '--json',
          `--outputFile=${json}`,
          ...opts.jestArgs,
        ],
        { cwd: root, stdio: ['ignore', out, out], env: imageDir ? { ...process.env, VIRTSEED_TEST_IMAGE_DIR: imageDir } : process.env },
      );
      fs.closeSync(out);
      const est = batch.reduce((n, f) => n + f.seconds, 0);
      const guest = batch.some((f) => f.guest);
      const startMs = Date.now();
      running.set(slot, { slot, id, files: batch, guest, startMs, estEnd: now() + est, child });
      say(
        `slots: ${id} started at ${clock(startMs)} (${guest ? 'guests' : 'no guest'}, estimated ${Math.round(est)} s): ${batch.map((f) => f.file).join(' ')}`,
      );
      let done = false;
      const end = (how: string, ok: boolean) => {
        if (done) return;
        done = true;
        running.delete(slot);
        slotEnd.set(slot, now());
        ran += batch.length;
        if (!ok) failed.push(id);
        const secs = Math.round((Date.now() - startMs) / 1000);
        say(`--- ${id} (${batch.length} file${batch.length === 1 ? '' : 's'}): ${ok ? 'passed' : `FAILED (${how})`} in ${secs} s:`);
        try {
          process.stdout.write(fs.readFileSync(log, 'utf8'));
        } catch {
          say(`(no output: ${log} unreadable)`);
        }
        schedule();
      };
      child.on('error', (e) => end(`could not start: ${e.message}`, false));
      child.on('exit', (code, signal) => end(signal ? `killed by ${signal}` : `jest exit ${code}`, code === 0));
    };
    const stop = (signal: NodeJS.Signals) => {
      for (const r of running.values()) r.child.kill(signal);
      process.exit(1);
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
    // While the image is not ready: a look at it every second.
    const timer = setInterval(() => {
      if (!image.ready) schedule();
    }, 1000);
    schedule();
  });
}

if (require.main === module)
  main(process.argv.slice(2), process.cwd()).then(
    (status) => process.exit(status),
    (e: Error) => {
      console.error(e.message);
      process.exit(2);
    },
  );
