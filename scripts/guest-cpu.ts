/**
 * The guests' CPU for the timing table (issue #33): a sampler of the machine's QEMU processes and libvirt daemons,
 * run by scripts/test-all.sh beside the integration lanes (`node dist/scripts/guest-cpu.js OUT`; it stops on SIGTERM
 * or SIGINT). Guests run under libvirtd, detached from the test that asked for them, so a test file's own CPU
 * (test/helpers/process-cpu.ts) never holds them; under TCG they are most of the rest of the machine's CPU.
 *
 * How: every 2 s it lists the machine's processes and reads `/proc/<pid>/stat` (proc(5): command name, parent, start
 * time, utime and stime, in clock ticks of 1/100 s; a process's utime and stime include all its threads') of those it
 * follows and of those it first saw less than 10 s ago (a process forked by libvirtd becomes QEMU by exec within
 * that; an older one is known by its first reads), and every 0.5 s those of the QEMU processes it follows. A `qemu-system-*` process is a guest: its name is QEMU's `-name guest=NAME,...`
 * argument (`/proc/<pid>/cmdline`), which is the libvirt domain's name. A libvirt daemon (`libvirtd`, `virtqemud`,
 * `virtlogd`…) or a helper libvirt starts per guest or network (`swtpm`, `virtiofsd`, `dnsmasq`) is counted as
 * libvirt's, unless it runs under a `node` process: then it is a test's own daemon (test/faults/own-libvirtd.ts,
 * test/helpers/hosts.ts), in that file's own CPU once reaped. CPU counters are cumulative, so a process seen late
 * loses nothing; one that ends between two reads loses what it used since the last (QEMU: at most 0.5 s); a
 * process that lived less than 2 s may not be seen at all (no guest boots in that time). A process that was
 * already running when the sampler started counts only what it used after.
 *
 * OUT gets one JSON line per process when it ends (or, still running, when the sampler stops), and one for the
 * sampler's own CPU: see {@link ProcessRecord}. scripts/test-timings.ts gives each QEMU process to the test file that
 * started it (by its start time and the file's name literals, as it does the QEMU starts) and sums the rest.
 */
import * as fs from 'node:fs';
import { CLOCK_TICKS, procStatFields } from '../test/helpers/process-cpu';

/** What a process is to the table: a guest (`qemu`) or one of libvirt's daemons and helpers (`libvirt`). */
export type ProcessKind = 'qemu' | 'libvirt';

/**
 * One line of the sampler's output. `qemu`: `name` is the guest's (empty when QEMU had no `-name`); `libvirt`:
 * `comm` is the command name. `startMs`, `endMs`: the process's start and the last time it was seen (ms since the
 * epoch); `cpuSeconds`: user + system CPU over that time (after the sampler started); `running`: still running
 * when the sampler stopped. `sampler`: the sampler's own CPU seconds.
 */
export type ProcessRecord =
  | {
      readonly kind: ProcessKind;
      readonly pid: number;
      readonly name: string;
      readonly comm: string;
      readonly startMs: number;
      readonly endMs: number;
      readonly cpuSeconds: number;
      readonly running?: true;
    }
  | { readonly kind: 'sampler'; readonly cpuSeconds: number };

/** The parts of a `/proc/<pid>/stat` line read: `startTicks` since boot, `cpuTicks` utime + stime. */
export interface ProcStat {
  readonly pid: number;
  readonly comm: string;
  readonly ppid: number;
  readonly startTicks: number;
  readonly cpuTicks: number;
}

/**
 * Parses a `/proc/<pid>/stat` line (proc(5): field 2 the command name in parentheses, which may hold spaces and
 * parentheses; 4 ppid; 14, 15 utime, stime; 22 starttime). Throws when the line has too few fields.
 */
export function parseStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  const f = procStatFields(line);
  // f[0] is field 3 (state): ppid is f[1], utime f[11], stime f[12], starttime f[19].
  const nums = [line.slice(0, open), f[1], f[11], f[12], f[19]].map(Number);
  if (open < 0 || close < open || nums.some((n) => !Number.isFinite(n)) || f.length < 20)
    throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  const [pid, ppid, utime, stime, start] = nums;
  return { pid, comm: line.slice(open + 1, close), ppid, startTicks: start, cpuTicks: utime + stime };
}

/**
 * The guest's name in a QEMU command line (`args`, e.g. `/proc/<pid>/cmdline` split at NUL): the value of
 * `-name guest=NAME,...` or `-name NAME,...` (QEMU's option syntax: `,,` is a literal comma); '' without `-name`.
 */
