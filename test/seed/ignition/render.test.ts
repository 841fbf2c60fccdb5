import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { ValidationError } from '../../../src/diagnostics';
import { IgnitionBuilder, parseDataUrl, renderIgnition, validateIgnition } from '../../../src/seed/ignition';
import { VALID_SPECS } from './cases';

function thrown(f: () => unknown): ValidationError {
  try {
    f();
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  throw new Error('expected a ValidationError');
}

describe('renderIgnition', () => {
  const cases = VALID_SPECS.flatMap((c) => c.versions.map((version) => ({ ...c, version })));
  test.each(cases)('GIVEN $name WHEN rendered as $version THEN the output validates cleanly', ({ spec, version }) => {
    const r = renderIgnition(spec, { version });
    expect(r.version).toBe(version);
    expect(JSON.parse(r.json).ignition.version).toBe(version);
    expect(validateIgnition(JSON.parse(r.json)).filter((d) => d.severity === 'error')).toEqual([]);
  });

  test('GIVEN no version WHEN rendered THEN spec 3.3.0 is written', () => {
    expect(renderIgnition({}).json).toBe('{"ignition":{"version":"3.3.0"}}');
  });

  test('GIVEN the same config with keys in another order WHEN rendered THEN the bytes and sha256 are equal', () => {
    const a = renderIgnition({ storage: { files: [{ mode: 420, path: '/a' }] }, ignition: { version: '3.2.0' } });
    const b = renderIgnition('{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/a","mode":420}]}}');
    expect(a.json).toBe(b.json);
    expect(a.sha256).toBe(createHash('sha256').update(a.json).digest('hex'));
    expect(a.json).toBe('{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/a","mode":420}]}}');
  });

  test('GIVEN a typed spec with version WHEN rendered THEN ignition.version carries it and no top-level version remains', () => {
    const r = renderIgnition({ version: '3.1.0', passwd: { users: [{ name: 'core' }] } });
    expect(JSON.parse(r.json)).toEqual({ ignition: { version: '3.1.0' }, passwd: { users: [{ name: 'core' }] } });
  });

  test('GIVEN a 3.0.0 config WHEN rendered as 3.3.0 THEN it is upgraded', () => {
    expect(renderIgnition({ ignition: { version: '3.0.0' } }, { version: '3.3.0' }).version).toBe('3.3.0');
  });

  test('GIVEN a 3.3.0 config WHEN rendered as 3.0.0 THEN a ValidationError refuses the downgrade', () => {
    const e = thrown(() => renderIgnition({ ignition: { version: '3.3.0' } }, { version: '3.0.0' }));
    expect(e.diagnostics[0]).toMatchObject({ path: ['ignition', 'version'], summary: 'Cannot write an older spec' });
  });

  test('GIVEN invalid JSON text WHEN rendered THEN a ValidationError at the root', () => {
    expect(thrown(() => renderIgnition('{"ignition":')).diagnostics[0]).toMatchObject({
      path: [],
      summary: 'Invalid Ignition JSON',
      detail: 'Line 1, column 13: the text ends before the JSON value is complete.',
    });
  });

  test('GIVEN an invalid file path WHEN rendered THEN a ValidationError with the path', () => {
    const e = thrown(() => renderIgnition({ storage: { files: [{ path: 'x' }] } }));
    expect(e.diagnostics).toEqual([expect.objectContaining({ path: ['storage', 'files', 0, 'path'] })]);
  });

  test('GIVEN an unsupported typed version WHEN rendered THEN a ValidationError at version', () => {
    expect(thrown(() => renderIgnition({ version: '3.9.0' } as never)).diagnostics[0].path).toEqual(['version']);
  });

  test('GIVEN an unknown key WHEN rendered THEN it renders and returns the warning', () => {
    const r = renderIgnition({ ignition: { version: '3.3.0' }, extra: 1 });
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', path: ['extra'] })]);
  });
});

describe('IgnitionBuilder', () => {
  test('GIVEN a gzip file WHEN built twice THEN the data URL is identical and decompresses to the content', () => {
    const make = () => new IgnitionBuilder().addFile('/a', 'hello\n'.repeat(50), { gzip: true }).build();
    const [a, b] = [make(), make()];
    expect(a).toEqual(b);
    const c = a.storage!.files![0].contents!;
    expect(c.compression).toBe('gzip');
    expect(gunzipSync(parseDataUrl(c.source!).data).toString()).toBe('hello\n'.repeat(50));
  });

  test('GIVEN short plain text WHEN added THEN it is a percent-encoded data URL with mode 0644 and overwrite', () => {
    const f = new IgnitionBuilder().addFile('/etc/hostname', 'vm-1').build().storage!.files![0];
    expect(f).toEqual({ path: '/etc/hostname', overwrite: true, mode: 420, contents: { source: 'data:,vm-1' } });
  });

  test('GIVEN text whose percent-encoding is longer than base64 WHEN added THEN it is base64', () => {
    const f = new IgnitionBuilder().addFile('/etc/motd', 'a b c\n').build().storage!.files![0];
    expect(f.contents!.source).toBe('data:;base64,YSBiIGMK');
  });

  test('GIVEN binary content WHEN added THEN it is base64', () => {
    const f = new IgnitionBuilder().addFile('/b', new Uint8Array([0xff, 0xfe])).build().storage!.files![0];
    expect(f.contents!.source).toBe('data:;base64,//4=');
  });

  test('GIVEN a builder with a version WHEN rendered THEN that version is written', () => {
    expect(new IgnitionBuilder('3.1.0').addUser('core').render().version).toBe('3.1.0');
  });
});

describe('parseDataUrl', () => {
  test.each([
    ['data:,a%20b', 'a b'],
    ['data:text/plain;charset=utf-8,x', 'x'],
    ['data:;base64,aGk=', 'hi'],
  ])('GIVEN %s WHEN parsed THEN the data is %s', (url, text) => {
    expect(Buffer.from(parseDataUrl(url).data).toString()).toBe(text);
  });

  test.each(['data:abc', 'data:,%zz', 'http://x', 'data:;base64,a'])('GIVEN %s WHEN parsed THEN it throws', (url) => {
    expect(() => parseDataUrl(url)).toThrow();
  });
});
