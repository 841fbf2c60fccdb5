/**
 * `virtseed seed build` as a whole process (Node start, argument parsing, reading, ISO write) against
 * `cloud-localds` (cloud-image-utils) on the same inputs and arguments (`OUTPUT USER-DATA META-DATA`, the user-data
 * and meta-data a typical spec renders to), and from the spec itself (`SPEC -o ISO`: also validation and rendering).
 * Goal (issue #25): within 1.3× Node's own start (`node -e 0`), the floor of any Node program; cloud-localds is printed
 * beside for information. Alternating runs, medians, with the load average while they ran.
 * Also the whole 64 MiB seed from a spec (bench/iso.ts `spec→iso 64MiB`) against genisoimage on its files:
 * goal at least as fast.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderSeed, type SeedSpec } from '../src/seed';
import type { IsoBenchRow } from './iso';
import { run } from './private/command';
import { alternate, formatGoalTable, GoalRow, loadRange } from './private/rows';

const ROOT = join(__dirname, '..', '..');

const SPEC: SeedSpec = {
  instance_id: 'bench-1',
  hostname: 'bench',
  public_keys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBenchKey0000000000000000000000000000000000 bench'],
  cloud_config: {
    users: [
      {
        name: 'alice',
        shell: '/bin/bash',
        ssh_authorized_keys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAlice000000000000000000000000000000000000000 alice'],
      },
    ],
    packages: ['nginx', 'curl'],
    runcmd: ['systemctl enable --now nginx'],
  },
};

const timed = (cmd: string, args: string[]): number => run(cmd, args).ms;

export async function runCliBench(runs = 15, log: (line: string) => void = console.log): Promise<GoalRow[]> {
  const work = mkdtempSync(join(tmpdir(), 'virtseed-bench-cli-'));
  try {
    writeFileSync(join(work, 'spec.json'), JSON.stringify(SPEC));
    const files = renderSeed(SPEC).files;
    const content = (name: string) => files.find((f) => f.path === name)?.content ?? new Uint8Array();
    writeFileSync(join(work, 'user-data'), content('user-data'));
    writeFileSync(join(work, 'meta-data'), content('meta-data'));
    const ours = () =>
      timed(process.execPath, [
        join(ROOT, 'bin', 'virtseed'),
        'seed',
        'build',
        join(work, 'ours.iso'),
        join(work, 'user-data'),
        join(work, 'meta-data'),
      ]);
    const oursSpec = () =>
      timed(process.execPath, [join(ROOT, 'bin', 'virtseed'), 'seed', 'build', join(work, 'spec.json'), '-o', join(work, 'spec.iso')]);
    const theirs = () => timed('cloud-localds', [join(work, 'theirs.iso'), join(work, 'user-data'), join(work, 'meta-data')]);
    const floor = () => timed(process.execPath, ['-e', '0']);
    ours();
    oursSpec();
    theirs();
    const loads: number[] = [];
    const [oursMs, specMs, theirsMs, floorMs] = await alternate(runs, [ours, oursSpec, theirs, floor], loads);
    const load = loadRange(loads);
    const rows: GoalRow[] = [
      {
        name: 'virtseed seed build OUT USER-DATA META-DATA (process)',
        unit: 'ms',
        ours: oursMs,
        anchorName: 'node -e 0',
        anchor: floorMs,
        goal: 1.3,
        load,
      },
      {
        name: 'virtseed seed build SPEC -o OUT (process)',
        unit: 'ms',
        ours: specMs,
        anchorName: 'node -e 0',
        anchor: floorMs,
        goal: 1.3,
        load,
      },
      {
        name: 'virtseed seed build OUT USER-DATA META-DATA (process)',
        unit: 'ms',
        ours: oursMs,
        anchorName: 'cloud-localds',
        anchor: theirsMs,
        load,
      },
      { name: 'node -e 0 (Node floor)', unit: 'ms', ours: floorMs, anchorName: 'cloud-localds', anchor: theirsMs, load },
    ];
    log(`seed build as a process (median of ${runs} alternating runs)`);
    for (const line of formatGoalTable(rows)) log(line);
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The goal row of the whole 64 MiB seed, from the ISO bench's rows. */
export function largeSeedGoalRows(rows: readonly IsoBenchRow[], log: (line: string) => void = console.log): GoalRow[] {
  const row = rows.find((r) => r.name === 'spec→iso 64MiB');
  if (!row || row.genisoimageMs === undefined) return [];
  const goal: GoalRow[] = [
    {
      name: 'whole 64 MiB seed from a spec (in process, warm)',
      unit: 'ms',
      ours: row.oursMs,
      anchorName: 'genisoimage on its files',
      anchor: row.genisoimageMs,
      goal: 1,
    },
    {
      name: 'whole 64 MiB seed from a spec, written to a file',
      unit: 'ms',
      ours: row.oursWriteMs,
      anchorName: 'genisoimage on its files',
      anchor: row.genisoimageMs,
      goal: 1,
    },
  ];
  for (const line of formatGoalTable(goal)) log(line);
  return goal;
}