export function qemuGuestName(args: readonly string[]): string {
  const i = args.indexOf('-name');
  if (i < 0 || i + 1 >= args.length) return '';
  const value = args[i + 1];
  // The first element of the option string, up to a single comma.
  const parts: string[] = [];
  let cur = '';
  for (let k = 0; k < value.length; k++) {
    if (value[k] === ',' && value[k + 1] === ',') {
      cur += ',';
      k++;
    } else if (value[k] === ',') {
      parts.push(cur);
      cur = '';
    } else cur += value[k];
  }
  parts.push(cur);
  const guest = parts.find((p) => p.startsWith('guest='));
  if (guest) return guest.slice('guest='.length);
  return parts[0].includes('=') ? '' : parts[0];
}

const LIBVIRT_COMMANDS = new Set([
  'libvirtd',
  'virtqemud',
  'virtlogd',
  'virtlockd',
  'virtnetworkd',
  'virtstoraged',
  'virtnodedevd',
  'virtsecretd',
  'virtinterfaced',
  'virtnwfilterd',
  'virtproxyd',
  'swtpm',
  'virtiofsd',
  'dnsmasq',
]);

/**
 * What process `pid` is, from one full read of the machine's processes (`byPid`): `qemu` for a `qemu-system-*`
 * command (the kernel cuts command names to 15 characters), `libvirt` for a libvirt daemon or helper with no `node`
 * process above it (see the module comment), otherwise undefined.
 */
export function classify(pid: number, byPid: ReadonlyMap<number, ProcStat>): ProcessKind | undefined {
  const p = byPid.get(pid);
  if (!p) return undefined;
  if (p.comm.startsWith('qemu-system-')) return 'qemu';
  if (!LIBVIRT_COMMANDS.has(p.comm)) return undefined;
  const seen = new Set<number>();
  for (let up = byPid.get(p.ppid); up && !seen.has(up.pid); up = byPid.get(up.ppid)) {
    if (up.comm === 'node') return undefined;
    seen.add(up.pid);
  }
  return 'libvirt';
}

interface Tracked {
  kind: ProcessKind;
  readonly pid: number;
  name: string;
  comm: string;
  readonly startMs: number;
  readonly baseTicks: number;
  cpuTicks: number;
  lastSeenMs: number;
}

/**
 * The processes followed and what they used. `bootMs`: the machine's boot time (`btime` of /proc/stat, in ms);
 * `sinceMs`: when the sampler started (a process started before counts from its first read).
 * `nameOf(pid)` reads a QEMU's guest name (called once per QEMU process).
 */
export class ProcessLedger {
  private readonly tracked = new Map<string, Tracked>();

  constructor(
    private readonly bootMs: number,
    private readonly sinceMs: number,
    private readonly nameOf: (pid: number) => string,
  ) {}

  /** The pids of the QEMU processes followed (to read between full reads). */
  qemuPids(): number[] {
    return [...this.tracked.values()].filter((t) => t.kind === 'qemu').map((t) => t.pid);
  }

  /** The pids of every process followed. */
  trackedPids(): Set<number> {
    return new Set([...this.tracked.values()].map((t) => t.pid));
  }

  /**
   * Takes a read at `nowMs`. `full`: `stats` holds every process of the machine (a process followed and absent has
   * ended); otherwise only some of those followed (absent: not read this time, or ended: then the next full read
   * says so). Returns the records of the processes that ended.
   */
  observe(nowMs: number, stats: readonly ProcStat[], full: boolean): ProcessRecord[] {
    const byPid = new Map(stats.map((s) => [s.pid, s]));
    const present = new Set<string>();
    for (const s of stats) {
      const key = `${s.pid}:${s.startTicks}`;
      present.add(key);
      let t = this.tracked.get(key);
      const kind = full ? classify(s.pid, byPid) : t?.kind;
      if (!kind) continue;
      if (!t) {
        const startMs = Math.round(this.bootMs + (s.startTicks * 1000) / CLOCK_TICKS);
        t = {
          kind,
          pid: s.pid,
          name: '',
          comm: s.comm,
          startMs,
          baseTicks: startMs < this.sinceMs ? s.cpuTicks : 0,
          cpuTicks: s.cpuTicks,
          lastSeenMs: nowMs,
        };
        this.tracked.set(key, t);
      }
      if (kind === 'qemu' && t.kind !== 'qemu') t.name = '';
      if (kind === 'qemu' && !t.name) t.name = this.nameOf(s.pid);
      t.kind = kind;
      t.comm = s.comm;
      t.cpuTicks = s.cpuTicks;
      t.lastSeenMs = nowMs;
    }
    if (!full) return [];
    const ended: ProcessRecord[] = [];
    for (const [key, t] of this.tracked)
      if (!present.has(key)) {
        ended.push(record(t));
        this.tracked.delete(key);
      }
    return ended;
  }

