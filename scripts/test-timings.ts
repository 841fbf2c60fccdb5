/**
 * The test command's timing table (issue #33): per test file its lane, wall time, guest boots and slowest tests,
 * sorted by wall time, with lane totals. A lane is `unit` or one of the integration slots (`slot1`…`slot3`,
 * scripts/test-run.ts), each slot's files spread over several jest processes (batches). scripts/test-all.sh keeps
 * every jest `--json` result in `test-results/` (`unit.json`; `<slot>-b<NN>.json` per batch; the older runs' lanes
 * `int.json`, `heavy.json`, `noguest.json` are read too: the file name gives the lane) and runs this at the end:
 * `node dist/scripts/test-timings.js [test-results]` writes `test-results/timings.md` and `timings.json` and prints
 * the table (the unit lane cut to its slowest files; timings.md has every row).
 *
 * Guest boots per file, without a hook in the product: libvirt writes a QEMU log per domain
 * (`/var/log/libvirt/qemu/<domain>.log`, `$VIRTSEED_QEMU_LOG_DIR` to read another folder) and appends one
 * `<UTC time>: starting up libvirt version: ...` line, followed by QEMU's command line, at every QEMU start. A start
 * whose command line has `-incoming` restores a saved memory image (a snapshot revert or `virsh restore`): it is
 * counted as a restore, not a boot. Each start is given to the integration test file that was running at that
 * moment (jest's per-file start and end times in its JSON, whichever process ran it). The slots run side by side, so a start
 * can fall in several files' windows: it goes to the file whose source names the domain — the longest `vstest-...` or
 * `virtseed-...` literal of the file that the domain's name starts with (every test names its libvirt objects with
 * a prefix of its own). A start that only one running file could have made, whose domain no integration test file
 * names, goes to that file by time alone (a name built elsewhere). Anything else (another user of the machine,
 * two files naming the same prefix) is listed as not attributed rather than guessed. Guests of the tests' own
 * daemons (test/faults/own-libvirtd.ts, test/helpers/hosts.ts) are counted too: their logs live in temporary
 * folders, which those helpers copy before removing them into `test-results/qemu-logs/<daemon>/`
 * (test/helpers/qemu-logs.ts; scripts/test-all.sh sets `VIRTSEED_TEST_QEMU_LOGS` to it), read beside the system's.
 *
 * CPU: per integration file, the CPU seconds of its jest process and the commands it ran (terraform, the provider,
 * npm…), as test/helpers/limits-environment.ts records them in `cpu.jsonl` (guests excluded: QEMU runs under libvirtd);
 * and the CPU seconds of the QEMU processes it started (`guest cpu`), from the sampler scripts/test-all.sh runs beside
 * the lanes (scripts/guest-cpu.ts, `guest-cpu.jsonl`), each QEMU process given to a file by its guest's name and start
 * time by the rules above. The sampler also sums libvirt's daemons and helpers. libvirtd is not given per file: the
 * three lanes share one daemon at once. For the run as a whole, scripts/test-all.sh keeps the `cpu` line of /proc/stat
 * before and after the integration lanes (`proc-stat.start`, `proc-stat.end`): every core-second the machine was busy
 * in that time, guests and daemons included, against the core-seconds it had; likewise over the build, unit tests and
 * checks (`proc-stat.unit-start` to `proc-stat.start`: from the unit tests' start, just before the build, to the first
 * integration lane's), to show whether the machine had room for a lane beside them.
 *
 * The test image: scripts/test-all.sh builds it (or finds it cached) beside the build, unit tests and checks and writes
 * when that began and ended (`image.start`, `image.end`: ms since the epoch) and its log (`image.log`, whose line
 * `test image cached: DIR` says no build was needed). The table says how long the build took and when each integration lane
 * started against the moment the image was ready (lane `noguest` does not wait for it).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseGuestCpuLog, ProcessRecord } from './guest-cpu';

/** One test of jest's `--json` output (the parts read). `duration` in ms (null when the test did not run). */
export interface JestAssertion {
  readonly fullName: string;
  readonly status: string;
  readonly duration?: number | null;
}

