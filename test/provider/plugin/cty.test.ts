import {
  decodeJson,
  decodeMsgpack,
  encodeMsgpack,
  inferType,
  t,
  typeFromJson,
  typeToJson,
  UNKNOWN,
} from '../../../provider/src/plugin/cty';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => Buffer.from(h.replace(/\s+/g, ''), 'hex');

describe('cty type JSON', () => {
  it('GIVEN primitive and collection types WHEN rendered THEN they use the cty JSON forms', () => {
    expect(typeToJson(t.string)).toBe('string');
    expect(typeToJson(t.list(t.number))).toEqual(['list', 'number']);
    expect(typeToJson(t.set(t.map(t.bool)))).toEqual(['set', ['map', 'bool']]);
    expect(typeToJson(t.dynamic)).toBe('dynamic');
  });

  it('GIVEN an object with optional attributes WHEN rendered THEN keys are sorted and optionals listed third', () => {
    expect(JSON.stringify(typeToJson(t.object({ b: t.string, a: t.number }, ['b'])))).toBe('["object",{"a":"number","b":"string"},["b"]]');
  });

  it('GIVEN a type WHEN rendered and parsed back THEN it is the same type', () => {
    const type = t.object({ xs: t.list(t.object({ n: t.number })), m: t.map(t.string), tup: t.tuple([t.bool, t.string]) });
    expect(typeFromJson(typeToJson(type))).toEqual(type);
  });

  it('GIVEN something that is not a type WHEN parsed THEN it throws', () => {
    expect(() => typeFromJson(['list'])).toThrow(/not a cty type/);
  });
});

describe('msgpack DynamicValue encoding', () => {
  it('GIVEN an unknown value WHEN encoded THEN it is fixext1 type 0 with one zero byte', () => {
    expect(hex(encodeMsgpack(UNKNOWN, t.string))).toBe('d40000');
  });

  it('GIVEN an object missing an attribute WHEN encoded THEN the attribute is written as nil', () => {
    expect(hex(encodeMsgpack({ b: 1 }, t.object({ a: t.string, b: t.number })))).toBe('82a161c0a16201');
  });

  it('GIVEN an integral number WHEN encoded THEN it is a msgpack integer', () => {
    expect(hex(encodeMsgpack(10, t.number))).toBe('0a');
  });

  it('GIVEN a fractional number WHEN encoded THEN it is a float64', () => {
    expect(hex(encodeMsgpack(1.5, t.number))).toBe('cb3ff8000000000000');
  });

  it('GIVEN a set WHEN encoded THEN it is a msgpack array', () => {
    expect(hex(encodeMsgpack(['x'], t.set(t.string)))).toBe('91a178');
  });

  it('GIVEN a value of the wrong type WHEN encoded THEN it throws with the path', () => {
    expect(() => encodeMsgpack({ a: [1, 'x'] }, t.object({ a: t.list(t.number) }))).toThrow('a.1: expected number, got string');
  });

  it('GIVEN a dynamic value WHEN encoded and decoded THEN it round-trips through [type, value]', () => {
    const encoded = encodeMsgpack({ k: ['a', 1] }, t.dynamic);
    expect(encoded[0]).toBe(0x92); // 2-array
    expect(decodeMsgpack(encoded, t.dynamic)).toEqual({ k: ['a', 1] });
  });

  it('GIVEN values encoded one after another (one encoder reused) THEN each keeps its own bytes', () => {
    const type = t.object({ name: t.string, memory: t.number });
    const first = encodeMsgpack({ name: 'a'.repeat(3000), memory: 64 }, type); // larger than the encoder's first buffer
    const copy = Buffer.from(first);
    const second = encodeMsgpack({ name: 'b', memory: 1 }, type);
    expect(first.equals(copy)).toBe(true);
    expect(decodeMsgpack(first, type)).toEqual({ name: 'a'.repeat(3000), memory: 64 });
    expect(decodeMsgpack(second, type)).toEqual({ name: 'b', memory: 1 });
    expect(() => decodeMsgpack(Buffer.concat([second, bytes('c0')]), type)).toThrow(); // trailing bytes refused, as before
    expect(decodeMsgpack(second, type)).toEqual({ name: 'b', memory: 1 }); // and the decoder still works after a refusal
  });
});

describe('msgpack DynamicValue decoding', () => {
  it('GIVEN a classic unknown (ext 0) WHEN decoded THEN it is UNKNOWN', () => {
    expect(decodeMsgpack(bytes('d40000'), t.string)).toBe(UNKNOWN);
  });

  it('GIVEN a refined unknown (ext 12 with a refinement map) WHEN decoded THEN it is UNKNOWN', () => {
    // ext8, 3 bytes, type 12, payload {1: true} (refinement: not null)
    expect(decodeMsgpack(bytes('c7 03 0c 81 01 c3'), t.string)).toBe(UNKNOWN);
  });

  it('GIVEN nested objects with unknowns and missing keys WHEN decoded THEN every attribute is present', () => {
    const type = t.object({ name: t.string, disk: t.list(t.object({ label: t.string, serial: t.string })) });
    // {"disk": [{"label": "root", "serial": <unknown>}]} — "name" absent
    const raw = bytes('81 a4 6469736b 91 82 a5 6c6162656c a4 726f6f74 a6 73657269616c d4 00 00');
    expect(decodeMsgpack(raw, type)).toEqual({ name: null, disk: [{ label: 'root', serial: UNKNOWN }] });
  });

  it('GIVEN a number sent as a decimal string (go-cty big number) WHEN decoded THEN it is a number', () => {
    expect(decodeMsgpack(bytes('a3 313233'), t.number)).toBe(123);
  });

  it('GIVEN a float64 WHEN decoded THEN it is the number', () => {
    expect(decodeMsgpack(bytes('cb3ff8000000000000'), t.number)).toBe(1.5);
  });

  it('GIVEN an object value WHEN encoded then decoded THEN it is unchanged', () => {
    const type = t.object({ s: t.string, n: t.number, b: t.bool, m: t.map(t.string), l: t.list(t.number) });
    const value = { s: 'x', n: -2.25, b: true, m: { k: 'v' }, l: [1, 2] };
    expect(decodeMsgpack(encodeMsgpack(value, type), type)).toEqual(value);
  });
});

describe('JSON DynamicValue decoding', () => {
  it('GIVEN JSON with a missing attribute and a dynamic value WHEN decoded THEN it is completed and typed', () => {
    const type = t.object({ a: t.string, b: t.number, d: t.dynamic });
    expect(decodeJson('{"b": 2, "d": {"value": ["x"], "type": ["list", "string"]}}', type)).toEqual({ a: null, b: 2, d: ['x'] });
  });
});

describe('inferType', () => {
  it('GIVEN a JS object WHEN inferred THEN arrays are tuples and objects are objects', () => {
    expect(inferType({ a: [1, 'x'] })).toEqual(t.object({ a: t.tuple([t.number, t.string]) }));
  });
});
