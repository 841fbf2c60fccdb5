import { validateIgnition } from '../../../src/seed/ignition';
import { INVALID_CONFIGS } from './cases';

const errors = (c: unknown) => validateIgnition(c).filter((d) => d.severity === 'error');

describe('validateIgnition', () => {
  test.each(INVALID_CONFIGS)('GIVEN $name WHEN validated THEN an error points at the field', ({ config, path }) => {
    const found = errors(config);
    expect(found.map((d) => d.path)).toContainEqual(path);
  });

  test('GIVEN a minimal 3.x config for every version WHEN validated THEN there are no diagnostics', () => {
    for (const version of ['3.0.0', '3.1.0', '3.2.0', '3.3.0', '3.4.0', '3.5.0']) {
      expect(validateIgnition({ ignition: { version } })).toEqual([]);
    }
  });

  test('GIVEN an unknown key WHEN validated THEN a warning names the key path and there is no error', () => {
    const d = validateIgnition({ ignition: { version: '3.3.0' }, passwd: { users: [{ name: 'core', ssh_authorized_keys: ['k'] }] } });
    expect(d).toEqual([
      expect.objectContaining({ severity: 'warning', summary: 'Unknown key', path: ['passwd', 'users', 0, 'ssh_authorized_keys'] }),
    ]);
  });

  test('GIVEN a wrong type WHEN validated THEN the detail says what was given and what is expected', () => {
    const [d] = errors({ ignition: { version: '3.3.0' }, storage: { files: [{ path: '/a', mode: '0644' }] } });
    expect(d.detail).toMatch(/Given the string "0644".*expects integer or null/);
  });

  test('GIVEN special mode bits in 3.3.0 WHEN validated THEN a warning, in 3.4.0 nothing', () => {
    const cfg = (version: string) => ({ ignition: { version }, storage: { files: [{ path: '/a', mode: 0o4755 }] } });
    expect(validateIgnition(cfg('3.3.0'))).toEqual([
      expect.objectContaining({ severity: 'warning', path: ['storage', 'files', 0, 'mode'] }),
    ]);
    expect(validateIgnition(cfg('3.4.0'))).toEqual([]);
  });

  test('GIVEN kernelArguments in 3.2.0 WHEN validated THEN reported as unknown key (added in 3.3.0)', () => {
    const d = validateIgnition({ ignition: { version: '3.2.0' }, kernelArguments: { shouldExist: ['a'] } });
    expect(d).toEqual([expect.objectContaining({ path: ['kernelArguments'], summary: 'Unknown key' })]);
  });

  test('GIVEN luks discard in 3.3.0 and 3.4.0 WHEN validated THEN unknown only in 3.3.0', () => {
    const cfg = (version: string) => ({ ignition: { version }, storage: { luks: [{ name: 'x', device: '/dev/vdb', discard: true }] } });
    expect(validateIgnition(cfg('3.3.0'))).toEqual([expect.objectContaining({ path: ['storage', 'luks', 0, 'discard'] })]);
    expect(validateIgnition(cfg('3.4.0'))).toEqual([]);
  });

  test('GIVEN luks cex in 3.4.0 and 3.5.0 WHEN validated THEN unknown only in 3.4.0', () => {
    const cfg = (version: string) => ({
      ignition: { version },
      storage: { luks: [{ name: 'x', device: '/dev/vdb', cex: { enabled: true } }] },
    });
    expect(validateIgnition(cfg('3.4.0'))).toEqual([expect.objectContaining({ path: ['storage', 'luks', 0, 'cex'] })]);
    expect(validateIgnition(cfg('3.5.0'))).toEqual([]);
  });

  test('GIVEN httpHeaders in 3.0.0 WHEN validated THEN unknown, in 3.1.0 accepted', () => {
    const cfg = (version: string) => ({
      ignition: { version },
      storage: { files: [{ path: '/a', contents: { source: 'https://x/y', httpHeaders: [{ name: 'A', value: 'b' }] } }] },
    });
    expect(validateIgnition(cfg('3.0.0'))).toEqual([expect.objectContaining({ path: ['storage', 'files', 0, 'contents', 'httpHeaders'] })]);
    expect(validateIgnition(cfg('3.1.0'))).toEqual([]);
  });

  test('GIVEN a sha256 hash in 3.0.0 WHEN validated THEN an error, in 3.1.0 accepted', () => {
    const cfg = (version: string) => ({
      ignition: { version },
      storage: { files: [{ path: '/a', contents: { source: 'https://x/y', verification: { hash: `sha256-${'0'.repeat(64)}` } } }] },
    });
    expect(errors(cfg('3.0.0'))).toEqual([expect.objectContaining({ summary: 'Invalid hash' })]);
    expect(validateIgnition(cfg('3.1.0'))).toEqual([]);
  });

  test('GIVEN overwrite true without a source WHEN validated THEN an error on overwrite', () => {
    expect(errors({ ignition: { version: '3.3.0' }, storage: { files: [{ path: '/a', overwrite: true }] } })).toEqual([
      expect.objectContaining({ path: ['storage', 'files', 0, 'overwrite'] }),
    ]);
  });

  test('GIVEN owner id and name WHEN validated THEN an error on the owner', () => {
    expect(errors({ ignition: { version: '3.3.0' }, storage: { files: [{ path: '/a', user: { id: 1, name: 'x' } }] } })).toEqual([
      expect.objectContaining({ path: ['storage', 'files', 0, 'user'] }),
    ]);
  });

  test('GIVEN gzip compression with an s3 source WHEN validated THEN an error', () => {
    expect(
      errors({
        ignition: { version: '3.3.0' },
        storage: { files: [{ path: '/a', contents: { source: 's3://b/o', compression: 'gzip' } }] },
      }),
    ).toEqual([expect.objectContaining({ path: ['storage', 'files', 0, 'contents', 'compression'] })]);
  });

  test('GIVEN a drop-in without .conf WHEN validated THEN an error on its name', () => {
    expect(errors({ ignition: { version: '3.3.0' }, systemd: { units: [{ name: 'a.service', dropins: [{ name: 'x' }] }] } })).toEqual([
      expect.objectContaining({ path: ['systemd', 'units', 0, 'dropins', 0, 'name'] }),
    ]);
  });

  test('GIVEN duplicate user names WHEN validated THEN an error on the second', () => {
    expect(errors({ ignition: { version: '3.3.0' }, passwd: { users: [{ name: 'a' }, { name: 'a' }] } })).toEqual([
      expect.objectContaining({ path: ['passwd', 'users', 1, 'name'] }),
    ]);
  });

  test('GIVEN an enabled unit without [Install] WHEN validated THEN a warning on its contents', () => {
    const d = validateIgnition({
      ignition: { version: '3.3.0' },
      systemd: { units: [{ name: 'a.service', enabled: true, contents: '[Service]\n' }] },
    });
    expect(d).toEqual([expect.objectContaining({ severity: 'warning', path: ['systemd', 'units', 0, 'contents'] })]);
  });

  test('GIVEN no ignition section WHEN validated THEN an error at ignition', () => {
    expect(errors({ storage: {} })).toEqual([expect.objectContaining({ path: ['ignition'] })]);
  });

  test('GIVEN not an object WHEN validated THEN an error at the root', () => {
    expect(errors([1])).toEqual([expect.objectContaining({ path: [] })]);
  });

  test('GIVEN a translatable 2.x config WHEN validated THEN only a warning', () => {
    const d = validateIgnition({ ignition: { version: '2.2.0' }, passwd: { users: [{ name: 'core' }] } });
    expect(d).toEqual([expect.objectContaining({ severity: 'warning', summary: 'Spec 2.x config' })]);
  });
});
