import { XdrError, XdrReader, XdrWriter, xdrPadding } from '../../src/libvirt/xdr';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('XdrWriter', () => {
  it('GIVEN a negative int WHEN encoded THEN it is 4 bytes two-complement big-endian (RFC 4506 4.1)', () => {
    expect(hex(new XdrWriter().int(-2).finish())).toBe('fffffffe');
  });

  it('GIVEN an unsigned int WHEN encoded THEN it is 4 bytes big-endian (4.2)', () => {
    expect(hex(new XdrWriter().uint(0x20008086).finish())).toBe('20008086');
  });

  it('GIVEN a hyper WHEN encoded THEN it is 8 bytes big-endian (4.5)', () => {
    expect(hex(new XdrWriter().hyper(-1).uhyper(0x0102030405060708n).finish())).toBe('ffffffffffffffff0102030405060708');
  });

  it('GIVEN a 5-byte string WHEN encoded THEN length, bytes and 3 zero pad bytes follow (4.11)', () => {
    expect(hex(new XdrWriter().string('hello').finish())).toBe('0000000568656c6c6f000000');
  });

  it('GIVEN a 4-byte opaque WHEN encoded THEN no padding is added (4.10)', () => {
    expect(hex(new XdrWriter().opaque(Buffer.from('abcd')).finish())).toBe('0000000461626364');
  });

  it('GIVEN a 3-byte fixed opaque WHEN encoded THEN it has no length and one pad byte (4.9)', () => {
    expect(hex(new XdrWriter().fixedOpaque(Buffer.from([1, 2, 3]), 3).finish())).toBe('01020300');
  });

  it('GIVEN optional data WHEN absent or present THEN a bool precedes the value (4.19)', () => {
    const w = new XdrWriter().optional(null, (x, v: number) => x.int(v)).optional(7, (x, v) => x.int(v));
    expect(hex(w.finish())).toBe('000000000000000100000007');
  });

  it('GIVEN a variable array WHEN encoded THEN the count precedes the elements (4.13)', () => {
    expect(hex(new XdrWriter().array([1, 2], (x, v) => x.uint(v)).finish())).toBe('000000020000000100000002');
  });

  it('GIVEN a union arm WHEN encoded THEN the discriminant precedes the arm (4.15)', () => {
    expect(hex(new XdrWriter().union(3, (x) => x.bool(true)).finish())).toBe('0000000300000001');
  });

  it('GIVEN an int beyond 32 bits WHEN encoded THEN XdrError is thrown', () => {
    expect(() => new XdrWriter().int(2 ** 31)).toThrow(XdrError);
  });

  it('GIVEN a string longer than its maximum WHEN encoded THEN XdrError is thrown', () => {
    expect(() => new XdrWriter().string('abcdef', 5)).toThrow(/exceeds maximum 5/);
  });

  it('GIVEN many writes WHEN the initial buffer is small THEN it grows and keeps earlier bytes', () => {
    const w = new XdrWriter(4);
    for (let i = 0; i < 100; i++) w.uint(i);
    expect(w.length).toBe(400);
    expect(new XdrReader(w.finish()).fixedArray(100, (r) => r.uint())[99]).toBe(99);
  });
});

describe('XdrReader', () => {
  it('GIVEN the encoding of every type WHEN read back THEN the values round-trip', () => {
    const w = new XdrWriter()
      .int(-5)
      .uint(4000000000)
      .bool(true)
      .hyper(-(2n ** 40n))
      .uhyper(2n ** 63n)
      .string('héllo')
      .opaque(Buffer.from([9]))
      .fixedOpaque(Buffer.alloc(16, 7), 16)
      .optional('x', (x, s) => x.string(s))
      .array(['a', 'bc'], (x, s) => x.string(s));
    const r = new XdrReader(w.finish());
    expect([r.int(), r.uint(), r.bool(), r.hyper(), r.uhyper()]).toEqual([-5, 4000000000, true, -(2n ** 40n), 2n ** 63n]);
    expect(r.string()).toBe('héllo');
    expect([...r.opaque()]).toEqual([9]);
    expect(r.fixedOpaque(16).equals(Buffer.alloc(16, 7))).toBe(true);
    expect(r.optional((x) => x.string())).toBe('x');
    expect(r.array((x) => x.string())).toEqual(['a', 'bc']);
    expect(() => r.end()).not.toThrow();
  });

  it('GIVEN truncated string data WHEN read THEN XdrError names the shortfall', () => {
    expect(() => new XdrReader(Buffer.from('0000000568656c', 'hex')).string()).toThrow(/truncated/);
  });

  it('GIVEN a bool of 2 WHEN read THEN XdrError is thrown (4.4)', () => {
    expect(() => new XdrReader(Buffer.from('00000002', 'hex')).bool()).toThrow(/invalid bool/);
  });

  it('GIVEN an array count larger than the data WHEN read THEN XdrError is thrown before allocating', () => {
    expect(() => new XdrReader(Buffer.from('7fffffff', 'hex')).array((r) => r.int())).toThrow(XdrError);
  });

  it('GIVEN leftover bytes WHEN end() is called THEN XdrError is thrown', () => {
    const r = new XdrReader(Buffer.from('0000000100000002', 'hex'));
    r.int();
    expect(() => r.end()).toThrow(/4 unexpected trailing bytes/);
  });

  it('GIVEN an unsigned hyper above 2^53 WHEN read as number THEN XdrError is thrown', () => {
    expect(() => new XdrReader(new XdrWriter().uhyper(2n ** 60n).finish()).uhyperNumber()).toThrow(/safe integer/);
  });

  it('GIVEN an unknown union discriminant WHEN read THEN XdrError is thrown', () => {
    expect(() => new XdrReader(Buffer.from('00000009', 'hex')).union({ 1: (r) => r.int() })).toThrow(/discriminant 9/);
  });

  it('GIVEN lengths 0..4 WHEN padding is computed THEN it rounds up to a multiple of 4', () => {
    expect([0, 1, 2, 3, 4].map(xdrPadding)).toEqual([0, 3, 2, 1, 0]);
  });
});