/** One test file of jest's `--json` output: `name` is its absolute path; times in ms since the epoch. */
export interface JestFileResult {
  readonly name: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly status: string;
  readonly assertionResults: readonly JestAssertion[];
}

/** jest's `--json` output (the parts read). */
export interface JestJson {
  readonly testResults: readonly JestFileResult[];
}

/** One jest process's run: `lane` is `unit` or an integration slot (`slot1`…; `int`, `heavy`, `noguest` in older runs). */
export interface LaneRun {
  readonly lane: string;
  readonly result: JestJson;
}

/** One QEMU start from a libvirt QEMU log: `ms` since the epoch; `restore` when QEMU was started with `-incoming`. */
export interface QemuStart {
  readonly domain: string;
  readonly ms: number;
  readonly restore: boolean;
}

export interface SlowTest {
  readonly name: string;
  readonly seconds: number;
}

/** One row of the table. `file` relative to the checkout, '/'-separated; `seconds` is the file's wall time. */
export interface FileTiming {
  readonly lane: string;
  readonly file: string;
  readonly seconds: number;
  readonly boots: number;
  readonly restores: number;
  readonly passed: number;
  readonly failed: number;
  /** CPU seconds of the file's own processes (see the module comment); absent when not recorded. */
  readonly cpuSeconds?: number;
  /** CPU seconds of the QEMU processes the file started (scripts/guest-cpu.ts); absent when not sampled. */
  readonly guestCpuSeconds?: number;
  readonly slowest: readonly SlowTest[];
}

/**
 * A lane's totals: `processes` its jest processes, `seconds` sums its files, `wallSeconds` is its first file's start
 * to its last file's end; `startMs`: its first file's start (ms since the epoch), absent when none ran.
 */
export interface LaneTotal {
  readonly lane: string;
  readonly processes: number;
  readonly startMs?: number;
  readonly files: number;
  readonly seconds: number;
  readonly wallSeconds: number;
  readonly boots: number;
  readonly restores: number;
  readonly passed: number;
  readonly failed: number;
}

/** The machine's CPU over the integration lanes: core-seconds busy and available (cores × wall). */
export interface MachineCpu {
  readonly busySeconds: number;
  readonly availableSeconds: number;
}

/**
 * The test image in this run: `built` false when it was found cached; `seconds` from the start of
 * scripts/build-test-image.sh to its end; `startMs`, `endMs` since the epoch.
 */
