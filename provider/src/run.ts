/**
 * The provider's second stage (provider/src/plugin/serve.ts `serveStarted`) with its schema and handlers: gRPC on the
 * socket the first stage listens on. The resource and data source handlers (and through them src/seed, src/domain and src/libvirt)
 * load here, while Terraform connects (start-up time, issues #15 and #25). The installed artifact's bundle is this
 * module; provider/src/main.ts runs both stages in a checkout.
 */
import { PROVIDER_SCHEMA } from './config';
import type { HostFacts } from './host';
import { libvirtHosting } from './hosting';
import { serveStarted } from './plugin/serve';
import type { StartedPlugin } from './plugin/start';
import type * as Registry from './registry';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: the handlers load with the first call's provider (issue #15)
const registry = (): typeof Registry => require('./registry') as typeof Registry;

/** Serves the provider on the first stage's socket until Shutdown. */
export function run(started: StartedPlugin): void {
  let facts: HostFacts | undefined;
  serveStarted(started, {
    providerSchema: PROVIDER_SCHEMA,
    resources: () => registry().resourceHandlers(),
    dataSources: () => registry().dataSourceHandlers(),
    hosting: libvirtHosting({
      connector: { connect: (uri) => registry().hostConnector().connect(uri) },
      host: { domainType: (uri) => (facts ??= registry().hostFacts()).domainType(uri) },
    }),
  });
}
