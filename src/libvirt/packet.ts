/**
 * libvirt RPC packet framing (libvirt `src/rpc/virnetprotocol.x`, "RPC wire format"):
 *
 *   length (uint32, counts itself) | header (6 × 4 bytes) | payload (XDR, per procedure)
 *
 * Header fields: program, version, procedure, type, serial, status.
 */
import { XdrError, XdrReader, XdrWriter } from './xdr';

/** `REMOTE_PROGRAM`: the hypervisor API program. */
export const REMOTE_PROGRAM = 0x20008086;
/** `REMOTE_PROTOCOL_VERSION`. */
export const REMOTE_PROTOCOL_VERSION = 1;
/** `KEEPALIVE_PROGRAM` ("keep" in ASCII). */
export const KEEPALIVE_PROGRAM = 0x6b656570;
export const KEEPALIVE_PROTOCOL_VERSION = 1;
/** Keepalive procedures: PING asks, PONG answers; both are type MESSAGE with an empty payload. */
export const KEEPALIVE_PROC_PING = 1;
export const KEEPALIVE_PROC_PONG = 2;

/** Bytes of the length word (`VIR_NET_MESSAGE_LEN_MAX`). */
export const LENGTH_WORD_SIZE = 4;
/** Bytes of the serialised header (`VIR_NET_MESSAGE_HEADER_MAX`). */
export const HEADER_SIZE = 24;
/** Largest whole message the daemon accepts, length word excluded (`VIR_NET_MESSAGE_MAX`, libvirt ≥ 1.2.x). */
export const MESSAGE_MAX = 16 * 1024 * 1024;
/** Largest payload (`VIR_NET_MESSAGE_PAYLOAD_MAX` = MESSAGE_MAX − HEADER_SIZE). */
export const PAYLOAD_MAX = MESSAGE_MAX - HEADER_SIZE;
/** Payload limit of daemons older than the enlarged buffers (`VIR_NET_MESSAGE_LEGACY_PAYLOAD_MAX`). */
export const LEGACY_PAYLOAD_MAX = 262144;

/** `virNetMessageType`. */
export enum MessageType {
  Call = 0,
  Reply = 1,
  Message = 2,
  Stream = 3,
  CallWithFds = 4,
  ReplyWithFds = 5,
  /** Either direction: a hole in a sparse stream (`virNetStreamHole` payload). */
  StreamHole = 6,
}

/** `virNetMessageStatus`. */
export enum MessageStatus {
  Ok = 0,
  Error = 1,
  Continue = 2,
}

/** `virNetMessageHeader`. */
export interface PacketHeader {
  program: number;
  version: number;
  procedure: number;
  type: MessageType;
  serial: number;
  status: MessageStatus;
}

export interface Packet {
  header: PacketHeader;
  payload: Buffer;
}

/** Thrown for bytes that are not a valid libvirt RPC packet. */
export class PacketError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PacketError';
  }
}

/** Encodes one packet: length word + header + payload. Throws PacketError when the payload exceeds PAYLOAD_MAX. */
export function encodePacket(header: PacketHeader, payload: Uint8Array = new Uint8Array(0)): Buffer {
  if (payload.length > PAYLOAD_MAX) throw new PacketError(`payload of ${payload.length} bytes exceeds ${PAYLOAD_MAX}`);
  const out = Buffer.allocUnsafe(LENGTH_WORD_SIZE + HEADER_SIZE + payload.length); // every byte is written below
  out.writeUInt32BE(out.length, 0);
  const w = new XdrWriter(HEADER_SIZE);
  w.uint(header.program).uint(header.version).int(header.procedure).enum(header.type).uint(header.serial).enum(header.status);
  w.finish().copy(out, LENGTH_WORD_SIZE);
  out.set(payload, LENGTH_WORD_SIZE + HEADER_SIZE);
  return out;
}

/** Decodes the 24-byte header at the start of `bytes`. */
export function decodeHeader(bytes: Uint8Array): PacketHeader {
  const r = new XdrReader(bytes.subarray(0, HEADER_SIZE));
  try {
    return {
      program: r.uint(),
      version: r.uint(),
      procedure: r.int(),
      type: r.enum(),
      serial: r.uint(),
      status: r.enum(),
    };
  } catch (e) {
    if (e instanceof XdrError) throw new PacketError(`truncated packet header: ${e.message}`);
    throw e;
  }
}

/**
 * Splits a byte stream into packets. Feed socket chunks to `push`; it returns every packet completed so far.
 * Throws PacketError for a length word below the header size or above MESSAGE_MAX + 4 (a corrupt stream).
 */
export class PacketDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Uint8Array): Packet[] {
    this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.buffered += chunk.byteLength;
    const out: Packet[] = [];
    for (;;) {
      if (this.buffered < LENGTH_WORD_SIZE) break;
      const length = this.peekLength();
      if (length < LENGTH_WORD_SIZE + HEADER_SIZE || length > LENGTH_WORD_SIZE + MESSAGE_MAX) {
        throw new PacketError(`invalid packet length ${length}`);
      }
      if (this.buffered < length) break;
      const whole = this.take(length);
      out.push({ header: decodeHeader(whole.subarray(LENGTH_WORD_SIZE)), payload: whole.subarray(LENGTH_WORD_SIZE + HEADER_SIZE) });
    }
    return out;
  }

  /** Bytes received but not yet part of a whole packet. */
  get pending(): number {
    return this.buffered;
  }

  private peekLength(): number {
    if (this.chunks[0].length < LENGTH_WORD_SIZE) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0].readUInt32BE(0);
  }

  private take(n: number): Buffer {
    const first = this.chunks[0];
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      const all = Buffer.concat(this.chunks);
      out = all.subarray(0, n);
      this.chunks = all.length > n ? [all.subarray(n)] : [];
    }
    this.buffered -= n;
    return out;
  }
}
