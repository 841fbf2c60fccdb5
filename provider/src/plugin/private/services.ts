/**
 * gRPC service definitions from the precompiled protobufjs descriptor (proto/descriptor.generated.ts), built with
 * protobufjs/light: no .proto parsing and no descriptor-set generation at start-up (issue #15). Messages are
 * plain objects in the wire form @grpc/proto-loader gives with the same options (snake_case keys, int64 as number,
 * enums as names, bytes as Buffer, defaults filled, oneofs named), so request and response shapes are unchanged.
 */
import type * as grpc from '@grpc/grpc-js';
import * as protobuf from 'protobufjs/light';
import { PROTO_DESCRIPTOR } from '../proto/descriptor.generated';

/** `Type.toObject` options matching proto-loader's `{keepCase, longs: Number, enums: String, bytes: Buffer, defaults, oneofs}`. */
const TO_OBJECT: protobuf.IConversionOptions = { longs: Number, enums: String, bytes: Buffer, defaults: true, oneofs: true };

function serializer(type: protobuf.Type): (value: object) => Buffer {
  return (value) => {
    const bytes = type.encode(type.fromObject(value)).finish();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}

function deserializer(type: protobuf.Type): (bytes: Buffer) => Record<string, unknown> {
  return (bytes) => type.toObject(type.decode(bytes), TO_OBJECT);
}

function serviceDefinition(service: protobuf.Service): grpc.ServiceDefinition {
  const def: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const method of service.methodsArray) {
    method.resolve();
    const req = method.resolvedRequestType!;
    const res = method.resolvedResponseType!;
    def[method.name] = {
      path: `/${service.fullName.slice(1)}/${method.name}`,
      requestStream: !!method.requestStream,
      responseStream: !!method.responseStream,
      requestSerialize: serializer(req),
      requestDeserialize: deserializer(req),
      responseSerialize: serializer(res),
      responseDeserialize: deserializer(res),
      originalName: method.name[0].toLowerCase() + method.name.slice(1),
    };
  }
  return def;
}

/** Every service of the descriptor by full name (`tfplugin6.Provider`, `plugin.GRPCController`,
 *  `plugin.GRPCStdio`, `grpc.health.v1.Health`), as a grpc-js package definition of services. */
export function servicePackageDefinition(): Record<string, grpc.ServiceDefinition> {
  const root = protobuf.Root.fromJSON(PROTO_DESCRIPTOR as protobuf.INamespace);
  const out: Record<string, grpc.ServiceDefinition> = {};
  const visit = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Service) out[nested.fullName.slice(1)] = serviceDefinition(nested);
      else if (nested instanceof protobuf.Namespace) visit(nested);
    }
  };
  visit(root);
  return out;
}