  /** Records of the processes still followed (marked running), when the sampler stops. */
  stillRunning(): ProcessRecord[] {
    return [...this.tracked.values()].map((t) => ({ ...record(t), running: true as const }));
  }
}

function record(t: Tracked): ProcessRecord {
  return {
    kind: t.kind,
    pid: t.pid,
    name: t.name,
    comm: t.comm,
    startMs: t.startMs,
    endMs: t.lastSeenMs,
    cpuSeconds: Math.round(((t.cpuTicks - t.baseTicks) * 100) / CLOCK_TICKS) / 100,
  };
}

/** Parses the sampler's output (one {@link ProcessRecord} a line); torn or unknown lines are skipped. */
export function parseGuestCpuLog(text: string): ProcessRecord[] {
  const out: ProcessRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as Partial<Record<string, unknown>>;
      if (r.kind === 'sampler' && typeof r.cpuSeconds === 'number') out.push({ kind: 'sampler', cpuSeconds: r.cpuSeconds });
      else if (
        (r.kind === 'qemu' || r.kind === 'libvirt') &&
        typeof r.pid === 'number' &&
        typeof r.startMs === 'number' &&
        typeof r.endMs === 'number' &&
        typeof r.cpuSeconds === 'number'
      )
        out.push({
          kind: r.kind,
          pid: r.pid,
          name: typeof r.name === 'string' ? r.name : '',
          comm: typeof r.comm === 'string' ? r.comm : '',
          startMs: r.startMs,
          endMs: r.endMs,
          cpuSeconds: r.cpuSeconds,
          ...(r.running === true ? { running: true as const } : {}),
        });
    } catch {
      // a torn line: left out
    }
  }
  return out;
}

/** How long a process is read at every full read after it was first seen (see the module comment). */
const YOUNG_MS = 10_000;

/** Every process's stat line that could be read (processes end while being read). */
function readAll(pids: Iterable<number>): ProcStat[] {
  const out: ProcStat[] = [];
  for (const pid of pids) {
    try {
      out.push(parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

function allPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

/** Runs the sampler until SIGTERM or SIGINT, appending records to `out`. */
export function main(out: string): void {
  const boot = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
  if (!boot) throw new Error('/proc/stat has no btime line');
  const nameOf = (pid: number) => {
    try {
      return qemuGuestName(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
    } catch {
      return '';
    }
  };
  const ledger = new ProcessLedger(Number(boot[1]) * 1000, Date.now(), nameOf);
  const write = (records: readonly ProcessRecord[]) => {
    if (records.length) fs.appendFileSync(out, records.map((r) => JSON.stringify(r) + '\n').join(''));
  };
  let tick = 0;
  // The last read of every process (its name and parent for classify) and when it was first seen.
  const known = new Map<number, { stat: ProcStat; firstMs: number }>();
  const fullRead = (now: number): ProcStat[] => {
    const pids = new Set(allPids());
    for (const pid of known.keys()) if (!pids.has(pid)) known.delete(pid);
    const followed = ledger.trackedPids();
    const toRead = [...pids].filter((pid) => {
      const k = known.get(pid);
      return !k || followed.has(pid) || now - k.firstMs < YOUNG_MS;
    });
    for (const stat of readAll(toRead)) known.set(stat.pid, { stat, firstMs: known.get(stat.pid)?.firstMs ?? now });
    return [...known.values()].map((k) => k.stat);
  };
  const sample = (full: boolean) => {
    const now = Date.now();
    write(ledger.observe(now, full ? fullRead(now) : readAll(ledger.qemuPids()), full));
  };
  sample(true);
  const timer = setInterval(() => sample(++tick % 4 === 0), 500);
  const stop = () => {
    clearInterval(timer);
    sample(true);
    write(ledger.stillRunning());
    const { user, system } = process.cpuUsage();
    write([{ kind: 'sampler', cpuSeconds: Math.round((user + system) / 1e4) / 100 }]);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (require.main === module) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node dist/scripts/guest-cpu.js OUT.jsonl');
    process.exit(2);
  }
  main(out);
}
