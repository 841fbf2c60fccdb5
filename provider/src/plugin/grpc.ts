/**
 * The gRPC server a go-plugin client (Terraform) talks to: `tfplugin6.Provider` (backed by a `ProviderServer`),
 * `plugin.GRPCController/Shutdown`, `plugin.GRPCStdio/StreamStdio` and `grpc.health.v1.Health/Check`.
 * Protos are loaded at runtime from provider/src/plugin/proto.
 */
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { Logger } from './log';
import { protoDir } from './private/protoDir';
import type { ProviderServer } from './server';

/** Options matching the wire form our code uses: snake_case keys, int64 as number, enums as names, bytes as
 *  Buffer, defaults filled, oneofs named. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

/** Loads all our protos into one grpc package definition (`tfplugin6`, `plugin`, `grpc.health.v1`). */
export function loadProtos(): grpc.GrpcObject {
  const dir = protoDir();
  const files = ['tfplugin6.proto', 'grpc_controller.proto', 'grpc_stdio.proto', 'health.proto'].map((f) => path.join(dir, f));
  const def = protoLoader.loadSync(files, { ...LOADER_OPTIONS, includeDirs: [dir] });
  return grpc.loadPackageDefinition(def);
}

const PROVIDER_RPCS = [
  'GetMetadata', 'GetProviderSchema', 'ValidateProviderConfig', 'ValidateResourceConfig', 'ValidateDataResourceConfig',
  'UpgradeResourceState', 'GetResourceIdentitySchemas', 'ConfigureProvider', 'ReadResource', 'PlanResourceChange',
  'ApplyResourceChange', 'ImportResourceState', 'MoveResourceState', 'ReadDataSource', 'GetFunctions', 'StopProvider',
] as const;

export interface GrpcServerOptions {
  readonly provider: ProviderServer;
  readonly log: Logger;
  /** Called after Shutdown has been answered. */
  readonly onShutdown: () => void;
}

/** A grpc-js server with all four services registered (not yet bound). */
export function createGrpcServer(opts: GrpcServerOptions): grpc.Server {
  const pkg = loadProtos() as any;
  const server = new grpc.Server();
  const impl: grpc.UntypedServiceImplementation = {};
  for (const rpc of PROVIDER_RPCS) {
    impl[rpc] = (call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => {
      const started = process.hrtime.bigint();
      (opts.provider as any)[rpc](call.request).then(
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
