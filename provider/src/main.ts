/**
 * Entry point of terraform-provider-virtseed in a checkout (provider/bin/terraform-provider-virtseed runs the built
 * copy): the first stage (./plugin/start.ts) prints the handshake line, then the second (./run.ts, loaded only then)
 * serves. The installed artifact runs the same two stages from its executable and its bundle
 * (packages/build/provider-artifact.ts).
 */
import { startPlugin } from './plugin/start';
import type * as Run from './run';

startPlugin()
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: the second stage loads after the handshake line (issue #25)
  .then((started) => (require('./run') as typeof Run).run(started))
  .catch((err: unknown) => {
    process.stderr.write(`terraform-provider-virtseed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
