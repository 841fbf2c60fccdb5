/**
 * The field tables' spelling conversion (src/fields/map.ts), on the seed's table: Terraform ⇄ SeedSpec ⇄ construct
 * props ⇄ CDKTF config, blocks included.
 */
import { camelCase, CLOUDINIT_SEED_FIELDS, convertFields, renames } from '../../src/fields';

const SEED = CLOUDINIT_SEED_FIELDS.fields;

describe('convertFields', () => {
  test('GIVEN construct props WHEN converted to the spec THEN keys follow the table, blocks included', () => {
    const props = {
      instanceId: 'iid-1',
      gzip: true,
      files: [{ path: '/a', contentBase64: 'eA==' }],
      network: { version: 2, forceDhcp: true, interfaces: [{ name: 'eth0' }] },
    };
    expect(convertFields(SEED, props, 'prop', 'spec')).toEqual({
      instance_id: 'iid-1',
      user_data_gzip: true,
      files: [{ path: '/a', content_base64: 'eA==' }],
      network: { version: 2, force_dhcp: true, interfaces: [{ name: 'eth0' }] },
    });
  });

  test('GIVEN a spec WHEN converted to CDKTF config THEN keys are the camelCase Terraform names', () => {
    expect(
      convertFields(
        SEED,
        { user_data_parts: [{ content: 'x', merge_type: 'm' }], mounts: [{ device: 'vdb', mount_point: '/d' }] },
        'spec',
        'config',
      ),
    ).toEqual({
      userDataPart: [{ content: 'x', mergeType: 'm' }],
      mount: [{ device: 'vdb', mountPoint: '/d' }],
    });
  });

  test('GIVEN a Terraform value WHEN converted to the spec THEN nulls, empty block lists and attributes without a spec key are left out', () => {
    const tf = {
      id: 'key',
      pool: 'default',
      name: 's.iso',
      hostname: 'h',
      fqdn: null,
      file: [],
      mount: [{ device: 'vdb', mount_point: null }],
    };
    expect(convertFields(SEED, tf, 'terraform', 'spec')).toEqual({ hostname: 'h', mounts: [{ device: 'vdb' }] });
  });

  test('GIVEN a leaf hook WHEN converting THEN it replaces attribute values and an undefined result leaves the key out', () => {
    const out = convertFields(SEED, { meta_data: '{"a":1}', cloud_config: '' }, 'terraform', 'spec', (f, v) =>
      f.json && v !== '' ? JSON.parse(String(v)) : undefined,
    );
    expect(out).toEqual({ meta_data: { a: 1 } });
  });
});

describe('renames and camelCase', () => {
  test('GIVEN the seed table WHEN asked for spec → Terraform renames THEN the plural lists map to their block names', () => {
    expect(renames(SEED, 'spec', 'terraform')).toEqual({
      user_data_parts: 'user_data_part',
      files: 'file',
      mounts: 'mount',
      interfaces: 'interface',
    });
  });

  test.each([
    ['user_data_base64', 'userDataBase64'],
    ['dhcp4', 'dhcp4'],
    ['fs_type', 'fsType'],
  ])('GIVEN %s WHEN camel-cased THEN %s', (from, to) => {
    expect(camelCase(from)).toBe(to);
  });
});
