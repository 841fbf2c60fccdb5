/**
 * cty, Terraform's type system, as far as the plugin protocol needs it: a type model, its JSON form (the bytes in
 * `Schema.Attribute.type`), and the codec for `DynamicValue` (msgpack out, msgpack or JSON in).
 *
 * Values are plain JS: string, number, boolean, null, arrays (list, set, tuple), objects (map, object), and the
 * symbol `UNKNOWN` for a value Terraform does not know yet. Conversion is driven by the type, so objects always
 * carry every attribute (null when absent) and nested values are complete.
 *
 * Wire rules implemented (Terraform docs/plugin-protocol/object-wire-format.md, go-cty msgpack):
 * - null is msgpack nil; unknown is written as fixext1 type 0 with one 0 byte; ANY ext type read is unknown
 *   (type 0 classic, type 12 refined unknowns since Terraform 1.6);
 * - numbers are written as integers when exact, else float64; read as int, float or decimal string;
 * - lists, sets and tuples are arrays; maps and objects are maps (object keys sorted);
 * - a `dynamic` value is a 2-array `[type JSON as bytes, value]`; in JSON it is `{"value": v, "type": t}`.
 */
import type * as Msgpack from '@msgpack/msgpack';

/** @msgpack/msgpack, loaded on first use: a provider launched only for its schema never needs it (issue #15). */
let msgpackLib: typeof Msgpack | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, for start-up time (issue #15)
const msgpack = (): typeof Msgpack => (msgpackLib ??= require('@msgpack/msgpack') as typeof Msgpack);

/** The unknown value ("known after apply"). */
export const UNKNOWN: unique symbol = Symbol.for('virtseed.cty.unknown');
export type Unknown = typeof UNKNOWN;

/** True for the unknown value. */
export function isUnknown(v: unknown): v is Unknown {
  return v === UNKNOWN;
}

/** A cty type. Build with the `t` factories. `optional` on an object lists attributes that may be omitted in a
 *  type constraint (rendered as the third element of `["object", {...}, [...]]`). */
export type CtyType =
  | { readonly kind: 'string' | 'number' | 'bool' | 'dynamic' }
  | { readonly kind: 'list' | 'set' | 'map'; readonly element: CtyType }
  | { readonly kind: 'object'; readonly attributes: Readonly<Record<string, CtyType>>; readonly optional?: readonly string[] }
  | { readonly kind: 'tuple'; readonly elements: readonly CtyType[] };

/** Factories for cty types: `t.string`, `t.list(t.string)`, `t.object({a: t.number}, ['a'])` ... */
export const t = {
  string: { kind: 'string' } as CtyType,
  number: { kind: 'number' } as CtyType,
  bool: { kind: 'bool' } as CtyType,
  dynamic: { kind: 'dynamic' } as CtyType,
  list: (element: CtyType): CtyType => ({ kind: 'list', element }),
  set: (element: CtyType): CtyType => ({ kind: 'set', element }),
  map: (element: CtyType): CtyType => ({ kind: 'map', element }),
  object: (attributes: Record<string, CtyType>, optional?: string[]): CtyType =>
    optional && optional.length ? { kind: 'object', attributes, optional } : { kind: 'object', attributes },
  tuple: (elements: CtyType[]): CtyType => ({ kind: 'tuple', elements }),
};

/** The JSON form of a type: `"string"`, `["list","string"]`, `["object",{"a":"number"}]`, `"dynamic"` ... */
export function typeToJson(type: CtyType): unknown {
  switch (type.kind) {
    case 'string':
    case 'number':
    case 'bool':
    case 'dynamic':
      return type.kind;
    case 'list':
    case 'set':
    case 'map':
      return [type.kind, typeToJson(type.element)];
    case 'object': {
      const attrs: Record<string, unknown> = {};
      for (const name of Object.keys(type.attributes).sort()) attrs[name] = typeToJson(type.attributes[name]);
      return type.optional && type.optional.length ? ['object', attrs, [...type.optional].sort()] : ['object', attrs];
    }
    case 'tuple':
      return ['tuple', type.elements.map(typeToJson)];
  }
}

/** `typeToJson` as the UTF-8 bytes Terraform expects in `Schema.Attribute.type`. */
export function typeToJsonBytes(type: CtyType): Buffer {
  return Buffer.from(JSON.stringify(typeToJson(type)), 'utf8');
}

/** Parses the JSON form of a type. Throws `Error` on anything that is not a cty type. */
export function typeFromJson(json: unknown): CtyType {
  if (json === 'string' || json === 'number' || json === 'bool' || json === 'dynamic') return { kind: json };
  if (Array.isArray(json)) {
    const [kind, arg, opt] = json;
    if (kind === 'list' || kind === 'set' || kind === 'map') return { kind, element: typeFromJson(arg) };
    if (kind === 'tuple' && Array.isArray(arg)) return t.tuple(arg.map(typeFromJson));
    if (kind === 'object' && arg && typeof arg === 'object' && !Array.isArray(arg)) {
      const attrs: Record<string, CtyType> = {};
      for (const [k, v] of Object.entries(arg)) attrs[k] = typeFromJson(v);
      return t.object(attrs, Array.isArray(opt) ? opt.map(String) : undefined);
    }
  }
  throw new Error(`not a cty type: ${JSON.stringify(json)}`);
}

/** Infers the cty type of a plain JS value (used for `dynamic` values): arrays are tuples, objects objects. */
export function inferType(value: unknown): CtyType {
  if (typeof value === 'string') return t.string;
  if (typeof value === 'number') return t.number;
  if (typeof value === 'boolean') return t.bool;
  if (Array.isArray(value)) return t.tuple(value.map(inferType));
  if (value !== null && typeof value === 'object') {
    const attrs: Record<string, CtyType> = {};
    for (const [k, v] of Object.entries(value)) attrs[k] = inferType(v);
    return t.object(attrs);
  }
  return t.dynamic; // null or unknown: no more precise type
}

/** Thrown when a value does not conform to its type; `path` is where, from the value's root. */
export class CtyConversionError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(`${path.length ? path.join('.') + ': ' : ''}${message}`);
    this.name = 'CtyConversionError';
  }
}

