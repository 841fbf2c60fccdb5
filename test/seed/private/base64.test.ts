/** Linear base64 checks: same answers as the strict pattern, for short texts and for multi-chunk payloads. */
import {
  base64DecodedLength,
  decodesToNonUtf8,
  isBase64,
  isBase64Text,
  isCanonicalBase64,
  withBase64Memo,
} from '../../../src/seed/private/base64';

const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919 + 13) & 0xff));
const long = bytes.toString('base64');

test('GIVEN a long canonical base64 payload WHEN checked THEN it is base64, base64 text and canonical', () => {
  expect([isBase64(long), isBase64Text(long), isCanonicalBase64(long)]).toEqual([true, true, true]);
});

test('GIVEN a long payload with a character above U+00FF (read as its low byte by Node) WHEN checked THEN it is rejected', () => {
  const bad = `\u0141${long.slice(1)}`;
  expect([isBase64(bad), isBase64Text(bad), isCanonicalBase64(bad)]).toEqual([false, false, false]);
});

test('GIVEN a long payload with base64url characters WHEN checked THEN it is rejected', () => {
  const bad = `${long.slice(0, 1000)}-_${long.slice(1002)}`;
  expect(isBase64(bad)).toBe(false);
});

test('GIVEN padding in the middle WHEN checked THEN it is rejected', () => {
  expect(isBase64(`${long.slice(0, 100)}=${long.slice(101)}`)).toBe(false);
  expect(isBase64('QQ==QUJD')).toBe(false);
});

test('GIVEN base64 wrapped at 76 columns WHEN checked THEN it is base64 but not base64 text nor canonical', () => {
  const wrapped = long.replace(/(.{76})/g, '$1\n');
  expect([isBase64(wrapped), isBase64Text(wrapped), isCanonicalBase64(wrapped)]).toEqual([true, false, false]);
});

test('GIVEN short texts WHEN checked THEN they follow the strict pattern', () => {
  expect(['', 'QUJD', 'QQ==', 'QUI=', ' QU JD\n'].map(isBase64)).toEqual([true, true, true, true, true]);
  expect(['QUJ', 'Q===', 'QU*D', 'QUJD\u00a0'.trim() + '!'].map(isBase64)).toEqual([false, false, false, false]);
});

test('GIVEN unused bits set in the last character WHEN checked THEN it is base64 but not canonical', () => {
  expect([isBase64('QR=='), isCanonicalBase64('QR=='), isCanonicalBase64('QQ==')]).toEqual([true, false, true]);
});

test('GIVEN binary and text payloads WHEN their prefix is checked THEN only binary is certainly not UTF-8', () => {
  expect(decodesToNonUtf8(long)).toBe(true);
  expect(decodesToNonUtf8(Buffer.from('héllo '.repeat(50_000)).toString('base64'))).toBe(false);
});

test('GIVEN a memo scope WHEN a payload is checked twice THEN both answers agree and the scope returns its value', () => {
  expect(withBase64Memo(() => [isBase64(long), isCanonicalBase64(long), isBase64(`${long.slice(0, -4)}-AAA`)])).toEqual([
    true,
    true,
    false,
  ]);
});

test('GIVEN base64 texts (long or short, padded, with line breaks) WHEN their decoded length is asked THEN it is the bytes they decode to', () => {
  const wrapped = long.replace(/.{76}/g, '$&\n');
  const short = Buffer.from('seed!').toString('base64'); // 'c2VlZCE=': one '='
  const texts = [long, `${long}\n`, wrapped, short, Buffer.from('seed').toString('base64'), Buffer.from('see').toString('base64'), ''];
  expect(texts.map(base64DecodedLength)).toEqual([bytes.length, bytes.length, bytes.length, 5, 4, 3, 0]);
  expect(withBase64Memo(() => [base64DecodedLength(long), base64DecodedLength(long)])).toEqual([bytes.length, bytes.length]);
});
