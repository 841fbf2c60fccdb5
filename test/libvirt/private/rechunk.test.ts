import { rechunk } from '../../../src/libvirt/private/rechunk';

async function collect(source: AsyncIterable<Uint8Array>): Promise<number[][]> {
  const out: number[][] = [];
  for await (const c of source) out.push([...c]);
  return out;
}
async function* of(...parts: number[][]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield Uint8Array.from(p);
}

describe('rechunk', () => {
  it('GIVEN small pieces WHEN regrouped by 3 THEN chunks hold exactly 3 bytes except the last', async () => {
    expect(await collect(rechunk(of([1], [2, 3, 4], [5], [6, 7]), 3))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('GIVEN one large piece WHEN regrouped by 2 THEN it is split without loss', async () => {
    expect(await collect(rechunk(of([1, 2, 3, 4, 5]), 2))).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('GIVEN an empty source WHEN regrouped THEN nothing is yielded', async () => {
    expect(await collect(rechunk(of(), 4))).toEqual([]);
  });

  it('GIVEN a source that reuses its buffer WHEN regrouped THEN earlier bytes are not overwritten', async () => {
    const shared = new Uint8Array(1);
    async function* reusing(): AsyncGenerator<Uint8Array> {
      for (const v of [1, 2]) {
        shared[0] = v;
        yield shared;
      }
    }
    expect(await collect(rechunk(reusing(), 2))).toEqual([[1, 2]]);
  });
});
