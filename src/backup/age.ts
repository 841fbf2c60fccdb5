/**
 * How old a backup is, in words, for plans and listings. Pure.
 */

/**
 * A duration in milliseconds as its two largest units: `45 s`, `12 min 5 s`, `3 h 12 min`, `2 d 4 h`. Negative
 * durations (a backup "taken" after now: clocks apart) read `0 s`.
 * @throws Error when `ms` is not a finite number.
 */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms)) throw new Error(`age ${ms}: expected a finite number of milliseconds`);
  let s = Math.max(0, Math.floor(ms / 1000));
  const parts: [number, string][] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
  ] as const) {
    parts.push([Math.floor(s / size), unit]);
    s %= size;
  }
  parts.push([s, 's']);
  const first = parts.findIndex(([n]) => n > 0);
  if (first < 0) return '0 s';
  return parts
    .slice(first, first + 2)
    .filter(([n], i) => i === 0 || n > 0)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/**
 * Whether a backup policy's next backup is due at `now`: when there is no backup (`latestTakenAt` null) or the latest
 * is older than `maxAgeSeconds`. `ageMs` is the latest's age (absent without one).
 * @throws Error when `latestTakenAt` is not a date.
 */
export function backupDue(latestTakenAt: string | null, maxAgeSeconds: number, now: Date): { due: boolean; ageMs?: number } {
  if (latestTakenAt === null) return { due: true };
  const at = Date.parse(latestTakenAt);
  if (Number.isNaN(at)) throw new Error(`takenAt "${latestTakenAt}": expected an RFC 3339 time`);
  const ageMs = now.getTime() - at;
  return { due: ageMs > maxAgeSeconds * 1000, ageMs };
}
