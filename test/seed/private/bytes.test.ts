import { createHash } from 'crypto';
import { materialize, utf8, Utf8Pieces, WRITE_CHUNK_BYTES } from '../../../src/seed/private/bytes';

describe('Utf8Pieces', () => {
  // Even pieces are any text (encoded as UTF-8), odd pieces ASCII (copied byte for byte), as stableYamlPieces makes them.
  const pieces = ['#cloud-config\nname: Zoë ✓\ndata: ', 'QUJDRA==', '\nmore: 日本\n', 'eHl6', ''];
  const joined = utf8(pieces.join(''));

  it('GIVEN text pieces WHEN measured and materialized THEN length and bytes are those of the joined text as UTF-8', () => {
    const p = new Utf8Pieces(pieces);
    expect(p.length).toBe(joined.length);
    expect(Buffer.compare(p.bytes(), joined)).toBe(0);
    expect(Buffer.compare(materialize(p), joined)).toBe(0);
  });

  it('GIVEN a target with other bytes around WHEN written at an offset THEN exactly length bytes change there', () => {
    const target = new Uint8Array(joined.length + 10).fill(0xee);
    new Utf8Pieces(pieces).writeInto(target, 5);
    expect(Buffer.compare(target.subarray(5, 5 + joined.length), joined)).toBe(0);
    expect([...target.subarray(0, 5), ...target.subarray(5 + joined.length)]).toEqual(Array(10).fill(0xee));
  });

  it('GIVEN a piece longer than a chunk WHEN written with a progress callback THEN the bytes are the same and the counts grow to length, a chunk apart at most', () => {
    const long = 'A'.repeat(2 * WRITE_CHUNK_BYTES + 123);
    const p = new Utf8Pieces(['head ✓\n', long, '\ntail\n']);
    const counts: number[] = [];
    const target = new Uint8Array(p.length + 3);
    p.writeInto(target, 3, (n) => counts.push(n));
    expect(Buffer.compare(target.subarray(3), utf8(`head ✓\n${long}\ntail\n`))).toBe(0);
    expect(counts[counts.length - 1]).toBe(p.length);
    counts.forEach((n, i) => expect(n - (counts[i - 1] ?? 0)).toBeGreaterThanOrEqual(0));
    counts.forEach((n, i) => expect(n - (counts[i - 1] ?? 0)).toBeLessThanOrEqual(WRITE_CHUNK_BYTES));
    expect(counts.length).toBeGreaterThanOrEqual(5);
  });

  it('GIVEN pieces WHEN hashed piece by piece THEN the digest is that of the joined bytes', () => {
    const hash = createHash('sha256');
    new Utf8Pieces(pieces).updateHash(hash);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(joined).digest('hex'));
  });

  it('GIVEN a buffer WHEN materialized THEN the same buffer comes back', () => {
    expect(materialize(joined)).toBe(joined);
  });
});
