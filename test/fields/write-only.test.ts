/**
 * The write-only rules over a field table (src/fields/write-only.ts) and how the tables and the schema carry them
 * (issue 32): twins merged onto their attributes, write-only values nulled, conflicts, the table checks, and the
 * tfplugin6 `write_only` flag of the schemas the provider derives.
 */
import {
  assertWriteOnlyRules,
  CLOUDINIT_SEED_FIELDS,
  describeField,
  hasWriteOnly,
  IGNITION_FIELDS,
  mergeTwins,
  setsWriteOnly,
  twinConflicts,
  withoutWriteOnly,
  type FieldTable,
} from '../../src/fields';
import { CLOUDINIT_SEED_SCHEMA } from '../../provider/src/resources/cloudinit-seed';
import { IGNITION_SCHEMA } from '../../provider/src/resources/ignition';
import { normalizeBlockValue, toProtoSchema } from '../../provider/src/plugin/schema';

const SEED = CLOUDINIT_SEED_FIELDS.fields;

describe('mergeTwins', () => {
  test('GIVEN _wo twins at the top and in list blocks WHEN merged THEN each value sits on its attribute and the twin is null', () => {
    const merged = mergeTwins(SEED, {
      cloud_config: null,
      cloud_config_wo: 'a: 1',
      vendor_data: 'kept',
      vendor_data_wo: null,
      file: [{ path: '/x', content: null, content_wo: 'secret' }],
      user_data_part: [{ content: null, content_wo: '#!/bin/sh' }],
    });
    expect(merged).toMatchObject({
      cloud_config: 'a: 1',
      cloud_config_wo: null,
      vendor_data: 'kept',
      file: [{ path: '/x', content: 'secret', content_wo: null }],
      user_data_part: [{ content: '#!/bin/sh', content_wo: null }],
    });
  });
});

describe('withoutWriteOnly and setsWriteOnly', () => {
  test('GIVEN a value with write-only values WHEN cleared THEN only they are null, blocks included', () => {
    const value = { hostname: 'h', user_data_wo: 's', file: [{ path: '/x', content_wo: 's2' }] };
    expect(setsWriteOnly(SEED, value)).toBe(true);
    const cleared = withoutWriteOnly(SEED, value);
    expect(cleared).toEqual({ hostname: 'h', user_data_wo: null, file: [{ path: '/x', content_wo: null }] });
    expect(setsWriteOnly(SEED, cleared)).toBe(false);
  });

  test('GIVEN the tables WHEN asked THEN the seed and Ignition have write-only attributes and the check passes', () => {
    expect(hasWriteOnly(SEED)).toBe(true);
    expect(hasWriteOnly(IGNITION_FIELDS.fields)).toBe(true);
    expect(() => assertWriteOnlyRules(SEED)).not.toThrow();
  });
});

describe('twinConflicts', () => {
  test('GIVEN a twin set with its attribute WHEN checked THEN the conflict names the path and both attributes', () => {
    expect(twinConflicts(SEED, { user_data: 'a', user_data_wo: 'b', file: [{ content: 'c', content_wo: null }] })).toEqual([
      { path: ['user_data_wo'], twin: 'user_data_wo', of: 'user_data' },
    ]);
    expect(twinConflicts(SEED, { file: [{ content: 'c', content_wo: 'd' }] })).toEqual([
      { path: ['file', 0, 'content_wo'], twin: 'content_wo', of: 'content' },
    ]);
  });
});

describe('assertWriteOnlyRules', () => {
  test.each<[string, FieldTable]>([
    ['computed', { a: { type: 'string', optional: true, computed: true, writeOnly: true, description: '' } }],
    ['required', { a: { type: 'string', required: true, writeOnly: true, description: '' } }],
    ['a twin of nothing', { a: { type: 'string', optional: true, writeOnly: true, twinOf: 'b', description: '' } }],
    [
      'a twin of another type',
      {
        b: { type: 'number', optional: true, description: '' },
        a: { type: 'string', optional: true, writeOnly: true, twinOf: 'b', description: '' },
      },
    ],
    ['twinOf without writeOnly', { a: { type: 'string', optional: true, twinOf: 'a', description: '' } }],
  ])('GIVEN a write-only attribute that is %s WHEN checked THEN it throws naming it', (_what, table) => {
    expect(() => assertWriteOnlyRules(table)).toThrow(/field a:/);
  });
});

describe('schema', () => {
  test('GIVEN the seed schema WHEN converted to tfplugin6 THEN the twins carry write_only and nothing else does', () => {
    const attrs = toProtoSchema(CLOUDINIT_SEED_SCHEMA).block.attributes;
    const wo = attrs.filter((a) => a.write_only).map((a) => a.name);
    expect(wo.sort()).toEqual(
      ['cloud_config_wo', 'environment_wo', 'network_config_wo', 'user_data_base64_wo', 'user_data_wo', 'vendor_data_wo'].sort(),
    );
    const file = toProtoSchema(CLOUDINIT_SEED_SCHEMA).block.block_types.find((b) => b.type_name === 'file');
    expect(file?.block.attributes.filter((a) => a.write_only).map((a) => a.name)).toEqual(['content_wo', 'content_base64_wo']);
    expect(
      toProtoSchema(IGNITION_SCHEMA)
        .block.attributes.filter((a) => a.write_only)
        .map((a) => a.name),
    ).toEqual(['content_wo']);
  });

  test('GIVEN a handler value with write-only values WHEN normalized for Terraform THEN they are null, in blocks too', () => {
    const out = normalizeBlockValue(CLOUDINIT_SEED_SCHEMA, {
      user_data_wo: 'secret',
      file: [{ path: '/x', content_wo: 'secret' }],
    }) as Record<string, unknown>;
    expect(out.user_data_wo).toBeNull();
    expect((out.file as Record<string, unknown>[])[0]?.content_wo).toBeNull();
    expect((out.file as Record<string, unknown>[])[0]?.path).toBe('/x');
  });

  test('GIVEN a twin WHEN described THEN the docs say write-only and name its attribute', () => {
    expect(describeField(SEED.cloud_config_wo, 'seed')).toMatch(/Write-only \(Terraform 1\.11 and later\).*`cloud_config`/);
  });
});