export interface ImageBuild {
  readonly built: boolean;
  readonly seconds: number;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * The processes outside the test files over the integration lanes (scripts/guest-cpu.ts), in CPU seconds: the QEMU
 * processes (`qemuProcesses` of them; `qemuUnattributedSeconds` of it in processes no file could be given), libvirt's
 * daemons and helpers, and the sampler itself.
 */
export interface GuestCpu {
  readonly qemuSeconds: number;
  readonly qemuProcesses: number;
  readonly qemuUnattributedSeconds: number;
  readonly libvirtSeconds: number;
  readonly samplerSeconds: number;
}

/** What timings.json holds. */
export interface Timings {
  readonly files: readonly FileTiming[];
  readonly lanes: readonly LaneTotal[];
  /** Over the integration lanes; absent when /proc/stat was not sampled. */
  readonly machineCpu?: MachineCpu;
  /** Over the integration lanes; absent when scripts/guest-cpu.ts did not run. */
  readonly guestCpu?: GuestCpu;
  /** Over the build, unit tests and checks; absent when /proc/stat was not sampled. */
  readonly unitPhaseCpu?: MachineCpu;
  /** Absent when the run did not build or look for the image (no integration file ran). */
  readonly image?: ImageBuild;
  /** QEMU starts during the integration lanes that no file could be given (see the module comment). */
  readonly unattributed: readonly QemuStart[];
}

/**
 * Whether a lane runs integration files: every lane but `unit` (which never starts a guest). Every integration
 * file's QEMU starts are counted, whatever its slot.
 */
export function isIntegrationLane(lane: string): boolean {
  return lane !== 'unit';
}

/**
 * The lane of a jest JSON result in the results folder, by its file name: `unit.json` → `unit`,
 * `slot2-b07.json` → `slot2`, and the older runs' `int.json`, `heavy.json`, `noguest.json`; undefined for any other.
 */
export function laneOfResult(name: string): string | undefined {
  const m = /^(?:(unit|int|heavy|noguest)|(slot\d+)-b\d+)\.json$/.exec(name);
  return m ? (m[1] ?? m[2]) : undefined;
}

const START_LINE = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(\d\d): starting up /;

/**
 * The QEMU starts in one libvirt QEMU log (`text`, the whole file) of domain `domain`: one per `starting up` line,
 * a restore when the command line that follows (up to the next start) has an `-incoming` argument.
 */
export function parseQemuLog(domain: string, text: string): QemuStart[] {
  const starts: { ms: number; restore: boolean }[] = [];
  for (const line of text.split('\n')) {
    const m = START_LINE.exec(line);
    if (m) {
      starts.push({ ms: Date.parse(`${m[1]}T${m[2]}${m[3]}:${m[4]}`), restore: false });
    } else if (starts.length && /(^|\s)-incoming(\s|$)/.test(line)) {
      starts[starts.length - 1].restore = true;
    }
  }
  return starts.filter((s) => !Number.isNaN(s.ms)).map((s) => ({ domain, ...s }));
}

/** The `vstest-...`/`virtseed-...` literals in a test file's source (object-name prefixes, see the module comment). */
export function nameLiterals(source: string): string[] {
  return [...new Set(source.match(/\b(?:vstest|virtseed)-[A-Za-z0-9_.-]+/g) ?? [])];
}

/** Length of the longest of `literals` that `domain` starts with (0 when none). */
function nameScore(domain: string, literals: readonly string[]): number {
  return Math.max(0, ...literals.filter((l) => domain.startsWith(l)).map((l) => l.length));
}

/** A test file's run window (ms since the epoch) in a guest lane. */
export interface FileWindow {
  readonly file: string;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * Gives each QEMU start (or QEMU process: `domain` its guest name, `ms` its start) to a file (rules in the module
 * comment). `literals`: every integration test file's name
 * literals (files of this run and the others), by relative path. Returns the starts per file and those left over.
 */
export function attributeStarts<S extends { readonly domain: string; readonly ms: number }>(
  windows: readonly FileWindow[],
  starts: readonly S[],
  literals: ReadonlyMap<string, readonly string[]>,
): { byFile: Map<string, S[]>; unattributed: S[] } {
  const byFile = new Map<string, S[]>();
  const unattributed: S[] = [];
  const claimedAnywhere = (domain: string) => [...literals.values()].some((l) => nameScore(domain, l) > 0);
  for (const s of [...starts].sort((a, b) => a.ms - b.ms)) {
    const candidates = windows.filter((w) => w.startMs <= s.ms && s.ms <= w.endMs);
    const scored = candidates.map((w) => ({ w, score: nameScore(s.domain, literals.get(w.file) ?? []) }));
    const best = Math.max(0, ...scored.map((c) => c.score));
    const top = scored.filter((c) => c.score === best);
    let owner: string | undefined;
    if (best > 0 && top.length === 1) owner = top[0].w.file;
    else if (best === 0 && candidates.length === 1 && !claimedAnywhere(s.domain)) owner = candidates[0].file;
    if (owner === undefined) unattributed.push(s);
    else byFile.set(owner, [...(byFile.get(owner) ?? []), s]);
  }
  return { byFile, unattributed };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * The aggregate `cpu` line of /proc/stat (proc(5)) as busy and total clock ticks (1/100 s): busy is user, nice,
 * system, irq, softirq and steal (guest time is inside user); total adds idle and iowait. Throws on another line.
 */
export function parseProcStatLine(line: string): { busy: number; total: number } {
  const m = /^cpu\s+(.*)$/.exec(line.trim());
  if (!m) throw new Error(`not the cpu line of /proc/stat: ${line.slice(0, 80)}`);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = m[1].split(/\s+/).map(Number);
  const busy = user + nice + system + (irq || 0) + (softirq || 0) + (steal || 0);
  return { busy, total: busy + idle + (iowait || 0) };
}

/** The machine's CPU between two /proc/stat `cpu` lines (see parseProcStatLine). */
export function machineCpu(startLine: string, endLine: string): MachineCpu {
  const a = parseProcStatLine(startLine);
  const b = parseProcStatLine(endLine);
  return { busySeconds: round1((b.busy - a.busy) / 100), availableSeconds: round1((b.total - a.total) / 100) };
}

/**
 * Per-file CPU seconds from `cpu.jsonl` (one `{"file", "cpuSeconds"}` line per file, absolute paths), keyed by the
 * path relative to `root`. Unreadable lines are skipped.
 */
export function parseCpuLog(text: string, root: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as { file?: unknown; cpuSeconds?: unknown };
      if (typeof r.file === 'string' && typeof r.cpuSeconds === 'number') out.set(relative(root, r.file), r.cpuSeconds);
    } catch {
      // a torn line: left out
    }
  }
  return out;
}

/** The file's path relative to `root`, '/'-separated. */
function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * The table's rows and totals. `root`: the checkout (jest reports absolute paths). Files sorted by wall time,
 * longest first; lanes in the order they first appear in `runs` (a lane's runs are its jest processes). A file that failed to run (no start time) has 0 s.
 */
export function buildTimings(
  runs: readonly LaneRun[],
  starts: readonly QemuStart[],
  literals: ReadonlyMap<string, readonly string[]>,
  root: string,
  cpu: ReadonlyMap<string, number> = new Map(),
  machine?: MachineCpu,
  processes?: readonly ProcessRecord[],
): Timings {
  const windows: FileWindow[] = runs
    .filter((r) => isIntegrationLane(r.lane))
    .flatMap((r) => r.result.testResults.map((t) => ({ file: relative(root, t.name), startMs: t.startTime, endMs: t.endTime })))
    .filter((w) => w.startMs > 0 && w.endMs >= w.startMs);
  const { byFile, unattributed } = attributeStarts(windows, starts, literals);
  const qemus = (processes ?? []).flatMap((p) => (p.kind === 'qemu' ? [{ domain: p.name, ms: p.startMs, cpu: p.cpuSeconds }] : []));
  const guests = attributeStarts(windows, qemus, literals);
  const files: FileTiming[] = runs.flatMap((r) =>
    r.result.testResults.map((t) => {
      const file = relative(root, t.name);
      const own = isIntegrationLane(r.lane) ? (byFile.get(file) ?? []) : [];
      return {
        lane: r.lane,
        file,
        seconds: t.startTime > 0 && t.endTime >= t.startTime ? round1((t.endTime - t.startTime) / 1000) : 0,
        boots: own.filter((s) => !s.restore).length,
        restores: own.filter((s) => s.restore).length,
        passed: t.assertionResults.filter((a) => a.status === 'passed').length,
        failed:
          t.assertionResults.filter((a) => a.status === 'failed').length + (t.status === 'failed' && !t.assertionResults.length ? 1 : 0),
        ...(cpu.has(file) ? { cpuSeconds: cpu.get(file) } : {}),
        ...(processes && isIntegrationLane(r.lane)
          ? { guestCpuSeconds: round1((guests.byFile.get(file) ?? []).reduce((n, q) => n + q.cpu, 0)) }
          : {}),
        slowest: [...t.assertionResults]
          .filter((a) => typeof a.duration === 'number')
          .sort((a, b) => (b.duration as number) - (a.duration as number))
          .slice(0, 3)
          .map((a) => ({ name: a.fullName, seconds: round1((a.duration as number) / 1000) })),
      };
    }),
  );
  files.sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  const laneNames = [...new Set(runs.map((r) => r.lane))];
  const lanes: LaneTotal[] = laneNames.map((lane) => {
    const mine = files.filter((f) => f.lane === lane);
    const own = runs.filter((r) => r.lane === lane);
    const timed = own.flatMap((r) => r.result.testResults).filter((t) => t.startTime > 0);
    const wall = timed.length ? Math.max(...timed.map((t) => t.endTime)) - Math.min(...timed.map((t) => t.startTime)) : 0;
    const sum = (k: 'seconds' | 'boots' | 'restores' | 'passed' | 'failed') => mine.reduce((n, f) => n + f[k], 0);
    return {
      lane,
      processes: own.length,
      ...(timed.length ? { startMs: Math.min(...timed.map((t) => t.startTime)) } : {}),
      files: mine.length,
      seconds: round1(sum('seconds')),
      wallSeconds: round1(wall / 1000),
      boots: sum('boots'),
      restores: sum('restores'),
      passed: sum('passed'),
      failed: sum('failed'),
    };
  });
  const sumCpu = (kind: string) => round1((processes ?? []).reduce((n, p) => n + (p.kind === kind ? p.cpuSeconds : 0), 0));
  const guestCpu: GuestCpu | undefined = processes && {
    qemuSeconds: sumCpu('qemu'),
    qemuProcesses: qemus.length,
    qemuUnattributedSeconds: round1(guests.unattributed.reduce((n, q) => n + q.cpu, 0)),
    libvirtSeconds: sumCpu('libvirt'),
    samplerSeconds: sumCpu('sampler'),
  };
  return { files, lanes, unattributed, ...(machine ? { machineCpu: machine } : {}), ...(guestCpu ? { guestCpu } : {}) };
}

/** A test name cut to `max` characters for the table (the whole name is in timings.json). */
function shortName(name: string, max = 60): string {
  const flat = name.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `N core-s busy of M (P %)`. */
function cpuShare({ busySeconds, availableSeconds }: MachineCpu): string {
  const pct = availableSeconds > 0 ? Math.round((100 * busySeconds) / availableSeconds) : 0;
  return `${busySeconds} core-s busy of ${availableSeconds} (${pct} %)`;
}

/**
 * The test image's line of the table: found cached, or built in N s, with each integration lane's start against
 * the moment it was ready (`noguest started 140 s before it was ready, heavy 3 s after`). Undefined without `image`.
 */
export function imageLine(t: Timings): string | undefined {
  if (!t.image) return undefined;
  if (!t.image.built) return 'Test image: found cached (test-results/image.log).';
  const endMs = t.image.endMs;
  const starts = t.lanes
    .filter((l) => isIntegrationLane(l.lane) && l.startMs !== undefined)
    .map((l) => {
      const d = Math.round(((l.startMs as number) - endMs) / 1000);
      return `${l.lane} ${d < 0 ? `${-d} s before` : `${d} s after`} it was ready`;
    });
  return `Test image: built in ${t.image.seconds} s (test-results/image.log)${starts.length ? `; lanes started: ${starts.join(', ')}` : ''}.`;
}

/**
 * The image build from scripts/test-all.sh's `image.start`, `image.end` (ms since the epoch) and `image.log` texts
 * (see the module comment); undefined when a time is missing or unreadable.
 */
export function parseImageBuild(start: string | undefined, end: string | undefined, log: string | undefined): ImageBuild | undefined {
  const startMs = Number(start?.trim());
  const endMs = Number(end?.trim());
  if (!start?.trim() || !end?.trim() || !Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs < startMs) return undefined;
  return { built: !/^test image cached: /m.test(log ?? ''), seconds: round1((endMs - startMs) / 1000), startMs, endMs };
}

/**
 * The table as Markdown: lane totals, then one row per file (longest first). `unitRows`: how many of the unit
 * lane's files to show (all when undefined); the rest are counted in a line under the table.
 */
export function renderTimings(t: Timings, unitRows?: number): string {
  const out: string[] = [];
  out.push('| lane | jest processes | files | sum of files (s) | lane wall (s) | boots | restores | passed | failed |');
  out.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const l of t.lanes)
    out.push(
      `| ${l.lane} | ${l.processes} | ${l.files} | ${l.seconds} | ${l.wallSeconds} | ${l.boots} | ${l.restores} | ${l.passed} | ${l.failed} |`,
    );
  out.push('');
  const image = imageLine(t);
  if (image) out.push(image, '');
  if (t.unitPhaseCpu) out.push(`Machine CPU during the build, unit tests and checks: ${cpuShare(t.unitPhaseCpu)}.`, '');
  if (t.machineCpu) {
    const own = round1(t.files.filter((f) => f.lane !== 'unit').reduce((n, f) => n + (f.cpuSeconds ?? 0), 0));
    const g = t.guestCpu;
    const rest = g
      ? `guests (${g.qemuProcesses} QEMU processes) ${g.qemuSeconds} core-s${g.qemuUnattributedSeconds ? ` (${g.qemuUnattributedSeconds} of it in QEMU processes no file could be given)` : ''}, libvirt's daemons and helpers ${g.libvirtSeconds} core-s, the rest ${round1(t.machineCpu.busySeconds - own - g.qemuSeconds - g.libvirtSeconds)} core-s is the kernel, the sampler (${g.samplerSeconds} core-s) and anything else on the machine.`
      : 'the rest is guests, daemons and anything else on the machine.';
    out.push(`Machine CPU during the integration lanes: ${cpuShare(t.machineCpu)}; the files' own processes ${own} core-s, ${rest}`);
    out.push('');
  }
  out.push('| lane | file | wall (s) | cpu (s) | guest cpu (s) | boots | restores | tests | slowest tests (s) |');
  out.push('|---|---|--:|--:|--:|--:|--:|--:|---|');
  let unitShown = 0;
  let unitHidden = 0;
  for (const f of t.files) {
    if (f.lane === 'unit' && unitRows !== undefined && unitShown >= unitRows) {
      unitHidden++;
      continue;
    }
    if (f.lane === 'unit') unitShown++;
    const slow = f.slowest.map((s) => `${s.seconds} ${shortName(s.name)}`).join('; ');
    const tests = f.failed ? `${f.passed} passed, ${f.failed} failed` : `${f.passed}`;
    out.push(
      `| ${f.lane} | ${f.file} | ${f.seconds} | ${f.cpuSeconds ?? ''} | ${f.guestCpuSeconds ?? ''} | ${f.boots} | ${f.restores} | ${tests} | ${slow} |`,
    );
  }
  if (unitHidden) out.push(`\n(${unitHidden} more unit files: every row is in test-results/timings.md)`);
  if (t.unattributed.length) {
    const names = [...new Set(t.unattributed.map((s) => s.domain))].sort();
    out.push(`\nQEMU starts not attributed to a file: ${t.unattributed.length} (${names.join(', ')})`);
  }
  return out.join('\n') + '\n';
}

/** The QEMU starts in `dir`'s logs (`*.log`) modified at or after `sinceMs`; none when the folder is missing. */
export function readQemuStarts(dir: string, sinceMs: number): QemuStart[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.log'));
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const file = path.join(dir, n);
    try {
      if (fs.statSync(file).mtimeMs < sinceMs) return [];
      return parseQemuLog(n.slice(0, -'.log'.length), fs.readFileSync(file, 'utf8')).filter((s) => s.ms >= sinceMs);
    } catch {
      return [];
    }
  });
}

