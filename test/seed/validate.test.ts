import { validateSeed, type SeedSpec } from '../../src/seed';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG3 me@host';
const errorsOf = (spec: unknown, opts = {}) => validateSeed(spec as SeedSpec, opts).filter((d) => d.severity === 'error');
const warningsOf = (spec: unknown) => validateSeed(spec as SeedSpec).filter((d) => d.severity === 'warning');

describe('validateSeed', () => {
  it('GIVEN a full valid spec WHEN validated THEN there are no diagnostics', () => {
    const spec: SeedSpec = {
      format: 'configdrive',
      instance_id: 'iid-1',
      hostname: 'vm-1',
      fqdn: 'vm-1.example.com',
      public_keys: [KEY],
      meta_data: { region: 'lab' },
      environment: { A_1: 'x' },
      files: [{ path: '/etc/x', content: 'x', permissions: '0600', owner: 'root:root' }],
      mounts: [{ device: 'vdb', mount_point: '/data' }],
      cloud_config: { users: ['default', { name: 'ops', sudo: 'ALL=(ALL) NOPASSWD:ALL', ssh_authorized_keys: [KEY] }] },
      network: { version: 2, interfaces: [{ mac: '52:54:00:00:00:01', dhcp4: true }] },
      vendor_data: { runcmd: ['true'] },
    };
    expect(validateSeed(spec)).toEqual([]);
  });

  // Each row: one class of bad input, and the path of the error.
  const badInputs: [string, unknown, (string | number)[]][] = [
    ['format', { format: 'ec2' }, ['format']],
    ['instance-id charset', { instance_id: 'a b' }, ['instance_id']],
    ['hostname (RFC 1123)', { hostname: '-bad_host' }, ['hostname']],
    ['fqdn label too long', { fqdn: `${'a'.repeat(64)}.example.com` }, ['fqdn']],
    ['public key format', { public_keys: ['rsa AAAA'] }, ['public_keys', 0]],
    ['reserved meta-data key (nocloud)', { meta_data: { 'instance-id': 'x' } }, ['meta_data', 'instance-id']],
    ['reserved meta-data key (configdrive)', { format: 'configdrive', meta_data: { uuid: 'x' } }, ['meta_data', 'uuid']],
    [
      'cloud-config schema',
      { cloud_config: { write_files: [{ path: '/a' }, { path: '/b' }, { path: 'relative' }] } },
      ['cloud_config', 'write_files', 2, 'path'],
    ],
    ['cloud-config user shape', { cloud_config: { users: [{ gecos: 'no name' }] } }, ['cloud_config', 'users', 0, 'name']],
    [
      'user ssh key',
      { cloud_config: { users: [{ name: 'a', ssh_authorized_keys: ['nope'] }] } },
      ['cloud_config', 'users', 0, 'ssh_authorized_keys', 0],
    ],
    ['user_data YAML syntax', { user_data: '#cloud-config\nruncmd: [a\n' }, ['user_data']],
    ['user_data schema', { user_data: '#cloud-config\nssh_pwauth: [1]\n' }, ['user_data', 'ssh_pwauth']],
    ['raw script with parts', { user_data: '#!/bin/sh\n', user_data_parts: [{ content: 'x' }] }, ['user_data_parts']],
    ['part content type', { user_data_parts: [{ content: 'x', content_type: 'shell script' }] }, ['user_data_parts', 0, 'content_type']],
    ['part filename', { user_data_parts: [{ content: 'x', filename: 'a"b' }] }, ['user_data_parts', 0, 'filename']],
    ['environment name', { environment: { '1BAD': 'x' } }, ['environment', '1BAD']],
    ['environment value newline', { environment: { A: 'x\ny' } }, ['environment', 'A']],
    ['file relative path', { files: [{ path: 'etc/x', content: 'x' }] }, ['files', 0, 'path']],
    ['file without content', { files: [{ path: '/x' }] }, ['files', 0]],
    ['file with two contents', { files: [{ path: '/x', content: 'a', content_base64: 'YQ==' }] }, ['files', 0]],
    ['file bad base64', { files: [{ path: '/x', content_base64: '***' }] }, ['files', 0, 'content_base64']],
    ['file permissions', { files: [{ path: '/x', content: 'a', permissions: '0999' }] }, ['files', 0, 'permissions']],
    ['file owner', { files: [{ path: '/x', content: 'a', owner: 'a b' }] }, ['files', 0, 'owner']],
    ['mount device', { mounts: [{ device: 'sd b', mount_point: '/d' }] }, ['mounts', 0, 'device']],
    ['mount point', { mounts: [{ device: 'vdb', mount_point: 'data' }] }, ['mounts', 0, 'mount_point']],
    [
      'duplicate mount point',
      {
        mounts: [
          { device: 'vdb', mount_point: '/d' },
          { device: 'vdc', mount_point: '/d' },
        ],
      },
      ['mounts', 1, 'mount_point'],
    ],
    [
      'network and network_config',
      { network: { version: 2, interfaces: [{ dhcp4: true }] }, network_config: 'version: 2\n' },
      ['network_config'],
    ],
    ['network version', { network: { version: 3, interfaces: [{}] } }, ['network', 'version']],
    ['network without interfaces', { network: { version: 1, interfaces: [] } }, ['network', 'interfaces']],
    [
      'interface address',
      { network: { version: 1, interfaces: [{ addresses: ['10.0.0.1'] }] } },
      ['network', 'interfaces', 0, 'addresses', 0],
    ],
    ['interface mac', { network: { version: 1, interfaces: [{ mac: '52:54:00' }] } }, ['network', 'interfaces', 0, 'mac']],
    ['interface gateway4', { network: { version: 1, interfaces: [{ gateway4: 'fd00::1' }] } }, ['network', 'interfaces', 0, 'gateway4']],
    ['interface mtu', { network: { version: 1, interfaces: [{ mtu: 10 }] } }, ['network', 'interfaces', 0, 'mtu']],
    ['duplicate interface name', { network: { version: 2, interfaces: [{ name: 'eth1' }, {}] } }, ['network', 'interfaces', 1, 'name']],
    ['network_config YAML syntax', { network_config: 'version: [2\n' }, ['network_config']],
    [
      'network_config v2 schema',
      { network_config: 'version: 2\nethernets:\n  eth0:\n    dhcp4: maybe\n' },
      ['network_config', 'ethernets', 'eth0', 'dhcp4'],
    ],
    [
      'network_config v1 schema',
      { network_config: 'network:\n  version: 1\n  config:\n    - type: physical\n' },
      ['network_config', 'network', 'config', 0, 'name'],
    ],
    ['network_config version', { network_config: 'version: 3\n' }, ['network_config', 'version']],
    ['configdrive network_data shape', { format: 'configdrive', network_config: 'version: 2\n' }, ['network_config']],
    [
      'duplicate write_files path',
      { files: [{ path: '/etc/x', content: 'a' }], cloud_config: { write_files: [{ path: '/etc/x', content: 'b' }] } },
      ['cloud_config', 'write_files', 0, 'path'],
    ],
    [
      'duplicate with environment file',
      { environment: { A: '1' }, user_data: '#cloud-config\nwrite_files:\n  - path: /etc/cloud/environment\n    content: x\n' },
      ['user_data', 'write_files', 0, 'path'],
    ],
    ['vendor_data cloud-config', { vendor_data: '#cloud-config\nruncmd: {}\n' }, ['vendor_data', 'runcmd']],
  ];
  it.each(badInputs)('GIVEN bad %s WHEN validated THEN an error names its path', (_name, spec, path) => {
    expect(errorsOf(spec).map((d) => d.path)).toContainEqual(path);
  });

  it('GIVEN YAML syntax errors WHEN validated THEN the detail gives line and column', () => {
    expect(errorsOf({ user_data: '#cloud-config\nruncmd: [a\n' })[0]?.detail).toMatch(/^Line \d+, column \d+: /);
  });

  it('GIVEN a duplicate that appends WHEN validated THEN it is accepted', () => {
    expect(
      errorsOf({
        files: [
          { path: '/etc/x', content: 'a' },
          { path: '/etc/x', content: 'b', append: true },
        ],
      }),
    ).toEqual([]);
  });

  it('GIVEN merge_overwrite WHEN write_files of two sources share a path THEN the later list replaces and there is no duplicate', () => {
    expect(
      errorsOf({
        merge_overwrite: true,
        files: [{ path: '/etc/x', content: 'a' }],
        cloud_config: { write_files: [{ path: '/etc/x', content: 'b' }] },
      }),
    ).toEqual([]);
  });

  it('GIVEN an unknown top-level cloud-config key WHEN validated THEN a warning names its path', () => {
    expect(warningsOf({ cloud_config: { runcmdd: ['x'] } })).toEqual([
      expect.objectContaining({ path: ['cloud_config', 'runcmdd'], summary: 'Unknown cloud-config key' }),
    ]);
  });

  it('GIVEN a known but untyped cloud-init key WHEN validated THEN there is no warning', () => {
    expect(validateSeed({ cloud_config: { growpart: { mode: 'auto' }, ntp: { enabled: true } } })).toEqual([]);
  });

  it('GIVEN a file source WHEN sources must be loaded THEN an error asks for loadSeedSources', () => {
    expect(errorsOf({ files: [{ path: '/x', source: './x' }] }, { requireLoadedSources: true }).map((d) => d.path)).toEqual([
      ['files', 0, 'source'],
    ]);
    expect(errorsOf({ files: [{ path: '/x', source: './x' }] })).toEqual([]);
  });

  it('GIVEN a raw script dropping generated parts WHEN validated THEN a warning is given', () => {
    expect(warningsOf({ environment: { A: '1' }, user_data: '#!/bin/sh\n' }).map((d) => d.path)).toEqual([['user_data']]);
  });

  it('GIVEN user-data over 1 MiB WHEN validated THEN a size warning is given', () => {
    expect(warningsOf({ files: [{ path: '/big', content: 'x'.repeat(1024 * 1024 + 1) }] }).map((d) => d.summary)).toContain(
      'Large user-data',
    );
  });

  it('GIVEN user-data over 1 MiB WHEN validated THEN the size warning names the largest file and how to move it to a data volume', () => {
    const [w] = warningsOf({
      files: [
        { path: '/etc/small', content: 'x' },
        { path: '/opt/big.bin', content: 'x'.repeat(1024 * 1024 + 1) },
      ],
    }).filter((d) => d.summary === 'Large user-data');
    expect(w.path).toEqual(['files', 1]);
    expect(w.detail).toContain('Its largest input is files[1] (/opt/big.bin, 1.0 MiB)');
    expect(w.detail).toMatch(/mkfs\.ext4 -d .*virtseed_volume .*disk \{ volume_id = .*mount/s);
  });

  it.each(['inactive', 'expiredate'])('GIVEN %s on a system user WHEN validated THEN a warning names its path', (key) => {
    const value = key === 'inactive' ? '5' : '2030-01-01';
    expect(warningsOf({ cloud_config: { users: ['default', { name: 'svc', system: true, [key]: value }] } })).toEqual([
      expect.objectContaining({
        path: ['cloud_config', 'users', 1, key],
        summary: 'Account aging ignored for a system user',
        detail: expect.stringContaining(`users[1] (svc) has system: true`),
      }),
    ]);
  });

  it('GIVEN inactive on a user that is not a system user WHEN validated THEN there is no warning', () => {
    expect(warningsOf({ cloud_config: { users: ['default', { name: 'ops', inactive: '5' }] } })).toEqual([]);
  });

  it('GIVEN a non-object WHEN validated THEN one error at the root', () => {
    expect(errorsOf('nope').map((d) => d.path)).toEqual([[]]);
  });
});
