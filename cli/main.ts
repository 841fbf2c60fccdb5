/** `virtseed` command line: a thin layer over src/seed. Exit code 2 for usage and input errors. */
import { parseArgs } from 'node:util';
import { SEED_BUILD_USAGE, seedBuild } from './commands/seed-build';
import { SEED_SHOW_USAGE, seedShow } from './commands/seed-show';
import { providerCommand, PROVIDER_USAGE } from './commands/provider';
import { processIo, type CliIo } from './io';

const USAGE = `${SEED_BUILD_USAGE}\n${SEED_SHOW_USAGE}\n${PROVIDER_USAGE}\n`;

/** Runs the CLI with argv (without node and script) and returns the exit code. */
export function main(argv: string[], io: CliIo = processIo): number {
  const [group, command, ...rest] = argv;
  if (group === 'provider') return providerCommand(argv.slice(1), io);
  if (group !== 'seed' || (command !== 'build' && command !== 'show')) {
    io.stderr(USAGE);
    return argv.length === 0 || group === '--help' || group === '-h' ? 0 : 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { output: { type: 'string', short: 'o' }, format: { type: 'string', short: 'f' } },
    });
  } catch (e) {
    io.stderr(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (command === 'build') {
    if (positionals.length !== 1 || values.output === undefined) {
      io.stderr(`${SEED_BUILD_USAGE}\n`);
      return 2;
    }
    return seedBuild({ spec: positionals[0] as string, output: values.output, ...(values.format ? { format: values.format } : {}) }, io);
  }
  if (positionals.length !== 1) {
    io.stderr(`${SEED_SHOW_USAGE}\n`);
    return 2;
  }
  return seedShow({ iso: positionals[0] as string }, io);
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
