/**
 * XDR (External Data Representation, RFC 4506) encoder and decoder: the byte format of every libvirt RPC
 * payload. Big-endian, every item padded to a multiple of 4 bytes.
 *
 * Covered (RFC 4506 section): int/unsigned int (4.1, 4.2), enum (4.3), bool (4.4), hyper/unsigned hyper (4.5),
 * fixed-length opaque (4.9), variable-length opaque (4.10), string (4.11), fixed/variable arrays (4.12, 4.13),
 * discriminated union (4.15), optional data `*` (4.19). `char`/`unsigned char`/`short` are 4-byte ints on the
 * wire (rpcgen maps them to xdr_char/xdr_u_char, which widen to int).
 */

/** Thrown when bytes are not valid XDR for the expected type (truncated, bad bool, over a declared maximum). */
export class XdrError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XdrError';
  }
}

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
const UINT32_MAX = 0xffffffff;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** Bytes of padding that follow `length` bytes of opaque data or string (RFC 4506 4.9). */
export function xdrPadding(length: number): number {
  return (4 - (length % 4)) % 4;
}

/** Appends XDR items to a growing buffer; `finish()` returns the encoded bytes. */
export class XdrWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(initialSize = 256) {
    this.buf = Buffer.alloc(initialSize);
  }

  /** Number of bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** The encoded bytes (a copy-free view of the written part). */
  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.alloc(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Signed 32-bit integer (4.1). Throws XdrError outside [-2^31, 2^31-1] or for non-integers. */
  int(value: number): this {
    if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) throw new XdrError(`int out of range: ${value}`);
    this.reserve(4);
    this.buf.writeInt32BE(value, this.pos);
    this.pos += 4;
    return this;
  }

  /** Unsigned 32-bit integer (4.2). Throws XdrError outside [0, 2^32-1]. */
  uint(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) throw new XdrError(`unsigned int out of range: ${value}`);
    this.reserve(4);
    this.buf.writeUInt32BE(value, this.pos);
    this.pos += 4;
    return this;
  }

  /** Enum (4.3): a signed 32-bit integer. */
  enum(value: number): this {
    return this.int(value);
  }

  /** Boolean (4.4): 0 or 1 as an int. */
  bool(value: boolean): this {
    return this.int(value ? 1 : 0);
  }

  /** Signed 64-bit integer (4.5). Accepts a safe integer number or a bigint. */
  hyper(value: bigint | number): this {
    const v = toBigInt(value, 'hyper');
    if (v < INT64_MIN || v > INT64_MAX) throw new XdrError(`hyper out of range: ${v}`);
    this.reserve(8);
    this.buf.writeBigInt64BE(v, this.pos);
    this.pos += 8;
    return this;
  }

  /** Unsigned 64-bit integer (4.5). Accepts a safe integer number or a bigint. */
  uhyper(value: bigint | number): this {
    const v = toBigInt(value, 'unsigned hyper');
    if (v < 0n || v > UINT64_MAX) throw new XdrError(`unsigned hyper out of range: ${v}`);
    this.reserve(8);
    this.buf.writeBigUInt64BE(v, this.pos);
    this.pos += 8;
    return this;
  }

  /** Fixed-length opaque (4.9): exactly `size` bytes, then padding. */
  fixedOpaque(bytes: Uint8Array, size: number): this {
    if (bytes.length !== size) throw new XdrError(`fixed opaque needs ${size} bytes, got ${bytes.length}`);
    this.raw(bytes);
    return this.pad(size);
  }

  /** Variable-length opaque (4.10): length, bytes, padding. Throws XdrError when longer than `max`. */
  opaque(bytes: Uint8Array, max = UINT32_MAX): this {
    if (bytes.length > max) throw new XdrError(`opaque of ${bytes.length} bytes exceeds maximum ${max}`);
    this.uint(bytes.length);
    this.raw(bytes);
    return this.pad(bytes.length);
  }

  /** String (4.11): UTF-8 bytes as variable-length opaque. `max` counts bytes. */
  string(value: string, max = UINT32_MAX): this {
    return this.opaque(Buffer.from(value, 'utf8'), max);
  }

  /** Optional data (4.19): a bool "present" then the value when not null/undefined. */
  optional<T>(value: T | null | undefined, write: (w: this, v: T) => void): this {
    if (value === null || value === undefined) return this.bool(false);
    this.bool(true);
    write(this, value);
    return this;
  }

  /** Variable-length array (4.13): count, then each element. */
  array<T>(items: readonly T[], write: (w: this, v: T) => void, max = UINT32_MAX): this {
    if (items.length > max) throw new XdrError(`array of ${items.length} elements exceeds maximum ${max}`);
    this.uint(items.length);
    for (const item of items) write(this, item);
    return this;
  }

  /** Fixed-length array (4.12): each element, no count. */
  fixedArray<T>(items: readonly T[], size: number, write: (w: this, v: T) => void): this {
    if (items.length !== size) throw new XdrError(`fixed array needs ${size} elements, got ${items.length}`);
    for (const item of items) write(this, item);
    return this;
  }

  /** Discriminated union (4.15): the discriminant as int, then the arm's body. */
  union(discriminant: number, writeArm: (w: this) => void): this {
    this.int(discriminant);
    writeArm(this);
    return this;
  }

  private raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  private pad(length: number): this {
    const n = xdrPadding(length);
    this.reserve(n);
    this.buf.fill(0, this.pos, this.pos + n);
    this.pos += n;
    return this;
  }
}

