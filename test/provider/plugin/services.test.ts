import * as fs from 'node:fs';
import * as path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import { descriptorSource, OUTPUT, PROTO_DIR, PROTO_FILES } from '../../../provider/scripts/generate-proto-descriptor';
import { servicePackageDefinition } from '../../../provider/src/plugin/private/services';

/** The reference: @grpc/proto-loader parsing the .proto files with the options the provider used before. */
function protoLoaderDefinition(): protoLoader.PackageDefinition {
  return protoLoader.loadSync(
    PROTO_FILES.map((f) => path.join(PROTO_DIR, f)),
    { keepCase: true, longs: Number, enums: String, bytes: Buffer, defaults: true, oneofs: true, includeDirs: [PROTO_DIR] },
  );
}

describe('precompiled protobuf descriptor', () => {
  it('GIVEN the .proto files WHEN the generator runs THEN the committed descriptor is what it produces', () => {
    expect(fs.readFileSync(OUTPUT, 'utf8')).toBe(descriptorSource());
  });

  it('GIVEN the descriptor WHEN services are built THEN every service and method of the .proto files is there with its path', () => {
    const ours = servicePackageDefinition();
    const reference = protoLoaderDefinition();
    const services = Object.keys(reference).filter((k) => !('format' in reference[k]));
    expect(Object.keys(ours).sort()).toEqual(services.sort());
    for (const name of services) {
      const ref = reference[name] as protoLoader.ServiceDefinition;
      expect(Object.keys(ours[name]).sort()).toEqual(Object.keys(ref).sort());
      for (const m of Object.keys(ref)) {
        expect([ours[name][m].path, ours[name][m].requestStream, ours[name][m].responseStream]).toEqual([
          ref[m].path,
          ref[m].requestStream,
          ref[m].responseStream,
        ]);
      }
    }
  });

  it('GIVEN a ReadResource request WHEN decoded by ours and by proto-loader THEN both give the same plain object', () => {
    const ours = servicePackageDefinition()['tfplugin6.Provider'].ReadResource;
    const ref = (protoLoaderDefinition()['tfplugin6.Provider'] as protoLoader.ServiceDefinition).ReadResource;
    const request = {
      type_name: 'virtseed_domain',
      current_state: { msgpack: Buffer.from([0x81, 0xa1, 0x61, 0x01]) },
      private: Buffer.from('p'),
    };
    const bytes = ref.requestSerialize(request);
    expect(ours.requestSerialize(request).equals(bytes)).toBe(true);
    const decoded = ours.requestDeserialize(bytes);
    expect(decoded).toEqual(ref.requestDeserialize(bytes));
    expect(Buffer.isBuffer(decoded.current_state.msgpack)).toBe(true);
    expect(decoded.provider_meta).toBeNull();
  });

  it('GIVEN a response with diagnostics and an enum WHEN round-tripped THEN enums are names and defaults are filled', () => {
    const ours = servicePackageDefinition()['tfplugin6.Provider'].PlanResourceChange;
    const ref = (protoLoaderDefinition()['tfplugin6.Provider'] as protoLoader.ServiceDefinition).PlanResourceChange;
    const response = { planned_state: { msgpack: Buffer.from([0xc0]) }, diagnostics: [{ severity: 'ERROR', summary: 's', detail: 'd' }] };
    const bytes = ours.responseSerialize(response);
    expect(bytes.equals(ref.responseSerialize(response))).toBe(true);
    const back = ours.responseDeserialize(bytes);
    expect(back).toEqual(ref.responseDeserialize(bytes));
    expect(back.diagnostics[0].severity).toBe('ERROR');
    expect(back.requires_replace).toEqual([]);
  });
});
