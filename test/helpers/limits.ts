/**
 * How long the integration tests may wait (issue #33: a stuck guest fails its test in minutes, with the console's
 * last lines, instead of holding a lane for 40–60 minutes). Every bound can be raised for a slow machine through
 * the environment; the defaults hold on a 2-core machine with another guest booting beside:
 * - VIRTSEED_TEST_CONSOLE_SILENCE_S (240): a wait on a guest fails once its console has written nothing for this
 *   long (waitForConsole; a terraform call that has a guest's console growing is stopped, terraform.ts);
 * - VIRTSEED_TEST_MAX_TEST_S (1200): no test or hook runs longer (limits-environment.ts clamps jest's timeouts, and
 *   every terraform call is bounded by it, since a blocking call would hold the lane past jest's timeout);
 * - VIRTSEED_TEST_MAX_FILE_S (2400): once a file has run this long its remaining tests and set-up hooks fail at once
 *   (its afterAll teardown still runs).
 */
import * as fs from 'node:fs';

function seconds(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds, got ${JSON.stringify(raw)}`);
  return n;
}

/** Console silence (ms) after which a wait on a guest fails. */
export function consoleSilenceMs(): number {
  return seconds('VIRTSEED_TEST_CONSOLE_SILENCE_S', 240) * 1000;
}

/** Longest a test, a hook or one terraform call may run (ms). */
export function maxTestMs(): number {
  return seconds('VIRTSEED_TEST_MAX_TEST_S', 1200) * 1000;
}

/** Longest a test file may run before its remaining tests fail at once (ms). */
export function maxFileMs(): number {
  return seconds('VIRTSEED_TEST_MAX_FILE_S', 2400) * 1000;
}

/**
 * The timeout (ms) of a test or hook that asked for `askedMs`, when its file has `leftMs` left of its bound:
 * at most `maxTestMs`; a test or set-up hook also at most what the file has left, but never under 1 s (it then fails
 * with jest's timeout message); a teardown (`afterAll`, `afterEach`) keeps the per-test bound so it still runs.
 */
export function boundTimeout(askedMs: number, teardown: boolean, leftMs: number, maxTest: number): number {
  const bound = Math.min(askedMs, maxTest);
  if (teardown || leftMs >= bound) return bound;
  return Math.max(1000, leftMs);
}

/** The last `n` lines of a file ('' when it cannot be read), CR removed. */
export function lastLines(file: string, n = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').replace(/\r/g, '').replace(/\n$/, '').split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}

/** The last `n` lines of each console, under a header naming it (for failure messages). */
export function consoleTails(files: readonly string[], n = 40): string {
  return files.map((f) => `--- last ${n} lines of ${f}:\n${lastLines(f, n) || '(nothing: the file is missing or empty)'}`).join('\n');
}
