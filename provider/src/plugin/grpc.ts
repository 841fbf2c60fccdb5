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

/** All our services as one grpc package object (`tfplugin6`, `plugin`, `grpc.health.v1`); messages are plain
 *  objects with snake_case keys, int64 as number, enums as names, bytes as Buffer, defaults filled, oneofs named. */
export function loadProtos(): grpc.GrpcObject {
  return grpc.loadPackageDefinition(servicePackageDefinition() as unknown as Parameters<typeof grpc.loadPackageDefinition>[0]);
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
 * diagnostic on the attribute.
 */
export const GRPC_SERVER_OPTIONS: grpc.ServerOptions = {
  'grpc.max_receive_message_length': -1,
  'grpc.max_send_message_length': -1,
};

/** A grpc-js server with all four services registered (not yet bound). */
export function createGrpcServer(opts: GrpcServerOptions): grpc.Server {
  const pkg = loadProtos() as any;
  const provider = typeof opts.provider === 'function' ? opts.provider : () => opts.provider as ProviderServer;
  const server = new grpc.Server(GRPC_SERVER_OPTIONS);
  const impl: grpc.UntypedServiceImplementation = {};
  for (const rpc of PROVIDER_RPCS) {
    impl[rpc] = (call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => {
      const started = process.hrtime.bigint();
      (provider() as any)[rpc](call.request).then(
        (res: unknown) => {
          opts.log.trace(`${rpc} done in ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms`);
          callback(null, res);
        },
        (err: Error) => {
          opts.log.error(`${rpc}: ${err.message}`);
          callback({ code: grpc.status.INTERNAL, details: err.message });
        },
      );
    };
  }
  server.addService(pkg.tfplugin6.Provider.service, impl);
  server.addService(pkg.plugin.GRPCController.service, {
    Shutdown: (_call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => {
      opts.log.debug('GRPCController.Shutdown');
      callback(null, {});
      setImmediate(opts.onShutdown);
    },
  });
  server.addService(pkg.plugin.GRPCStdio.service, {
    // Kept open and silent: our logs go to stderr, which go-plugin reads directly.
    StreamStdio: (call: grpc.ServerWritableStream<any, any>) => {
      call.on('cancelled', () => call.end());
    },
  });
  server.addService(pkg.grpc.health.v1.Health.service, {
    Check: (_call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => callback(null, { status: 'SERVING' }),
  });
  return server;
}
