/** Seed fidelity (#9): YAML error positions, and the seed size rule. */
import { gzipSync } from 'node:zlib';
import { validateSeed, SEED_FILE_MAX_BYTES, type SeedSpec } from '../../src/seed';
import { seedSpecFromConfig } from '../../provider/src/resources/private/seed-spec';

const errors = (spec: SeedSpec) => validateSeed(spec).filter((d) => d.severity === 'error');
const MiB = 1024 * 1024;

describe('YAML errors carry their real line and column', () => {
  it.each([
    [
      'user_data',
      { user_data: '#cloud-config\nruncmd:\n  - a\n bad: [\n' },
      ['user_data'],
      /^Line 4, column 1: All mapping items must start at the same column/,
    ],
    ['user_data unclosed flow', { user_data: '#cloud-config\npackages: [a, b\nruncmd: []\n' }, ['user_data'], /^Line [23], column \d+: /],
    [
      'network_config',
      { network_config: 'version: 2\nethernets:\n  eth0:\n    dhcp4: true\n   x: y\n' },
      ['network_config'],
      /^Line 5, column 1: /,
    ],
    ['vendor_data', { vendor_data: '#cloud-config\na: b\na: c\n' }, ['vendor_data'], /^Line 3, column 1: /],
  ] as [string, SeedSpec, (string | number)[], RegExp][])(
    'GIVEN a syntax error in %s WHEN validated THEN the detail has its position',
    (_, spec, path, detail) => {
      const found = errors(spec);
      expect(found.length).toBeGreaterThan(0);
      expect(found[0].path).toEqual(path);
      expect(found[0].detail).toMatch(detail);
    },
  );

  it('GIVEN a duplicate key on line 3 WHEN validated THEN the position is line 3, not line 1', () => {
    const [d] = errors({ user_data: '#cloud-config\nhostname: a\nhostname: b\n' });
    expect(d.detail).toMatch(/^Line 3, column 1: Map keys must be unique/);
  });

  it('GIVEN cloud_config JSON with an error WHEN the provider parses it THEN the diagnostic names the attribute, line and column', () => {
    const { diagnostics } = seedSpecFromConfig({ cloud_config: '{\n  "runcmd": ["a",\n  "b"\n' });
    expect(diagnostics[0].path).toEqual(['cloud_config']);
    expect(diagnostics[0].detail).toMatch(/parsing failed at line \d+, column \d+: /);
    expect(diagnostics[0].detail).not.toMatch(/line 1, column 1:/);
  });
});

describe('seed size rule', () => {
  it('GIVEN a 70 MiB user_data WHEN validated THEN one error on user_data names the rule, without parsing it', () => {
    const started = process.hrtime.bigint();
    const found = validateSeed({ user_data: `#cloud-config\nbootcmd: [${'x'.repeat(70 * MiB)}\n` });
    expect(found).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: ['user_data'],
        summary: 'Seed too large',
        detail: expect.stringContaining('seed size rule'),
      }),
    ]);
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(5); // a parse of 70 MiB would take far longer and report the syntax error
  });

  it('GIVEN files that together push user-data over 64 MiB WHEN validated THEN the error is on the largest file', () => {
    const big = Buffer.alloc(40 * MiB, 0xff).toString('base64');
    const found = errors({
      files: [
        { path: '/a', content: 'small' },
        { path: '/b', content_base64: big },
        { path: '/c', content_base64: Buffer.alloc(12 * MiB, 0xfe).toString('base64') },
      ],
    });
    expect(found).toEqual([expect.objectContaining({ path: ['files', 1], summary: 'Seed too large' })]);
  });

  it('GIVEN gzip user-data that inflates past the limit WHEN validated THEN it is an error on user_data_base64', () => {
    const gz = gzipSync(Buffer.alloc(SEED_FILE_MAX_BYTES + 10, 0x41));
    const found = errors({ user_data_base64: gz.toString('base64') });
    expect(found).toEqual([expect.objectContaining({ path: ['user_data_base64'], summary: 'Seed too large' })]);
  });

  it('GIVEN a 5 MiB file WHEN validated THEN only the large user-data warning, on the file', () => {
    const found = validateSeed({ files: [{ path: '/opt/blob', content_base64: Buffer.alloc(5 * MiB, 0xff).toString('base64') }] });
    expect(found).toEqual([expect.objectContaining({ severity: 'warning', path: ['files', 0], summary: 'Large user-data' })]);
  });
});

describe('raw network_config addresses are checked like typed ones', () => {
  it.each([
    [
      'v2 address',
      'version: 2\nethernets:\n  eth0:\n    addresses: [300.1.1.1/24]\n',
      ['network_config', 'ethernets', 'eth0', 'addresses', 0],
    ],
    [
      'v2 under network:',
      'network:\n  version: 2\n  ethernets:\n    eth0:\n      addresses: ["10.0.0.2/24", "10.0.0.3/33"]\n',
      ['network_config', 'network', 'ethernets', 'eth0', 'addresses', 1],
    ],
    ['v2 gateway4', 'version: 2\nethernets:\n  eth0:\n    gateway4: 10.0.0.256\n', ['network_config', 'ethernets', 'eth0', 'gateway4']],
    [
      'v2 nameserver',
      'version: 2\nethernets:\n  eth0:\n    nameservers: {addresses: [1.2.3]}\n',
      ['network_config', 'ethernets', 'eth0', 'nameservers', 'addresses', 0],
    ],
    [
      'v2 route via',
      'version: 2\nethernets:\n  eth0:\n    routes: [{to: default, via: nowhere}]\n',
      ['network_config', 'ethernets', 'eth0', 'routes', 0, 'via'],
    ],
    [
      'v1 subnet address',
      'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets:\n      - type: static\n        address: 300.1.1.1/24\n',
      ['network_config', 'config', 0, 'subnets', 0, 'address'],
    ],
    [
      'v1 dns_nameservers',
      'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets:\n      - type: static\n        address: 10.0.0.2/24\n        dns_nameservers: [10.0.0.300]\n',
      ['network_config', 'config', 0, 'subnets', 0, 'dns_nameservers', 0],
    ],
  ] as [string, string, (string | number)[]][])('GIVEN a bad %s WHEN validated THEN an error names its path', (_, text, path) => {
    expect(errors({ network_config: text })).toEqual([expect.objectContaining({ path, summary: 'Invalid network address' })]);
  });

  it('GIVEN valid v1 and v2 addresses WHEN validated THEN no diagnostics', () => {
    expect(
      validateSeed({
        network_config:
          'version: 2\nethernets:\n  eth0:\n    addresses: [10.0.0.2/24, "fd00::2/64"]\n    gateway4: 10.0.0.1\n    routes: [{to: default, via: 10.0.0.1}]\n',
      }),
    ).toEqual([]);
    expect(
      validateSeed({
        network_config:
          'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets:\n      - {type: static, address: 10.0.0.2, netmask: 255.255.255.0, gateway: 10.0.0.1}\n',
      }),
    ).toEqual([]);
  });
});
