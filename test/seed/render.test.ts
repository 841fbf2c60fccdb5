import { parse } from 'yaml';
import { ValidationError } from '../../src/diagnostics';
import { deriveInstanceId, renderSeed, type SeedSpec } from '../../src/seed';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG3 me@host';
const file = (spec: SeedSpec, path: string) => {
  const f = renderSeed(spec).files.find((x) => x.path === path);
  return f && Buffer.from(f.content).toString('utf8');
};

describe('renderSeed', () => {
  it('GIVEN a nocloud spec WHEN rendered THEN the files are meta-data, network-config, user-data, vendor-data under label cidata', () => {
    const seed = renderSeed({ hostname: 'vm', network: { version: 2, interfaces: [{ dhcp4: true }] }, vendor_data: '#!/bin/sh\n' });
    expect([seed.volumeId, seed.format, seed.files.map((f) => f.path)]).toEqual([
      'cidata',
      'nocloud',
      ['meta-data', 'network-config', 'user-data', 'vendor-data'],
    ]);
  });

  it('GIVEN hostname, keys and extras WHEN rendered as nocloud THEN meta-data YAML carries them with the instance-id', () => {
    expect(
      parse(file({ instance_id: 'i-1', hostname: 'vm', public_keys: [KEY], meta_data: { zone: 'a' } }, 'meta-data') as string),
    ).toEqual({
      'instance-id': 'i-1',
      'local-hostname': 'vm',
      'public-keys': [KEY],
      zone: 'a',
    });
  });

  it('GIVEN the same spec WHEN rendered as configdrive THEN meta_data.json has uuid, hostname, name and public_keys map', () => {
    const seed = renderSeed({ format: 'configdrive', instance_id: 'i-1', hostname: 'vm', public_keys: [KEY], meta_data: { zone: 'a' } });
    expect(seed.volumeId).toBe('config-2');
    expect(JSON.parse(Buffer.from(seed.files[0]!.content).toString())).toEqual({
      uuid: 'i-1',
      hostname: 'vm',
      name: 'vm',
      public_keys: { 'key-0': KEY },
      zone: 'a',
    });
  });

  it('GIVEN configdrive with user-data, network and vendor-data WHEN rendered THEN they sit under openstack/latest', () => {
    const seed = renderSeed({
      format: 'configdrive',
      cloud_config: { runcmd: ['x'] },
      network: { version: 1, interfaces: [{ dhcp4: true }] },
      vendor_data: { runcmd: ['y'] },
    });
    expect(seed.files.map((f) => f.path)).toEqual([
      'openstack/latest/meta_data.json',
      'openstack/latest/network_data.json',
      'openstack/latest/user_data',
      'openstack/latest/vendor_data.json',
    ]);
    expect(JSON.parse(Buffer.from(seed.files[3]!.content).toString())).toEqual({ 'cloud-init': '#cloud-config\nruncmd:\n  - "y"\n' });
  });

  it('GIVEN raw network_config WHEN rendered as nocloud THEN it passes through unchanged', () => {
    const raw = 'version: 2\nethernets:\n  eth0: {dhcp4: true}\n';
    expect(file({ network_config: raw }, 'network-config')).toBe(raw);
  });

  it('GIVEN an invalid spec WHEN rendered THEN a ValidationError carries the diagnostics', () => {
    expect(() => renderSeed({ hostname: 'bad host' })).toThrow(ValidationError);
  });

  it('GIVEN an unloaded file source WHEN rendered THEN it is rejected', () => {
    expect(() => renderSeed({ files: [{ path: '/x', source: 'x' }] })).toThrow(/loadSeedSources/);
  });
});

describe('instance-id', () => {
  const base: SeedSpec = { hostname: 'vm', cloud_config: { runcmd: ['a'] } };

  it('GIVEN no instance_id WHEN rendered THEN the id is derived (iid- and 16 hex) and equals deriveInstanceId', () => {
    const id = renderSeed(base).instanceId;
    expect(id).toMatch(/^iid-[0-9a-f]{16}$/);
    expect(deriveInstanceId(base)).toBe(id);
  });

  it('GIVEN an explicit instance_id WHEN rendered THEN it is used', () => {
    expect(renderSeed({ ...base, instance_id: 'my-id' }).instanceId).toBe('my-id');
  });

  it('GIVEN the same content WHEN derived twice THEN the id is the same', () => {
    expect(deriveInstanceId({ ...base })).toBe(deriveInstanceId(structuredClone(base)));
  });

  it.each<[string, SeedSpec]>([
    ['user-data', { ...base, cloud_config: { runcmd: ['b'] } }],
    ['hostname', { ...base, hostname: 'vm2' }],
    ['format', { ...base, format: 'configdrive' }],
    ['network', { ...base, network: { version: 2, interfaces: [{ dhcp4: true }] } }],
    ['vendor-data', { ...base, vendor_data: 'x' }],
    ['meta-data extras', { ...base, meta_data: { a: 1 } }],
  ])('GIVEN a change of %s WHEN derived THEN the id changes', (_what, changed) => {
    expect(deriveInstanceId(changed)).not.toBe(deriveInstanceId(base));
  });

  it('GIVEN an explicit instance_id WHEN derived THEN it is ignored (content only)', () => {
    expect(deriveInstanceId({ ...base, instance_id: 'x' })).toBe(deriveInstanceId(base));
  });
});
