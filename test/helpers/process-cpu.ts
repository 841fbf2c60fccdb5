/**
 * CPU time of this process and of the children it has waited for (terraform, the provider, npm, cdktf…: every
 * command a test ran and reaped), from `/proc/self/stat` (proc(5): fields 14–17, utime, stime, cutime, cstime, in
 * clock ticks of 1/100 s on Linux). Guests are not in it: libvirtd starts QEMU detached from the test.
 * The integration environment (limits-environment.ts) records it per test file for the timing table
 * (scripts/test-timings.ts) when `VIRTSEED_TEST_CPU_LOG` names a file.
 */
import * as fs from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` (`getconf CLK_TCK`; 100 on Linux). */
export const CLOCK_TICKS = 100;

/**
 * The fields of a `/proc/<pid>/stat` line after the command name (proc(5): field 2, in parentheses, may hold spaces
 * and parentheses): element 0 is field 3 (state), element N field N + 3.
 */
export function procStatFields(stat: string): string[] {
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/);
}

/**
 * Seconds of CPU (user + system) of this process plus its reaped children, parsed from a `/proc/<pid>/stat` line
 * (`stat`: the whole line; the command name in parentheses may hold spaces). Throws when the line has too few fields.
 */
export function parseProcStatCpu(stat: string): number {
  const fields = procStatFields(stat);
  // fields[0] is field 3 (state): utime..cstime are fields 14..17, i.e. fields[11..14].
  const ticks = fields.slice(11, 15).map(Number);
  if (ticks.length !== 4 || ticks.some((t) => !Number.isFinite(t))) throw new Error(`not a /proc/<pid>/stat line: ${stat.slice(0, 80)}`);
  return ticks.reduce((a, b) => a + b, 0) / CLOCK_TICKS;
}

/** This process's CPU seconds plus its reaped children's; 0 where `/proc` cannot be read. */
export function processCpuSeconds(): number {
  try {
    return parseProcStatCpu(fs.readFileSync('/proc/self/stat', 'utf8'));
  } catch {
    return 0;
  }
}

/**
 * Appends one JSON line `{"file": testPath, "cpuSeconds": n}` to `$VIRTSEED_TEST_CPU_LOG` when it is set. Never
 * throws: the table then lacks the figure, and the test's own outcome is what counts.
 */
export function recordFileCpu(testPath: string, cpuSeconds: number): void {
  const log = process.env.VIRTSEED_TEST_CPU_LOG;
  if (!log) return;
  try {
    fs.appendFileSync(log, JSON.stringify({ file: testPath, cpuSeconds: Math.round(cpuSeconds * 10) / 10 }) + '\n');
  } catch {
    // unwritable log: nothing recorded
  }
}
