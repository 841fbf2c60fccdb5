/** Runs every benchmark in turn: `npm run bench`. Add a bench by importing its runner and listing it here.
 *  `npm run bench -- NAME...` runs only the benches whose names contain one of the given words. */
import { runBackupBench } from './backup';
import { runBootBench } from './boot';
import { largeSeedGoalRows, runCliBench } from './cli';
import { runDeployBench } from './deploy';
import { runDomainReadBench } from './domain-read';
import { runFleetBench } from './fleet';
import { runIsoBench } from './iso';
import { runSeedMemoryBench } from './seed-memory';
import { runSnapshotBench } from './snapshot';
import { runStartupBench } from './startup';
import { runTerraformBench } from './terraform';
import { runUploadBench } from './upload';

const benches: { name: string; run: () => unknown }[] = [
  { name: 'iso9660', run: () => largeSeedGoalRows(runIsoBench()) },
  { name: 'seed build process', run: () => runCliBench() },
  { name: 'provider start-up', run: () => runStartupBench() },
  { name: 'terraform at scale', run: () => runTerraformBench() },
  { name: 'fleet over 3 hosts', run: () => runFleetBench() },
  { name: 'domain read with devices', run: () => runDomainReadBench() },
  { name: 'volume upload', run: () => runUploadBench() },
  { name: 'seed memory', run: () => runSeedMemoryBench() },
  { name: 'guest boot', run: () => runBootBench() },
  { name: 'deploy basic', run: () => runDeployBench() },
  { name: 'snapshot before re-provision', run: () => runSnapshotBench() },
  { name: 'backup and restore of a 2 GiB disk', run: () => runBackupBench() },
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  for (const bench of benches.filter((b) => !only.length || only.some((word) => b.name.includes(word)))) {
    console.log(`\n== ${bench.name} ==`);
    try {
      await bench.run();
    } catch (err) {
      // One broken bench (a missing tool, a rule that changed) does not hide the others' rows.
      console.error(`bench ${bench.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exitCode = 1;
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
