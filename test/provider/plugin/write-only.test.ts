/**
 * The protocol side of write-only attributes (issue 32): a Terraform that does not announce
 * `write_only_attributes_allowed` gets an error naming each write-only attribute set (it would store the value),
 * and one that does gets the handler's own checks.
 */
import { PROVIDER_SCHEMA } from '../../../provider/src/config';
import { encodeMsgpack } from '../../../provider/src/plugin/cty';
import { createLogger } from '../../../provider/src/plugin/log';
import { impliedType, normalizeBlockValue, writeOnlyPathsSet } from '../../../provider/src/plugin/schema';
import { LibvirtProviderServer as ProviderServer } from '../../../provider/src/hosting';
import { cloudinitSeed, CLOUDINIT_SEED_SCHEMA } from '../../../provider/src/resources/cloudinit-seed';

const TYPE = impliedType(CLOUDINIT_SEED_SCHEMA);
const config = (over: Record<string, unknown>) => ({
  msgpack: encodeMsgpack(normalizeBlockValue(CLOUDINIT_SEED_SCHEMA, { pool: 'default', name: 's.iso', ...over }), TYPE),
});
/** Like `config`, but keeps write-only values (normalizeBlockValue nulls them, as for values sent to Terraform). */
const configWithSecrets = (over: Record<string, unknown>) => {
  const base = normalizeBlockValue(CLOUDINIT_SEED_SCHEMA, { pool: 'default', name: 's.iso' }) as Record<string, unknown>;
  return { msgpack: encodeMsgpack({ ...base, ...over }, TYPE) };
};

const server = () =>
  new ProviderServer({ providerSchema: PROVIDER_SCHEMA, resources: [cloudinitSeed as never], log: createLogger('error', () => undefined) });

describe('ValidateResourceConfig with write-only attributes', () => {
  it('GIVEN a Terraform without write-only support WHEN a _wo attribute is set THEN an error names it and never the value', async () => {
    const res = await server().ValidateResourceConfig({
      type_name: 'virtseed_cloudinit_seed',
      config: configWithSecrets({ user_data_wo: '#cloud-config\npassword: CanaryProto-1' }),
      client_capabilities: { deferral_allowed: false },
    });
    expect(res.diagnostics.map((d) => d.summary)).toEqual(['Write-only attribute needs Terraform 1.11']);
    expect(res.diagnostics[0]?.attribute?.steps).toEqual([{ attribute_name: 'user_data_wo' }]);
    expect(JSON.stringify(res)).not.toContain('CanaryProto-1');
  });

  it('GIVEN Terraform 1.11 WHEN a _wo attribute is set with its attribute THEN the seed reports the conflict', async () => {
    const res = await server().ValidateResourceConfig({
      type_name: 'virtseed_cloudinit_seed',
      config: configWithSecrets({ user_data: '#cloud-config\n{}', user_data_wo: '#cloud-config\n{}' }),
      client_capabilities: { write_only_attributes_allowed: true },
    });
    expect(res.diagnostics.map((d) => d.summary)).toEqual(['Conflicting user_data_wo']);
  });

  it('GIVEN Terraform 1.11 WHEN only a _wo attribute is set THEN the config is valid', async () => {
    const res = await server().ValidateResourceConfig({
      type_name: 'virtseed_cloudinit_seed',
      config: configWithSecrets({ user_data_wo: '#cloud-config\nruncmd: [true]\n'.replace('true', 'date') }),
      client_capabilities: { write_only_attributes_allowed: true },
    });
    expect(res.diagnostics).toEqual([]);
  });

  it('GIVEN Terraform 1.11 WHEN a _wo value is invalid THEN the diagnostic points at the _wo attribute', async () => {
    const res = await server().ValidateResourceConfig({
      type_name: 'virtseed_cloudinit_seed',
      config: configWithSecrets({ user_data_wo: '#cloud-config\nruncmd: [true]\n' }),
      client_capabilities: { write_only_attributes_allowed: true },
    });
    expect(res.diagnostics[0]?.attribute?.steps).toEqual([{ attribute_name: 'user_data_wo' }]);
  });

  it('GIVEN Terraform 1.11 WHEN a _wo value is invalid THEN the diagnostic says what is wrong without quoting the value', async () => {
    const res = await server().ValidateResourceConfig({
      type_name: 'virtseed_cloudinit_seed',
      config: configWithSecrets({ user_data_wo: '#cloud-config\nruncmd:\n  - echo "KEY: CanaryQuoted-9a" > /dev/null\n' }),
      client_capabilities: { write_only_attributes_allowed: true },
    });
    expect(res.diagnostics.map((d) => d.detail)).toEqual([
      expect.stringMatching(/^At user_data\.runcmd\[0\]: must be string, array or null; got a value not shown \(a write-only input\)$/),
    ]);
    expect(JSON.stringify(res)).not.toContain('CanaryQuoted-9a');
  });

  it('GIVEN a config without write-only values WHEN validated by an old Terraform THEN nothing is refused', async () => {
    const res = await server().ValidateResourceConfig({ type_name: 'virtseed_cloudinit_seed', config: config({ hostname: 'h' }) });
    expect(res.diagnostics).toEqual([]);
  });

  it('GIVEN nested write-only values WHEN their paths are listed THEN block indexes are included', () => {
    expect(writeOnlyPathsSet(CLOUDINIT_SEED_SCHEMA, { file: [{ path: '/a' }, { path: '/b', content_wo: 'x' }] })).toEqual([
      ['file', 1, 'content_wo'],
    ]);
  });
});
