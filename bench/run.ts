/** Runs every benchmark in turn: `npm run bench`. Add a bench by importing its runner and listing it here. */
import { runIsoBench } from './iso';

const benches: { name: string; run: () => unknown }[] = [{ name: 'iso9660', run: () => runIsoBench() }];

async function main(): Promise<void> {
  for (const bench of benches) {
    console.log(`\n== ${bench.name} ==`);
    await bench.run();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