let unknownExt: Msgpack.ExtData | undefined;
const UNKNOWN_EXT = (): Msgpack.ExtData => (unknownExt ??= new (msgpack().ExtData)(0, new Uint8Array([0])));

let codecs: { readonly encoder: Msgpack.Encoder; readonly decoder: Msgpack.Decoder } | undefined;
/**
 * One msgpack encoder and one decoder per process, reused: `msgpack.encode`/`decode` build a new one per value (the
 * encoder with a fresh 2 KB buffer), 8 per domain per plan (issue #38). Both copy what they return, and clone
 * themselves if a call is nested in another.
 */
function codec(): { readonly encoder: Msgpack.Encoder; readonly decoder: Msgpack.Decoder } {
  return (codecs ??= {
    encoder: new (msgpack().Encoder)({ sortKeys: false, forceIntegerToFloat: false, ignoreUndefined: false }),
    decoder: new (msgpack().Decoder)({ useBigInt64: false }),
  });
}

/** Encodes a value of `type` as msgpack (the `DynamicValue.msgpack` field). Throws `CtyConversionError`. */
export function encodeMsgpack(value: unknown, type: CtyType): Buffer {
  const wire = toWire(value, type, null, 'msgpack');
  const bytes = codec().encoder.encode(wire); // a copy of the encoder's buffer
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Decodes msgpack bytes of a value of `type`. Any extension type becomes `UNKNOWN`. Throws on malformed input. */
export function decodeMsgpack(bytes: Uint8Array, type: CtyType, strict = false): unknown {
  const raw = codec().decoder.decode(bytes);
  return fromWire(raw, type, null, 'msgpack', strict);
}

/** Decodes the JSON form of a value of `type` (`DynamicValue.json`, raw state JSON) from bytes or a parsed value. */
export function decodeJson(json: Uint8Array | string | unknown, type: CtyType, strict = false): unknown {
  const parsed =
    typeof json === 'string' ? JSON.parse(json) : json instanceof Uint8Array ? JSON.parse(Buffer.from(json).toString('utf8')) : json;
  return fromWire(parsed, type, null, 'json', strict);
}

/** Converts a plain value to the JS shape of `type` (fills absent object attributes with null, drops unknown keys,
 *  turns numeric strings into numbers). Used on handler output before encoding and on JSON input. */
export function conform(value: unknown, type: CtyType): unknown {
  return fromWire(value, type, null, 'json');
}

/**
 * Where a conversion is, from the value's root: a linked list built as the walk descends (one small object per
 * level, no array copied per attribute), turned into an array only for an error.
 */
type Path = { readonly parent: Path; readonly key: string | number } | null;

const at = (parent: Path, key: string | number): Path => ({ parent, key });

function pathArray(path: Path): (string | number)[] {
  const out: (string | number)[] = [];
  for (let p = path; p; p = p.parent) out.push(p.key);
  return out.reverse();
}

const attributeKeys = new WeakMap<object, readonly string[]>();
/** The attribute names of an object type in declaration order (`Object.keys`), computed once per type: decoding
 *  walks the same types for every value. */
function attributeNames(attributes: Record<string, CtyType>): readonly string[] {
  let keys = attributeKeys.get(attributes);
  if (!keys) attributeKeys.set(attributes, (keys = Object.keys(attributes)));
  return keys;
}

/** The attribute names of an object type, sorted (the order msgpack objects are written in), computed once. */
const sortedKeys = new WeakMap<object, readonly string[]>();
function sortedAttributes(attributes: Record<string, CtyType>): readonly string[] {
  let keys = sortedKeys.get(attributes);
  if (!keys) sortedKeys.set(attributes, (keys = Object.keys(attributes).sort()));
  return keys;
}

/** A cty bool from a boolean or its string form (`"true"`/`"false"`, which Terraform converts to bool). */
function boolOf(value: unknown, path: Path): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new CtyConversionError(pathArray(path), `expected bool, got ${describe(value)}`);
}

