import { createHash } from 'node:crypto';
import {
  ChecksumMismatchError,
  checksumMismatchMessage,
  formatProgress,
  isSha256Hex,
  progressLogger,
  verifySha256,
} from '../../../../provider/src/resources/private/upload';

async function* of(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield Buffer.from(p);
}
async function drain(source: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const c of source) out += Buffer.from(c).toString();
  return out;
}
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('verifySha256', () => {
  it('GIVEN the pinned digest of the bytes (upper case) WHEN streamed THEN every byte passes and no error is thrown', async () => {
    expect(await drain(verifySha256(of('abc', 'def'), sha('abcdef').toUpperCase()))).toBe('abcdef');
  });

  it('GIVEN another digest WHEN the stream ends THEN ChecksumMismatchError names both digests', async () => {
    const wrong = sha('something else');
    const err = await drain(verifySha256(of('abc'), wrong)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChecksumMismatchError);
    expect(err).toMatchObject({ expected: wrong, actual: sha('abc') });
    expect((err as Error).message).toContain(wrong);
    expect((err as Error).message).toContain(sha('abc'));
  });

  it('GIVEN no pin WHEN streamed THEN the bytes pass unchanged', async () => {
    expect(await drain(verifySha256(of('x'), undefined))).toBe('x');
  });
});

describe('checksumMismatchMessage', () => {
  it('GIVEN two digests WHEN formatted THEN the message names the actual, the pinned one and the fix', () => {
    expect(checksumMismatchMessage('aa', 'bb')).toBe(
      "the source's sha256 is bb, but sha256 pins aa. The source changed or is not the image you meant; no volume was kept. Fix sha256 or the source.",
    );
  });
});

describe('isSha256Hex', () => {
  it.each([
    ['a'.repeat(64), true],
    ['A'.repeat(64), true],
    ['a'.repeat(63), false],
    ['g'.repeat(64), false],
    [`sha256:${'a'.repeat(64)}`, false],
  ])('GIVEN %s WHEN checked THEN %s', (value, ok) => {
    expect(isSha256Hex(value)).toBe(ok);
  });
});

describe('progress', () => {
  it('GIVEN a known total WHEN formatted THEN bytes, percent and MB/s (10^6) show', () => {
    expect(formatProgress(50_000_000, 200_000_000, 2)).toBe('50000000 of 200000000 bytes (25%), 25.0 MB/s');
  });

  it('GIVEN an unknown total (chunked URL) WHEN formatted THEN only bytes and rate show', () => {
    expect(formatProgress(1_000_000, undefined, 0.5)).toBe('1000000 bytes, 2.0 MB/s');
  });

  it('GIVEN updates every 500 ms WHEN the interval is 2 s THEN a line is logged every 2 s and done() logs the last', () => {
    const lines: string[] = [];
    let t = 0;
    const p = progressLogger({ info: (m) => lines.push(m) }, 'volume default/x', 8_000_000, 2000, () => t);
    for (let i = 1; i <= 8; i++) {
      t = i * 500;
      p.update(i * 1_000_000);
    }
    p.done(8_000_000);
    expect(lines).toEqual([
      'volume default/x: uploaded 4000000 of 8000000 bytes (50%), 2.0 MB/s',
      'volume default/x: uploaded 8000000 of 8000000 bytes (100%), 2.0 MB/s',
      'volume default/x: uploaded 8000000 of 8000000 bytes (100%), 2.0 MB/s',
    ]);
  });
});
