/** stableYaml: long base64 strings written directly as single-quoted scalars, same value as through the library. */
import { parse } from 'yaml';
import { stableYaml } from '../../../src/seed/private/yaml';

const blob = Buffer.from(Array.from({ length: 6000 }, (_, i) => (i * 7919) & 0xff)).toString('base64');

test('GIVEN a long base64 string WHEN written THEN it is a single-quoted scalar that parses back to the same string', () => {
  const text = stableYaml({ write_files: [{ path: '/a', content: blob, encoding: 'b64' }] });
  expect(text).toContain(`content: '${blob}'`);
  expect(parse(text, { version: '1.1' })).toEqual({ write_files: [{ path: '/a', content: blob, encoding: 'b64' }] });
});

test('GIVEN a user string that looks like the internal token WHEN written THEN both strings survive unchanged', () => {
  const value = { a: blob, b: 'virtseed-blob-token-0-end' };
  expect(parse(stableYaml(value), { version: '1.1' })).toEqual(value);
});

test('GIVEN a short base64-looking string WHEN written THEN the library quoting rules apply as before (plain)', () => {
  expect(stableYaml({ k: 'QUJD' })).toBe('k: QUJD\n');
});