/** The wire representation (what @msgpack/msgpack encodes) of a JS value of `type`. */
function toWire(value: unknown, type: CtyType, path: Path, mode: 'msgpack'): unknown {
  if (value === null || value === undefined) return null;
  if (value === UNKNOWN) return UNKNOWN_EXT();
  switch (type.kind) {
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw new CtyConversionError(pathArray(path), `expected string, got ${describe(value)}`);
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || Number.isNaN(n))
        throw new CtyConversionError(pathArray(path), `expected number, got ${describe(value)}`);
      return n; // @msgpack/msgpack writes safe integers as int, others as float64
    }
    case 'bool':
      return boolOf(value, path);
    case 'list':
    case 'set':
      if (!Array.isArray(value)) throw new CtyConversionError(pathArray(path), `expected ${type.kind}, got ${describe(value)}`);
      return value.map((v, i) => toWire(v, type.element, at(path, i), mode));
    case 'tuple':
      if (!Array.isArray(value) || value.length !== type.elements.length)
        throw new CtyConversionError(pathArray(path), `expected tuple of ${type.elements.length}, got ${describe(value)}`);
      return value.map((v, i) => toWire(v, type.elements[i], at(path, i), mode));
    case 'map': {
      if (!isPlainObject(value)) throw new CtyConversionError(pathArray(path), `expected map, got ${describe(value)}`);
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort()) out[k] = toWire(value[k], type.element, at(path, k), mode);
      return out;
    }
    case 'object': {
      if (!isPlainObject(value)) throw new CtyConversionError(pathArray(path), `expected object, got ${describe(value)}`);
      const out: Record<string, unknown> = {};
      for (const k of sortedAttributes(type.attributes)) {
        out[k] = toWire(value[k], type.attributes[k], at(path, k), mode);
      }
      return out;
    }
    case 'dynamic': {
      const actual = inferType(value);
      return [typeToJsonBytes(actual), toWire(value, actual, path, mode)];
    }
  }
}

