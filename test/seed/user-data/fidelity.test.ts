/** Seed fidelity (#9): the user's raw user-data reaches the seed byte for byte; merges are announced. */
import { gzipSync } from 'node:zlib';
import { buildSeedIso, readIso, validateSeed, type SeedSpec } from '../../../src/seed';

/** The user-data bytes of the seed ISO built from `spec`, read back from the image. */
function userDataOnIso(spec: SeedSpec): Buffer {
  const files = readIso(buildSeedIso(spec).iso).files;
  const file = files.find((f) => f.path === 'user-data' || f.path === 'openstack/latest/user_data');
  if (!file) throw new Error(`no user-data on the ISO; files: ${files.map((f) => f.path).join(', ')}`);
  return Buffer.from(file.content);
}

const CLOUD_CONFIG =
  '#cloud-config\n# keep this comment\nruncmd:\n  - "echo  \'quoted\'"   # trailing comment\npackages: [zsh, curl]\nwrite_files:\n- {path: /etc/x, content: "a: b"}\n';

describe('raw user-data given alone', () => {
  it.each([
    ['#cloud-config text with comments, flow style and unsorted keys', CLOUD_CONFIG],
    ['a #! script without a trailing newline', '#!/bin/sh\necho hi'],
    [
      'MIME',
      'Content-Type: multipart/mixed; boundary="b"\nMIME-Version: 1.0\n\n--b\nContent-Type: text/x-shellscript\n\n#!/bin/sh\ntrue\n--b--\n',
    ],
    ['CRLF #cloud-config', '#cloud-config\r\nruncmd:\r\n  - [ls, /]\r\n'],
  ])('GIVEN user_data as %s WHEN the ISO is built THEN its user-data bytes equal the input', (_, text) => {
    expect(userDataOnIso({ user_data: text }).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(userDataOnIso({ format: 'configdrive', user_data: text }).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('GIVEN user_data_base64 of #cloud-config text WHEN the ISO is built THEN the decoded bytes are on it unchanged', () => {
    const bytes = Buffer.from(CLOUD_CONFIG, 'utf8');
    expect(userDataOnIso({ user_data_base64: bytes.toString('base64') }).equals(bytes)).toBe(true);
  });

  it('GIVEN user_data_base64 of gzip-compressed user-data WHEN the ISO is built THEN the gzip bytes are on it unchanged', () => {
    const gz = gzipSync(Buffer.from(CLOUD_CONFIG));
    expect(userDataOnIso({ user_data_base64: gz.toString('base64') }).equals(gz)).toBe(true);
    expect(validateSeed({ user_data_base64: gz.toString('base64') })).toEqual([]);
  });

  it('GIVEN user_data_base64 of bytes that are not UTF-8 WHEN the ISO is built THEN they are on it unchanged', () => {
    const bin = Buffer.from([0x23, 0x21, 0xff, 0xfe, 0x00, 0x0a]);
    expect(userDataOnIso({ user_data_base64: bin.toString('base64') }).equals(bin)).toBe(true);
  });

  it('GIVEN a #cloud-config user_data and user_data_parts WHEN composed THEN the cloud-config part carries the text unchanged', () => {
    const iso = userDataOnIso({
      user_data: CLOUD_CONFIG,
      user_data_parts: [{ content: '#!/bin/sh\ntrue\n', content_type: 'text/x-shellscript' }],
    }).toString('utf8');
    expect(iso).toContain(`filename="cloud-config.yaml"\n\n${CLOUD_CONFIG}\n--`);
  });

  it('GIVEN a raw #cloud-config alone WHEN validated THEN there is no re-render warning', () => {
    expect(validateSeed({ user_data: CLOUD_CONFIG })).toEqual([]);
  });
});

describe('raw user-data with something to merge with', () => {
  it('GIVEN user_data and cloud_config WHEN validated THEN a warning on user_data says it is re-rendered, naming the other input', () => {
    const w = validateSeed({ user_data: CLOUD_CONFIG, cloud_config: { timezone: 'UTC' } }).filter((d) => d.severity === 'warning');
    expect(w).toEqual([
      expect.objectContaining({
        path: ['user_data'],
        summary: 'User-data re-rendered by a merge',
        detail: expect.stringContaining('cloud_config'),
      }),
    ]);
    const text = userDataOnIso({ user_data: CLOUD_CONFIG, cloud_config: { timezone: 'UTC' } }).toString('utf8');
    expect(text).toContain('timezone: UTC');
    expect(text).toContain('- zsh');
    expect(text).not.toContain('# keep this comment');
  });

  it('GIVEN user_data_base64 #cloud-config and files WHEN validated THEN the warning is on user_data_base64 and the files are merged in', () => {
    const spec: SeedSpec = { user_data_base64: Buffer.from(CLOUD_CONFIG).toString('base64'), files: [{ path: '/etc/y', content: 'y' }] };
    expect(validateSeed(spec)).toEqual([expect.objectContaining({ severity: 'warning', path: ['user_data_base64'] })]);
    expect(userDataOnIso(spec).toString('utf8')).toMatch(/path: \/etc\/y[\s\S]*path: \/etc\/x|path: \/etc\/x[\s\S]*path: \/etc\/y/);
  });
});

describe('user_data_base64 validation', () => {
  const errors = (spec: unknown) => validateSeed(spec as SeedSpec).filter((d) => d.severity === 'error');
  it('GIVEN both user_data and user_data_base64 WHEN validated THEN an error on user_data_base64 names both', () => {
    expect(errors({ user_data: '#!/bin/sh\n', user_data_base64: 'IyEvYmluL3NoCg==' })).toEqual([
      expect.objectContaining({ path: ['user_data_base64'], summary: 'Conflicting user-data inputs' }),
    ]);
  });
  it('GIVEN text that is not base64 WHEN validated THEN an error on user_data_base64', () => {
    expect(errors({ user_data_base64: '#cloud-config\n' })).toEqual([
      expect.objectContaining({ path: ['user_data_base64'], summary: 'Invalid user_data_base64' }),
    ]);
  });
  it('GIVEN base64 of invalid cloud-config WHEN validated THEN the schema error is under user_data_base64', () => {
    const b64 = Buffer.from('#cloud-config\nruncmd: 5\n').toString('base64');
    expect(errors({ user_data_base64: b64 }).map((d) => d.path)).toEqual([['user_data_base64', 'runcmd']]);
  });
  it('GIVEN base64 of a script WHEN given with user_data_parts THEN it is an error, as for user_data', () => {
    const b64 = Buffer.from('#!/bin/sh\n').toString('base64');
    expect(errors({ user_data_base64: b64, user_data_parts: [{ content: 'x' }] }).map((d) => d.path)).toEqual([['user_data_parts']]);
  });
});
