/** Entry point of terraform-provider-virtseed (provider/bin/terraform-provider-virtseed runs the built copy). */
import { PROVIDER_SCHEMA } from './config';
import { serve } from './plugin/serve';
import { hostConnector, resourceHandlers } from './registry';

serve({ providerSchema: PROVIDER_SCHEMA, resources: resourceHandlers(), connector: hostConnector() }).catch((err: unknown) => {
  process.stderr.write(`terraform-provider-virtseed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
