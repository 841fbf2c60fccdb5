/**
 * `virtseed plan-summary [--format markdown|json] [--title TEXT] [--fail-on restart|replace] PLAN.json`: the summary of a saved
 * Terraform plan for a review (cli/plan-summary/). PLAN.json is the output of `terraform show -json PLANFILE`;
 * `-` reads it from stdin.
 *
 * Exit codes: 0 summary printed; 2 usage error or input that is not a plan's JSON (the message says which);
 * 3 summary printed and the plan holds a change at or above `--fail-on` (`restart`: a restart, replacement or
 * destruction, or an update whose impact the plan leaves unknown; `replace`: a replacement or destruction).
 */
import { readFileSync } from 'node:fs';
import { reaches, type Level } from '../plan-summary/impact';
import { renderMarkdown } from '../plan-summary/markdown';
import { parsePlanJson, PlanJsonError } from '../plan-summary/plan-json';
import { summarizePlan } from '../plan-summary/summarize';
import type { CliIo } from '../io';

export const FAIL_ON = ['restart', 'replace'] as const;
export const FORMATS = ['markdown', 'json'] as const;

/** Exit code when the plan holds a change at or above `--fail-on`. */
const EXIT_FAIL_ON = 3;

export interface PlanSummaryArgs {
  /** A file, or `-` for stdin. */
  readonly plan: string;
  readonly format?: (typeof FORMATS)[number];
  /** Heading of the Markdown. */
  readonly title?: string;
  readonly failOn?: (typeof FAIL_ON)[number];
}

function readInput(plan: string, io: CliIo): string {
  if (plan !== '-') return readFileSync(plan, 'utf8');
  if (!io.stdin) throw new Error('stdin is not available');
  return new TextDecoder().decode(io.stdin());
}

/** Runs the command (see the module comment for the exit codes). */
export function planSummary(args: PlanSummaryArgs, io: CliIo): number {
  const name = args.plan === '-' ? '(stdin)' : args.plan;
  let text: string;
  try {
    text = readInput(args.plan, io);
  } catch (e) {
    io.stderr(`virtseed plan-summary: cannot read ${name}: ${(e as Error).message}\n`);
    return 2;
  }
  let summary;
  try {
    summary = summarizePlan(parsePlanJson(text));
  } catch (e) {
    if (!(e instanceof PlanJsonError)) throw e;
    io.stderr(`virtseed plan-summary: ${name}: ${e.message}\n`);
    return 2;
  }
  const threshold: Level | undefined = args.failOn;
  const hits = threshold ? summary.resources.filter((r) => reaches(r.impact, threshold)) : [];
  if (args.format === 'json') {
    io.stdout(`${JSON.stringify({ ...summary, ...(threshold ? { fail_on: threshold, failed: hits.length > 0 } : {}) }, null, 2)}\n`);
  } else {
    io.stdout(renderMarkdown(summary, args.title));
  }
  if (!hits.length) return 0;
  io.stderr(`virtseed plan-summary: --fail-on ${threshold}: ${hits.map((r) => `${r.address} (${r.action}, ${r.impact})`).join(', ')}\n`);
  return EXIT_FAIL_ON;
}