/** The folders in `dir` (none when it is missing). */
function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/** Every `*.int.test.ts` under `dir` (relative to `root`, '/'-separated), sorted. */
export function integrationFiles(root: string, dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .flatMap((e) => {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' ? [] : integrationFiles(root, rel);
      return e.name.endsWith('.int.test.ts') ? [rel] : [];
    })
    .sort();
}

/** Reads the lane results in `resultsDir`, writes timings.md and timings.json there, prints the table. */
export function main(resultsDir: string, root: string): void {
  // unit.json first, then the batches in the order they started (their number).
  const batchNumber = (n: string) => Number(/-b(\d+)\.json$/.exec(n)?.[1] ?? 0);
  const names = fs
    .readdirSync(resultsDir)
    .filter((n) => laneOfResult(n) !== undefined)
    .sort(
      (a, b) =>
        Number(laneOfResult(b) === 'unit') - Number(laneOfResult(a) === 'unit') || batchNumber(a) - batchNumber(b) || a.localeCompare(b),
    );
  const runs: LaneRun[] = names.flatMap((name) => {
    const lane = laneOfResult(name) as string;
    const file = path.join(resultsDir, name);
    try {
      return [{ lane, result: JSON.parse(fs.readFileSync(file, 'utf8')) as JestJson }];
    } catch (e) {
      console.error(`test-timings: ${file} is not jest's JSON (${(e as Error).message}); left out of lane ${lane}`);
      return [];
    }
  });
  const guestStarts = runs
    .filter((r) => isIntegrationLane(r.lane))
    .flatMap((r) => r.result.testResults.map((t) => t.startTime))
    .filter((ms) => ms > 0);
  const since = guestStarts.length ? Math.min(...guestStarts) : Infinity;
  const logDirs = [process.env.VIRTSEED_QEMU_LOG_DIR ?? '/var/log/libvirt/qemu', ...subfolders(path.join(resultsDir, 'qemu-logs'))];
  const starts = Number.isFinite(since) ? logDirs.flatMap((d) => readQemuStarts(d, since)) : [];
  const literals = new Map(integrationFiles(root, 'test').map((f) => [f, nameLiterals(fs.readFileSync(path.join(root, f), 'utf8'))]));
  const read = (name: string) => {
    try {
      return fs.readFileSync(path.join(resultsDir, name), 'utf8');
    } catch {
      return undefined;
    }
  };
  const cpu = parseCpuLog(read('cpu.jsonl') ?? '', root);
  const sampled = read('guest-cpu.jsonl');
  const processes = sampled === undefined ? undefined : parseGuestCpuLog(sampled);
  const cpuBetween = (from: string, to: string): MachineCpu | undefined => {
    const [a, b] = [read(from), read(to)];
    try {
      return a && b ? machineCpu(a, b) : undefined;
    } catch (e) {
      console.error(`test-timings: ${from}: ${(e as Error).message}; machine CPU left out`);
      return undefined;
    }
  };
  const unitPhaseCpu = cpuBetween('proc-stat.unit-start', 'proc-stat.start');
  const image = parseImageBuild(read('image.start'), read('image.end'), read('image.log'));
  const timings: Timings = {
    ...buildTimings(runs, starts, literals, root, cpu, cpuBetween('proc-stat.start', 'proc-stat.end'), processes),
    ...(unitPhaseCpu ? { unitPhaseCpu } : {}),
    ...(image ? { image } : {}),
  };
  fs.writeFileSync(path.join(resultsDir, 'timings.json'), JSON.stringify(timings, null, 2) + '\n');
  fs.writeFileSync(path.join(resultsDir, 'timings.md'), `# Test timings\n\n${renderTimings(timings)}`);
  process.stdout.write(renderTimings(timings, 10));
}

// Run from the checkout (scripts/test-all.sh does): `node dist/scripts/test-timings.js [results folder]`.
if (require.main === module) main(path.resolve(process.argv[2] ?? 'test-results'), process.cwd());