/** Reads XDR items in order from a byte array. Every read throws XdrError when the data runs out. */
export class XdrReader {
  private readonly buf: Buffer;
  private pos = 0;

  constructor(bytes: Uint8Array) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Bytes not yet read. */
  get remaining(): number {
    return this.buf.length - this.pos;
  }

  /** Throws XdrError when bytes are left over (a struct decoded against the wrong layout). */
  end(): void {
    if (this.remaining !== 0) throw new XdrError(`${this.remaining} unexpected trailing bytes`);
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length)
      throw new XdrError(`truncated XDR data: need ${n} bytes at offset ${this.pos}, have ${this.remaining}`);
  }

  int(): number {
    this.need(4);
    const v = this.buf.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  uint(): number {
    this.need(4);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  enum(): number {
    return this.int();
  }

  /** Throws XdrError for values other than 0 and 1 (4.4). */
  bool(): boolean {
    const v = this.int();
    if (v !== 0 && v !== 1) throw new XdrError(`invalid bool value ${v}`);
    return v === 1;
  }

  hyper(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64BE(this.pos);
    this.pos += 8;
    return v;
  }

  uhyper(): bigint {
    this.need(8);
    const v = this.buf.readBigUInt64BE(this.pos);
    this.pos += 8;
    return v;
  }

  /** Unsigned hyper as a number; throws XdrError above Number.MAX_SAFE_INTEGER. */
  uhyperNumber(): number {
    const v = this.uhyper();
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new XdrError(`unsigned hyper ${v} exceeds the safe integer range`);
    return Number(v);
  }

  /** Fixed-length opaque (4.9); returns a copy. */
  fixedOpaque(size: number): Buffer {
    this.need(size + xdrPadding(size));
    const out = Buffer.from(this.buf.subarray(this.pos, this.pos + size));
    this.pos += size + xdrPadding(size);
    return out;
  }

  /** Variable-length opaque (4.10); returns a copy. Throws XdrError when longer than `max`. */
  opaque(max = UINT32_MAX): Buffer {
    const length = this.uint();
    if (length > max) throw new XdrError(`opaque of ${length} bytes exceeds maximum ${max}`);
    return this.fixedOpaque(length);
  }

  /** String (4.11), decoded as UTF-8. */
  string(max = UINT32_MAX): string {
    return this.opaque(max).toString('utf8');
  }

  optional<T>(read: (r: this) => T): T | null {
    return this.bool() ? read(this) : null;
  }

  array<T>(read: (r: this) => T, max = UINT32_MAX): T[] {
    const count = this.uint();
    if (count > max) throw new XdrError(`array of ${count} elements exceeds maximum ${max}`);
    // Each element takes at least 4 bytes: reject counts the data cannot hold before allocating.
    if (count > this.remaining / 4 && count > 0) this.need(count * 4);
    const out: T[] = [];
    for (let i = 0; i < count; i++) out.push(read(this));
    return out;
  }

  fixedArray<T>(size: number, read: (r: this) => T): T[] {
    const out: T[] = [];
    for (let i = 0; i < size; i++) out.push(read(this));
    return out;
  }

  /** Discriminated union (4.15): reads the discriminant and dispatches; throws XdrError for unknown arms. */
  union<T>(arms: Record<number, (r: this) => T>): T {
    const d = this.int();
    const arm = arms[d];
    if (!arm) throw new XdrError(`unknown union discriminant ${d}`);
    return arm(this);
  }
}

function toBigInt(value: bigint | number, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isSafeInteger(value)) throw new XdrError(`${what} must be a safe integer or bigint, got ${value}`);
  return BigInt(value);
}
