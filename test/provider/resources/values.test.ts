import { UNKNOWN } from '../../../provider/src/plugin/cty';
import { deepEqual, deepEqualExcept, isWhollyKnown, unknownsAsNull } from '../../../provider/src/resources/private/values';

/** The definition deepEqual had before it stopped building arrays and maps (issue #38): the oracle it must match. */
function reference(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => reference(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ea = Object.entries(a).filter(([, v]) => v !== undefined);
    const mb = new Map(Object.entries(b).filter(([, v]) => v !== undefined));
    return ea.length === mb.size && ea.every(([k, v]) => mb.has(k) && reference(v, mb.get(k)));
  }
  return false;
}

/** A fixed-seed generator (the cases are the same at every run). */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const LEAVES: unknown[] = [null, undefined, UNKNOWN, 0, 1, -1, NaN, '', 'a', 'b', true, false, 64];
const KEYS = ['name', 'memory', 'disk', 'target', 'x', 'id'];

function value(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth <= 0 || r < 0.45) return LEAVES[Math.floor(rand() * LEAVES.length)];
  if (r < 0.7) return Array.from({ length: Math.floor(rand() * 4) }, () => value(rand, depth - 1));
  const out: Record<string, unknown> = {};
  for (const k of KEYS) if (rand() < 0.5) out[k] = value(rand, depth - 1);
  return out;
}

/** A copy of `v` with at most one small change (often none), so that equal pairs are common. */
function nearCopy(v: unknown, rand: () => number): unknown {
  if (Array.isArray(v)) {
    const copy = v.map((x) => nearCopy(x, rand));
    if (rand() < 0.05) copy.pop();
    return copy;
  }
  if (v && typeof v === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) copy[k] = nearCopy(x, rand);
    const r = rand();
    if (r < 0.05) copy[KEYS[Math.floor(rand() * KEYS.length)]] = undefined;
    else if (r < 0.1) copy[KEYS[Math.floor(rand() * KEYS.length)]] = 'changed';
    return copy;
  }
  return rand() < 0.05 ? LEAVES[Math.floor(rand() * LEAVES.length)] : v;
}

function without(v: unknown, skip: ReadonlySet<string>): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !skip.has(k)));
}

describe('deepEqual', () => {
  it('answers as the reference definition on 20000 generated pairs, equal and unequal', () => {
    const rand = generator(38);
    let equal = 0;
    for (let i = 0; i < 20000; i++) {
      const a = value(rand, 4);
      const b = rand() < 0.7 ? nearCopy(a, rand) : value(rand, 4);
      const expected = reference(a, b);
      if (deepEqual(a, b) !== expected) throw new Error(`deepEqual(${JSON.stringify(a)}, ${JSON.stringify(b)}) !== ${expected}`);
      if (deepEqual(b, a) !== reference(b, a)) throw new Error(`deepEqual(${JSON.stringify(b)}, ${JSON.stringify(a)}) differs`);
      if (expected) equal++;
    }
    expect(equal).toBeGreaterThan(5000); // both answers are well represented
    expect(equal).toBeLessThan(15000);
  });

  it('treats an undefined key as absent, compares arrays by position, and never equates an object and an array', () => {
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(deepEqual({ a: undefined }, { b: undefined })).toBe(true);
    expect(deepEqual({ a: null }, {})).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({}, [])).toBe(false);
    expect(deepEqual({ 0: 'x', length: 1 }, ['x'])).toBe(false);
    expect(deepEqual(UNKNOWN, UNKNOWN)).toBe(true);
    expect(deepEqual(UNKNOWN, null)).toBe(false);
    expect(deepEqual(NaN, NaN)).toBe(false);
    expect(deepEqual(Buffer.from('ab'), Buffer.from('ab'))).toBe(reference(Buffer.from('ab'), Buffer.from('ab')));
    expect(deepEqual(Buffer.from('ab'), Buffer.from('ac'))).toBe(false);
    // eslint-disable-next-line no-sparse-arrays -- the reference skips holes
    expect(deepEqual([1, , 3], [1, 2, 3])).toBe(reference([1, , 3], [1, 2, 3]));
  });
});

describe('deepEqualExcept', () => {
  it('equals deepEqual of both values without the skipped top-level keys, on 20000 generated pairs', () => {
    const rand = generator(2026);
    const skip = new Set(['id', 'x']);
    for (let i = 0; i < 20000; i++) {
      const a = value(rand, 4);
      const b = rand() < 0.7 ? nearCopy(a, rand) : value(rand, 4);
      const expected = reference(without(a, skip), without(b, skip));
      if (deepEqualExcept(a, b, skip) !== expected)
        throw new Error(`deepEqualExcept(${JSON.stringify(a)}, ${JSON.stringify(b)}) !== ${expected}`);
    }
  });

  it('skips only top-level keys', () => {
    const skip = new Set(['id']);
    expect(deepEqualExcept({ id: 1, name: 'a' }, { id: 2, name: 'a' }, skip)).toBe(true);
    expect(deepEqualExcept({ id: 1, name: 'a' }, { name: 'a' }, skip)).toBe(true);
    expect(deepEqualExcept({ disk: [{ id: 1 }] }, { disk: [{ id: 2 }] }, skip)).toBe(false);
    expect(deepEqualExcept({ disk: { id: 1 } }, { disk: { id: 2 } }, skip)).toBe(false);
  });
});

describe('unknownsAsNull', () => {
  it('makes every unknown null at any depth and keeps known values, bytes and the input untouched', () => {
    const bytes = new Uint8Array([1, 2]);
    const input = { id: UNKNOWN, name: 'v', n: 0, list: [UNKNOWN, 'a'], nested: { path: UNKNOWN, keep: false, b: bytes }, none: null };
    const out = unknownsAsNull(input);
    expect(out).toEqual({ id: null, name: 'v', n: 0, list: [null, 'a'], nested: { path: null, keep: false, b: bytes }, none: null });
    expect(out.nested.b).toBe(bytes);
    expect(isWhollyKnown(out)).toBe(true);
    expect(input.id).toBe(UNKNOWN);
    expect(input.list[0]).toBe(UNKNOWN);
  });
});
