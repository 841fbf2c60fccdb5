/**
 * Runs the provider as a go-plugin server: checks the environment, keeps stdout for the handshake alone,
 * serves gRPC on a unix socket (TLS with AutoMTLS when `PLUGIN_CLIENT_CERT` is set, plaintext otherwise), prints
 * the handshake line, and exits after `GRPCController/Shutdown` or SIGTERM. Resource handlers given as a function
 * are loaded right after the handshake line is written, in the same turn of the event loop (so before any call is
 * served): Terraform connects while they load (start-up time, issue #15). Interrupts (SIGINT) are ignored, as
 * go-plugin plugins do: Terraform handles Ctrl-C and calls StopProvider.
 */
import * as fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { createGrpcServer } from './grpc';
import { checkPluginEnvironment, handshakeLine, makeSocketPath } from './handshake';
import { createLogger, Logger } from './log';
import type { Connection } from '../host';
import type { ResourceHandler } from './handler';
import { ProviderServer, ProviderServerOptions } from './server';
import { generateServerCertificate, handshakeCert } from './tls';

export interface ServeOptions<C extends Connection = Connection> extends Omit<ProviderServerOptions<C>, 'log' | 'resources'> {
  /** The handlers, or a function that loads them (called once, after the handshake line is written). */
  readonly resources: readonly ResourceHandler<unknown, C>[] | (() => readonly ResourceHandler<unknown, C>[]);
  readonly env?: NodeJS.ProcessEnv;
  readonly log?: Logger;
}

/** Sends console.log/info/debug to stderr, so nothing but the handshake ever reaches stdout. */
export function protectStdout(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** Serves until Shutdown. Without Terraform's magic cookie, prints a message to stderr and exits with status 1. */
export async function serve<C extends Connection>(options: ServeOptions<C>): Promise<void> {
  const env = options.env ?? process.env;
  const problem = checkPluginEnvironment(env);
  if (problem) {
    process.stderr.write(problem);
    process.exit(1);
  }
  protectStdout();
  const log = options.log ?? createLogger();
  const makeProvider = (): ProviderServer<C> =>
    new ProviderServer({ ...options, resources: typeof options.resources === 'function' ? options.resources() : options.resources, log });
  // Handlers given as a list are checked before the handshake (a bad schema never reaches Terraform's connect).
  let provider: ProviderServer<C> | undefined = typeof options.resources === 'function' ? undefined : makeProvider();

  const { dir, socket } = makeSocketPath(env);
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  process.on('exit', cleanup);

  let exiting = false;
  const exit = (code: number) => {
    if (exiting) return;
    exiting = true;
    // Let answered calls (Shutdown's own reply) flush; the StdioStream stays open until the client leaves, so a
    // timer ends everything anyway.
    const finish = () => void (provider?.close() ?? Promise.resolve()).finally(() => process.exit(code));
    server.tryShutdown(finish);
    setTimeout(() => {
      server.forceShutdown();
      finish();
    }, 300).unref();
    setTimeout(() => process.exit(code), 1000).unref();
  };
  const server = createGrpcServer({ provider: () => provider!, log, onShutdown: () => exit(0) });
  process.on('SIGINT', () => log.debug('SIGINT ignored; waiting for Terraform to stop us'));
  process.on('SIGTERM', () => exit(0));

  let credentials = grpc.ServerCredentials.createInsecure();
  let cert = '';
  const clientCert = env.PLUGIN_CLIENT_CERT;
  if (clientCert) {
    const own = await generateServerCertificate();
    credentials = grpc.ServerCredentials.createSsl(
      Buffer.from(clientCert),
      [{ private_key: Buffer.from(own.keyPem), cert_chain: Buffer.from(own.certPem) }],
      true,
    );
    cert = handshakeCert(own.der);
  }
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${socket}`, credentials, (err) => (err ? reject(err) : resolve())));
  log.debug(`serving on ${socket}${cert ? ' with mTLS' : ' without TLS'}`);
  process.stdout.write(handshakeLine('unix', socket, cert));
  provider ??= makeProvider(); // synchronous: no call is dispatched before this
}
