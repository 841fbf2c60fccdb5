/**
 * When a wait on a booting guest gives up (`virtseed_domain.wait_timeout`): on silence, not on a clock started at
 * boot. A guest whose serial console keeps printing (kernel, systemd, cloud-init's stage lines) is making progress,
 * however slow the host (TCG under load boots in many minutes); one that prints nothing for `wait_timeout` seconds
 * is stuck. A guest that prints for ever without finishing (a boot loop) is stopped by a total bound,
 * {@link TOTAL_PER_SILENCE} times `wait_timeout`. Pure: times are milliseconds on any one clock.
 */

/** The total bound of a wait as a multiple of its silence bound: 600 s of silence allows one hour in all. */
export const TOTAL_PER_SILENCE = 6;

/** The bounds of one wait, in seconds. */
export interface WaitBounds {
  /** The longest the console may stay silent (no new byte). */
  readonly silenceS: number;
  /** The longest the whole wait may take, from the guest's start. */
  readonly totalS: number;
}

/** The bounds for `wait_timeout` = `waitTimeoutS` seconds (> 0). */
export function waitBounds(waitTimeoutS: number): WaitBounds {
  return { silenceS: waitTimeoutS, totalS: waitTimeoutS * TOTAL_PER_SILENCE };
}

/** What a wait does now: go on (and look again at `checkAtMs` at the latest), or give up and why. */
export type WaitVerdict =
  | { readonly kind: 'wait'; readonly checkAtMs: number }
  | { readonly kind: 'silent'; readonly silentMs: number }
  | { readonly kind: 'too-long'; readonly elapsedMs: number };

/**
 * The decision at `nowMs` for a wait started at `startedMs` whose guest last printed at `lastOutputMs` (the start
 * when it has printed nothing yet). The total bound wins when both are passed.
 */
export function waitVerdict(bounds: WaitBounds, startedMs: number, lastOutputMs: number, nowMs: number): WaitVerdict {
  const totalEnd = startedMs + bounds.totalS * 1000;
  const silenceEnd = Math.max(startedMs, lastOutputMs) + bounds.silenceS * 1000;
  if (nowMs >= totalEnd) return { kind: 'too-long', elapsedMs: nowMs - startedMs };
  if (nowMs >= silenceEnd) return { kind: 'silent', silentMs: nowMs - Math.max(startedMs, lastOutputMs) };
  return { kind: 'wait', checkAtMs: Math.min(totalEnd, silenceEnd) };
}
