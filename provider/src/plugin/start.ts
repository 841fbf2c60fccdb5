/**
 * The first stage of the plugin's start: everything up to the go-plugin handshake line, and nothing more. It checks
 * that Terraform started us, keeps stdout for the handshake alone, generates the AutoMTLS certificate (when
 * `PLUGIN_CLIENT_CERT` is set), listens on a unix socket in a fresh private folder and prints the handshake line.
 *
 * It loads no gRPC and no resource code (node:net, node:crypto and a few small modules): Terraform reads the line
 * and connects while the second stage (./serve.ts, `serveStarted`) loads gRPC and the handlers and takes over the
 * listening socket; a connection made meanwhile waits (what it sends is kept) and is served like any other. The
 * installed artifact runs this stage from its small executable, before it even reads its bundle (start-up time,
 * issue #25).
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import { checkPluginEnvironment, handshakeLine, makeSocketPath } from './handshake';
import { createLogger, levelFromEnv, type Logger } from './log';
import { generateServerCertificate, handshakeCert } from './tls';

/** What the first stage hands to the second. */
export interface StartedPlugin {
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  /** The unix socket's path (named in the handshake line). */
  readonly socket: string;
  /** Listening on `socket`; the second stage closes it at shutdown. */
  readonly listener: net.Server;
  /** Hands every connection, those that came before (with what they sent so far) and those to come, to `handler`. */
  accept(handler: (connection: net.Socket) => void): void;
  /** AutoMTLS: our key and certificate and the client's certificate (Terraform's, our only CA), all PEM.
   *  Undefined without `PLUGIN_CLIENT_CERT`: plaintext. */
  readonly tls?: { readonly keyPem: string; readonly certPem: string; readonly clientCertPem: string };
}

/** Sends console.log/info/debug to stderr, so nothing but the handshake ever reaches stdout. */
export function protectStdout(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/**
 * Runs the first stage and resolves once the handshake line is written. Without Terraform's magic cookie (or with
 * no common protocol version), prints a message to stderr and exits with status 1. Rejects when the socket cannot
 * be listened on (nothing was printed then).
 */
export async function startPlugin(
  env: NodeJS.ProcessEnv = process.env,
  log: Logger = createLogger(levelFromEnv(env)),
): Promise<StartedPlugin> {
  const problem = checkPluginEnvironment(env);
  if (problem) {
    process.stderr.write(problem);
    process.exit(1);
  }
  protectStdout();
  const { dir, socket } = makeSocketPath(env);
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

  let tls: StartedPlugin['tls'];
  let cert = '';
  const clientCertPem = env.PLUGIN_CLIENT_CERT;
  if (clientCertPem) {
    const own = await generateServerCertificate();
    tls = { keyPem: own.keyPem, certPem: own.certPem, clientCertPem };
    cert = handshakeCert(own.der);
  }
  const waiting: net.Socket[] = [];
  let handler: ((connection: net.Socket) => void) | undefined;
  const listener = net.createServer((connection) => (handler ? handler(connection) : waiting.push(connection)));
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(socket, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  log.debug(`listening on ${socket}${tls ? ' with mTLS' : ' without TLS'}`);
  process.stdout.write(handshakeLine('unix', socket, cert));
  const accept = (take: (connection: net.Socket) => void) => {
    handler = take;
    for (const connection of waiting.splice(0)) take(connection);
  };
  return { env, log, socket, listener, accept, ...(tls ? { tls } : {}) };
}
