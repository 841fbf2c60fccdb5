import { isZero, StreamSegment, toSparseSegments, zeroRuns } from '../../../src/libvirt/private/sparse';

async function* of(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* parts;
}
async function collect(source: AsyncIterable<StreamSegment>): Promise<(number[] | { hole: number })[]> {
  const out: (number[] | { hole: number })[] = [];
  for await (const s of source) out.push(s instanceof Uint8Array ? [...s] : { hole: s.hole });
  return out;
}
const bytes = (...v: number[]) => Uint8Array.from(v);

describe('isZero', () => {
  it('GIVEN zero bytes with one non-zero byte in the middle WHEN checked THEN it is not zero, the range before it is', () => {
    const b = new Uint8Array(10000);
    b[5000] = 7;
    expect(isZero(b, 0, 10000)).toBe(false);
    expect(isZero(b, 0, 5000)).toBe(true);
    expect(isZero(b, 5001, 10000)).toBe(true);
  });
});

describe('zeroRuns', () => {
  it('GIVEN blocks data, zero, zero, data (partial) WHEN split by 2 THEN runs are data, zero (merged), data', () => {
    expect(zeroRuns(bytes(1, 0, 0, 0, 0, 0, 0, 3, 4), 2)).toEqual([
      [0, 2, false],
      [2, 6, true],
      [6, 9, false],
    ]);
  });

  it('GIVEN a zero byte inside a data block WHEN split THEN the block stays data (granularity is the block)', () => {
    expect(zeroRuns(bytes(0, 5, 0, 0), 2)).toEqual([
      [0, 2, false],
      [2, 4, true],
    ]);
  });

  it('GIVEN a bad block size WHEN split THEN a RangeError names it', () => {
    expect(() => zeroRuns(bytes(1), 0)).toThrow('block size must be a positive integer, got 0');
  });
});

describe('toSparseSegments', () => {
  it('GIVEN zero blocks spanning chunks WHEN segmented THEN one hole covers them and data is kept in order', async () => {
    const out = await collect(toSparseSegments(of(bytes(9, 9, 0, 0), bytes(0, 0, 0, 0), bytes(0, 0, 8)), 2));
    expect(out).toEqual([[9, 9], { hole: 8 }, [8]]);
  });

  it('GIVEN a source ending in zeros WHEN segmented THEN it ends with a hole and the total length is kept', async () => {
    const out = await collect(toSparseSegments(of(bytes(1, 1), new Uint8Array(6)), 2));
    expect(out).toEqual([[1, 1], { hole: 6 }]);
  });

  it('GIVEN dense chunks WHEN segmented THEN they pass through whole, no holes', async () => {
    const out = await collect(toSparseSegments(of(bytes(1, 2, 3, 4), bytes(5, 6)), 2));
    expect(out).toEqual([
      [1, 2, 3, 4],
      [5, 6],
    ]);
  });
});
