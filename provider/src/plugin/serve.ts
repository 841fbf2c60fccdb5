/**
 * Runs the provider as a go-plugin server: the first stage (./start.ts) checks the environment, keeps stdout for the
 * handshake alone, listens on a unix socket and prints the handshake line; the second stage (`serveStarted`, here)
 * serves gRPC on that socket (TLS with AutoMTLS when `PLUGIN_CLIENT_CERT` is set, plaintext otherwise) and exits
 * after `GRPCController/Shutdown` or SIGTERM. Resource handlers given as a function are loaded by the second stage
 * before any call is served, while Terraform connects (start-up time, issues #15 and #25). Interrupts (SIGINT) are
 * ignored, as go-plugin plugins do: Terraform handles Ctrl-C and calls StopProvider.
 */
import * as grpc from '@grpc/grpc-js';
import { createGrpcServer } from './grpc';
import { createLogger, levelFromEnv, Logger } from './log';
import type { BaseContext, DataSourceHandler, ResourceHandler } from './handler';
import { ProviderServer, ProviderServerOptions } from './server';
import { startPlugin, type StartedPlugin } from './start';

export { protectStdout } from './start';

export interface ServeOptions<Ctx extends BaseContext = BaseContext> extends Omit<
  ProviderServerOptions<Ctx>,
  'log' | 'resources' | 'dataSources'
> {
  /** The handlers, or a function that loads them (called once, after the handshake line is written). */
  readonly resources: readonly ResourceHandler<unknown, Ctx>[] | (() => readonly ResourceHandler<unknown, Ctx>[]);
  /** The data source handlers, or a function that loads them (called once, with the resources). */
  readonly dataSources?: readonly DataSourceHandler<unknown, Ctx>[] | (() => readonly DataSourceHandler<unknown, Ctx>[]);
  readonly env?: NodeJS.ProcessEnv;
  readonly log?: Logger;
}

/** Both stages in one: serves until Shutdown. Without Terraform's magic cookie, prints a message to stderr and exits
 *  with status 1. Handlers given as a list are checked before the handshake (a bad schema never reaches Terraform). */
export async function serve<Ctx extends BaseContext>(options: ServeOptions<Ctx>): Promise<void> {
  const env = options.env ?? process.env;
  const log = options.log ?? createLogger(levelFromEnv(env));
  const { resources, dataSources } = options;
  const early =
    typeof resources === 'function' || typeof dataSources === 'function'
      ? undefined
      : new ProviderServer({ ...options, resources, dataSources, log });
  serveStarted(await startPlugin(env, log), options, early);
}

/**
 * The second stage: gRPC over the first stage's listening socket, until Shutdown. Creates the provider now (loading
 * handlers given as a function), synchronously, so it exists before any call is dispatched. `provider` is one made
 * earlier from the same options.
 */
export function serveStarted<Ctx extends BaseContext>(
  started: StartedPlugin,
  options: ServeOptions<Ctx>,
  provider?: ProviderServer<Ctx>,
): void {
  const { log, listener, tls } = started;
  let exiting = false;
  const exit = (code: number) => {
    if (exiting) return;
    exiting = true;
    listener.close();
    // Let answered calls (Shutdown's own reply) flush; the StdioStream stays open until the client leaves, so a
    // timer ends everything anyway.
    const finish = () => void (current?.close() ?? Promise.resolve()).finally(() => process.exit(code));
    server.tryShutdown(finish);
    setTimeout(() => {
      server.forceShutdown();
      finish();
    }, 300).unref();
    setTimeout(() => process.exit(code), 1000).unref();
  };
  let current: ProviderServer<Ctx> | undefined = provider;
  const server = createGrpcServer({ provider: () => current!, log, onShutdown: () => exit(0) });
  process.on('SIGINT', () => log.debug('SIGINT ignored; waiting for Terraform to stop us'));
  process.on('SIGTERM', () => exit(0));

  const credentials = tls
    ? grpc.ServerCredentials.createSsl(
        Buffer.from(tls.clientCertPem),
        [{ private_key: Buffer.from(tls.keyPem), cert_chain: Buffer.from(tls.certPem) }],
        true,
      )
    : grpc.ServerCredentials.createInsecure();
  // The socket is the first stage's: gRPC (and TLS) get each of its connections, those that waited included.
  const injector = server.createConnectionInjector(credentials);
  started.accept((connection) => injector.injectConnection(connection));
  log.debug(`serving gRPC on ${started.socket}`);
  current ??= new ProviderServer({
    ...options,
    resources: typeof options.resources === 'function' ? options.resources() : options.resources,
    dataSources: typeof options.dataSources === 'function' ? options.dataSources() : options.dataSources,
    log,
  });
}
