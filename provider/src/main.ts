/** Entry point of terraform-provider-virtseed (provider/bin/terraform-provider-virtseed runs the built copy). */
import { PROVIDER_SCHEMA } from './config';
import { serve } from './plugin/serve';
import type { HostFacts } from './host';
import type * as Registry from './registry';

/** The resource handlers (and through them src/seed, src/domain and src/libvirt) load after the handshake line is
 *  written, while Terraform connects (issue #15). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: the handlers load after the handshake line (issue #15)
const registry = (): typeof Registry => require('./registry') as typeof Registry;

let facts: HostFacts | undefined;

serve({
  providerSchema: PROVIDER_SCHEMA,
  resources: () => registry().resourceHandlers(),
  connector: { connect: (uri) => registry().hostConnector().connect(uri) },
  host: { domainType: (uri) => (facts ??= registry().hostFacts()).domainType(uri) },
}).catch((err: unknown) => {
  process.stderr.write(`terraform-provider-virtseed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
