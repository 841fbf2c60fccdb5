/**
 * Seed memory bench (#9): peak memory of building a seed ISO, against the seed's own size. In a fresh Node process
 * (so peaks of earlier benches do not count): the spec (a 46 MiB binary file, about 61 MiB of user-data) is made,
 * then `buildSeedIso` runs; ours = the rise of the process's peak RSS during the build, anchor = the ISO's size,
 * goal: ours/anchor ≤ 2 (the ISO built in bounded memory, at most twice the seed).
 */
import { spawnSync } from 'node:child_process';
import { formatGoalTable, type GoalRow } from './private/rows';

const CHILD = `
const { buildSeedIso } = require(${JSON.stringify(`${__dirname}/../src/seed`)});
const MiB = 1024 * 1024;
const bytes = Buffer.alloc(46 * MiB);
let x = 0x2545f491;
for (let i = 0; i < bytes.length; i += 4) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; bytes.writeUInt32LE(x >>> 0, i); }
const spec = { instance_id: 'bench-mem', files: [{ path: '/opt/payload.bin', content_base64: bytes.toString('base64') }] };
global.gc && global.gc();
const before = process.resourceUsage().maxRSS * 1024;
const built = buildSeedIso(spec);
const after = process.resourceUsage().maxRSS * 1024;
process.stdout.write(JSON.stringify({ rise: after - before, seed: built.iso.length }));
`;

/** Runs the child and prints the goal row. */
export function runSeedMemoryBench(log: (line: string) => void = console.log): GoalRow[] {
  const r = spawnSync(process.execPath, ['--expose-gc', '-e', CHILD], { encoding: 'utf8', maxBuffer: 1024 * 1024 });
  if (r.status !== 0) throw new Error(`seed memory bench failed:\n${r.stdout}${r.stderr}`);
  const { rise, seed } = JSON.parse(r.stdout) as { rise: number; seed: number };
  const MiB = 1024 * 1024;
  const rows: GoalRow[] = [
    {
      name: 'peak RSS rise building a 61 MiB seed ISO (MiB)',
      unit: 'MiB',
      ours: rise / MiB,
      anchorName: 'the seed ISO size',
      anchor: seed / MiB,
      goal: 2,
    },
  ];
  for (const line of formatGoalTable(rows)) log(line);
  return rows;
}
