/**
 * The gRPC server a go-plugin client (Terraform) talks to: `tfplugin6.Provider` (backed by a `ProviderServer`),
 * `plugin.GRPCController/Shutdown`, `plugin.GRPCStdio/StreamStdio` and `grpc.health.v1.Health/Check`.
 * The services come from a descriptor precompiled from provider/src/plugin/proto/*.proto
 * (`npx tsx provider/scripts/generate-proto-descriptor.ts`), so no .proto is parsed at start-up.
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from './log';
import { servicePackageDefinition } from './private/services';
import type { ProviderServer } from './server';

/** Our services, by full name. */
export type ServiceName = 'tfplugin6.Provider' | 'plugin.GRPCController' | 'plugin.GRPCStdio' | 'grpc.health.v1.Health';

/** Looks our services up in the descriptor (read once per call of this function). Messages are plain objects
 *  with snake_case keys, int64 as number, enums as names, bytes as Buffer, defaults filled, oneofs named. */
function serviceDefinitions(): (name: ServiceName) => grpc.ServiceDefinition {
  const definitions = servicePackageDefinition();
  return (name) => {
    const definition = definitions[name];
    if (!definition) throw new Error(`the precompiled descriptor has no service ${name}`);
    return definition;
  };
}

/** A client of one of our services (what go-plugin's side calls), e.g. to talk to a plugin process in tests. */
export function serviceClient(name: ServiceName): grpc.ServiceClientConstructor {
  return grpc.makeClientConstructor(serviceDefinitions()(name), name);
}

const PROVIDER_RPCS = [
  'GetMetadata',
  'GetProviderSchema',
  'ValidateProviderConfig',
  'ValidateResourceConfig',
  'ValidateDataResourceConfig',
  'UpgradeResourceState',
  'GetResourceIdentitySchemas',
  'ConfigureProvider',
  'ReadResource',
  'PlanResourceChange',
  'ApplyResourceChange',
  'ImportResourceState',
  'MoveResourceState',
  'ReadDataSource',
  'GetFunctions',
  'StopProvider',
] as const;

export interface GrpcServerOptions {
  /** The provider, or a function returning it when a call arrives (it may be created after the server). */
  readonly provider: ProviderServer | (() => ProviderServer);
  readonly log: Logger;
  /** Called after Shutdown has been answered. */
  readonly onShutdown: () => void;
}

/**
 * Message size limits of the server: none (-1), like Terraform's own plugin client (go-plugin sets its limits to
 * math.MaxInt32). gRPC's 4 MiB default receive limit would fail every config over 4 MiB with ResourceExhausted
 * before the provider sees it; sizes are judged by the resources instead (e.g. the seed size rule), with a
 * diagnostic on the attribute. Channelz off: its per-call and per-session bookkeeping (call counts, traces) is for
 * a channelz service this server does not offer, and it showed in the profile of a plan of 300 domains (issue 38).
 */
const GRPC_SERVER_OPTIONS: grpc.ServerOptions = {
  'grpc.max_receive_message_length': -1,
  'grpc.max_send_message_length': -1,
  'grpc.enable_channelz': 0,
};

type ProviderRpc = (typeof PROVIDER_RPCS)[number];
type RequestOf<R extends ProviderRpc> = Parameters<ProviderServer[R]>[0];
type ResponseOf<R extends ProviderRpc> = Awaited<ReturnType<ProviderServer[R]>>;
/** The Provider RPCs as the gRPC layer calls them: the decoded request message in, the response message out. */
type ProviderRpcs = { [R in ProviderRpc]: (request: RequestOf<R>) => Promise<ResponseOf<R>> };

/** The gRPC handler of one Provider RPC: calls the provider, logs its time, turns a rejection into INTERNAL. */
function unaryRpc<R extends ProviderRpc>(
  rpc: R,
  provider: () => ProviderRpcs,
  log: Logger,
): grpc.handleUnaryCall<RequestOf<R>, ResponseOf<R>> {
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const served = provider();
    served[rpc](call.request).then(
      (res) => {
        if (log.enabled?.('trace') !== false)
          log.trace(`${rpc} done in ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms`);
        callback(null, res);
      },
      (err: Error) => {
        log.error(`${rpc}: ${err.message}`);
        callback({ code: grpc.status.INTERNAL, details: err.message });
      },
    );
  };
}

/** `plugin.Empty` / `google.protobuf.Empty`. */
type Empty = Record<string, never>;

/** A grpc-js server with all four services registered (not yet bound). */
export function createGrpcServer(opts: GrpcServerOptions): grpc.Server {
  const service = serviceDefinitions();
  const provider = typeof opts.provider === 'function' ? opts.provider : () => opts.provider as ProviderServer;
  const server = new grpc.Server(GRPC_SERVER_OPTIONS);
  const impl: grpc.UntypedServiceImplementation = {};
  for (const rpc of PROVIDER_RPCS) impl[rpc] = unaryRpc(rpc, provider, opts.log);
  server.addService(service('tfplugin6.Provider'), impl);
  const shutdown: grpc.handleUnaryCall<Empty, Empty> = (_call, callback) => {
    opts.log.debug('GRPCController.Shutdown');
    callback(null, {});
    setImmediate(opts.onShutdown);
  };
  server.addService(service('plugin.GRPCController'), { Shutdown: shutdown });
  // Kept open and silent: our logs go to stderr, which go-plugin reads directly.
  const streamStdio: grpc.handleServerStreamingCall<Empty, { channel: string; data: Buffer }> = (call) => {
    call.on('cancelled', () => call.end());
  };
  server.addService(service('plugin.GRPCStdio'), { StreamStdio: streamStdio });
  const check: grpc.handleUnaryCall<{ service: string }, { status: 'SERVING' }> = (_call, callback) =>
    callback(null, { status: 'SERVING' });
  server.addService(service('grpc.health.v1.Health'), { Check: check });
  return server;
}
