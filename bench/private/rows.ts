/** Shared pieces of the process-level benches: medians, alternating runs, and the ours/anchor/ratio table. */
import { loadavg } from 'node:os';

/** One measured figure beside its anchor. `lowerIsBetter` false for throughputs. */
export interface GoalRow {
  readonly name: string;
  readonly unit: string;
  readonly ours: number;
  readonly anchorName: string;
  readonly anchor: number;
  /** The goal as a bound on ours/anchor (time: ratio ≤ goal; throughput: ratio ≥ goal), or an absolute bound on
   *  ours when `absolute` is set. Undefined: printed for information only. */
  readonly goal?: number;
  readonly absolute?: boolean;
  readonly lowerIsBetter?: boolean;
  readonly note?: string;
  /** The 1-minute load average while it was measured (`lo–hi`, from {@link loadRange}): figures taken on a busy
   *  machine say so beside them. */
  readonly load?: string;
}

/** The machine's 1-minute load average now. */
export function loadNow(): number {
  return loadavg()[0] ?? 0;
}

/** `lo–hi` of load averages sampled while a measurement ran. */
export function loadRange(samples: readonly number[]): string {
  return samples.length ? `${Math.min(...samples).toFixed(2)}–${Math.max(...samples).toFixed(2)}` : '-';
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs each variant `runs` times, alternating (a b a b …) so machine load hits all alike; medians per variant.
 *  `loads`, when given, receives the load average sampled before each round. */
export async function alternate(runs: number, variants: readonly (() => Promise<number> | number)[], loads?: number[]): Promise<number[]> {
  const samples = variants.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    loads?.push(loadNow());
    for (let v = 0; v < variants.length; v++) samples[v].push(await variants[v]());
  }
  return samples.map(median);
}

const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** `ours/anchor`, and whether the goal holds. */
export function verdict(row: GoalRow): { ratio: number; holds: boolean | undefined } {
  const ratio = row.ours / row.anchor;
  if (row.goal === undefined) return { ratio, holds: undefined };
  if (row.absolute) return { ratio, holds: row.lowerIsBetter === false ? row.ours >= row.goal : row.ours <= row.goal };
  return { ratio, holds: row.lowerIsBetter === false ? ratio >= row.goal : ratio <= row.goal };
}

/** A fixed-width table: figure, ours, anchor, ratio, goal, holds. */
export function formatGoalTable(rows: readonly GoalRow[]): string[] {
  const header = ['figure', 'ours', 'anchor', 'anchor value', 'ours/anchor', 'goal', 'holds', 'load'];
  const body = rows.map((r) => {
    const { ratio, holds } = verdict(r);
    const cmp = r.lowerIsBetter === false ? '≥' : '≤';
    const goal = r.goal === undefined ? '-' : r.absolute ? `${cmp} ${r.goal} ${r.unit}` : `${cmp} ${r.goal}x`;
    return [
      r.name + (r.note ? ` (${r.note})` : ''),
      `${fmt(r.ours)} ${r.unit}`,
      r.anchorName,
      `${fmt(r.anchor)} ${r.unit}`,
      `${ratio.toFixed(2)}x`,
      goal,
      holds === undefined ? '-' : holds ? 'yes' : 'NO',
      r.load ?? '-',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i === 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
}