/** The JS value of `type` from its wire form (decoded msgpack or parsed JSON). */
function fromWire(raw: unknown, type: CtyType, path: Path, mode: 'msgpack' | 'json', strict = false): unknown {
  if (raw === null || raw === undefined) return null;
  if (raw === UNKNOWN || (msgpackLib !== undefined && raw instanceof msgpackLib.ExtData) || raw instanceof Date) return UNKNOWN;
  switch (type.kind) {
    case 'string':
      if (typeof raw === 'string') return raw;
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
      throw new CtyConversionError(pathArray(path), `expected string, got ${describe(raw)}`);
    case 'number': {
      if (typeof raw === 'number') return raw;
      if (typeof raw === 'bigint') return Number(raw);
      if (typeof raw === 'string' && raw.trim() !== '' && !Number.isNaN(Number(raw))) return Number(raw);
      throw new CtyConversionError(pathArray(path), `expected number, got ${describe(raw)}`);
    }
    case 'bool':
      return boolOf(raw, path);
    case 'list':
    case 'set':
      if (!Array.isArray(raw)) throw new CtyConversionError(pathArray(path), `expected ${type.kind}, got ${describe(raw)}`);
      return raw.map((v, i) => fromWire(v, type.element, at(path, i), mode, strict));
    case 'tuple':
      if (!Array.isArray(raw)) throw new CtyConversionError(pathArray(path), `expected tuple, got ${describe(raw)}`);
      return type.elements.map((et, i) => fromWire(raw[i], et, at(path, i), mode, strict));
    case 'map': {
      if (!isPlainObject(raw)) throw new CtyConversionError(pathArray(path), `expected map, got ${describe(raw)}`);
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(raw)) out[k] = fromWire(raw[k], type.element, at(path, k), mode, strict);
      return out;
    }
    case 'object': {
      if (!isPlainObject(raw)) throw new CtyConversionError(pathArray(path), `expected object, got ${describe(raw)}`);
      if (strict) {
        for (const k in raw) {
          if (Object.hasOwn(raw, k) && !(k in type.attributes))
            throw new CtyConversionError(
              pathArray(at(path, k)),
              `unknown attribute "${k}"; expected one of ${Object.keys(type.attributes).join(', ') || '(none)'}`,
            );
        }
      }
      const out: Record<string, unknown> = {};
      for (const k of attributeNames(type.attributes)) out[k] = fromWire(raw[k], type.attributes[k], at(path, k), mode, strict);
      return out;
    }
    case 'dynamic':
      return fromDynamic(raw, path, mode, strict);
  }
}

function fromDynamic(raw: unknown, path: Path, mode: 'msgpack' | 'json', strict = false): unknown {
  if (mode === 'msgpack') {
    if (Array.isArray(raw) && raw.length === 2 && (raw[0] instanceof Uint8Array || typeof raw[0] === 'string')) {
      const typeJson = typeof raw[0] === 'string' ? raw[0] : Buffer.from(raw[0]).toString('utf8');
      return fromWire(raw[1], typeFromJson(JSON.parse(typeJson)), path, mode, strict);
    }
    throw new CtyConversionError(pathArray(path), 'malformed dynamic value: expected [type, value]');
  }
  if (isPlainObject(raw) && 'type' in raw && 'value' in raw) return fromWire(raw.value, typeFromJson(raw.type), path, mode, strict);
  return raw; // already a plain value (handler output, raw state): keep as is
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v instanceof Uint8Array) return 'bytes';
  return typeof v;
}
