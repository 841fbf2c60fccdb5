/**
 * One RPC connection to libvirtd over any byte stream (unix socket, TCP, TLS, ssh pipe): serial numbers, the map
 * of pending calls, keepalive answers, and data streams (libvirt `src/rpc/virnetprotocol.x`, "RPC wire format").
 *
 * - Calls: a CALL packet with a fresh serial; the REPLY with that serial carries the `_ret` struct (status OK) or
 *   a `remote_error` (status ERROR → LibvirtError).
 * - Streams: the CALL opens the stream and is answered by a REPLY; then STREAM packets with the same serial and
 *   procedure flow (status CONTINUE = data, OK = end/confirmation, ERROR = remote_error).
 * - Keepalive: a MESSAGE PING of program KEEPALIVE_PROGRAM is answered with a MESSAGE PONG. When nothing arrives
 *   for `keepaliveInterval` seconds, the client sends its own PING (libvirtd answers with a PONG); after
 *   `keepaliveCount` unanswered intervals the peer counts as dead and the connection fails (libvirt's client
 *   keepalive: dead after interval × (count + 1) seconds at most).
 * - A dropped connection rejects every pending call and stream with a LibvirtError (VIR_ERR_SYSTEM_ERROR,
 *   VIR_FROM_RPC).
 */
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import {
  KEEPALIVE_PROC_PING,
  KEEPALIVE_PROC_PONG,
  KEEPALIVE_PROGRAM,
  KEEPALIVE_PROTOCOL_VERSION,
  MessageStatus,
  MessageType,
  Packet,
  PacketDecoder,
  PacketHeader,
  REMOTE_PROGRAM,
  REMOTE_PROTOCOL_VERSION,
} from './packet';
import { encodePacket } from './packet';
import { LibvirtError, VIR_ERR_ERROR, VIR_ERR_RPC, VIR_ERR_SYSTEM_ERROR, VIR_FROM_RPC, decodeRemoteError } from './errors';
import { Channel } from './private/channel';
import { rechunk } from './private/rechunk';
import { isHole, toDenseSegments, toSparseSegments } from './private/sparse';
import { XdrWriter } from './xdr';

/** `virNetStreamHole` (virnetprotocol.x): the hole's length in bytes (hyper) and flags (0). */
export function encodeStreamHole(length: number): Uint8Array {
  return new XdrWriter(12).hyper(length).uint(0).finish();
}

/** Options accepted by every call. */
export interface CallOptions {
  /** Aborting rejects the call with the signal's reason; a stream is aborted on the daemon too. */
  signal?: AbortSignal;
}

/** Options of a write stream (an upload). */
export interface UploadOptions extends CallOptions {
  /**
   * Send runs of whole zero 4 KiB blocks as hole packets (VIR_NET_STREAM_HOLE) instead of data; only for
   * procedures opened with a sparse flag (VIR_STORAGE_VOL_UPLOAD_SPARSE_STREAM), else the daemon rejects them.
   */
  sparse?: boolean;
  /** Called after each packet with the bytes sent so far (holes count with their length). */
  onProgress?: (bytes: number) => void;
  /**
   * Called with what each packet carries, in stream order, once it is written: the packet's own copy of the data
   * (not the source's memory), or a hole's length. Lets a caller hash exactly what went on the wire.
   */
  onSent?: (segment: Uint8Array | { readonly hole: number }) => void;
}

/** Options of a read stream. */
export interface StreamOptions extends CallOptions {
  /** Called once the daemon has opened the stream (its REPLY arrived), before any data is yielded. */
  onOpen?: () => void;
}

/** Default bytes per STREAM packet: 256 KiB, well below the daemon's VIR_NET_MESSAGE_PAYLOAD_MAX (16 MiB − 24).
 *  Measured into a local pool (issue #15): 256 KiB packets uploaded about twice as fast as 1 MiB, and faster than
 *  128 KiB. */
export const DEFAULT_STREAM_CHUNK_SIZE = 256 * 1024;

/** Uploads wait for the socket to drain once this many bytes wait in its user-space buffer: a few packets stay
 *  queued, so the kernel's socket buffer never runs dry while the next chunk is read from the source. */
const UPLOAD_QUEUE_BYTES = 2 * 1024 * 1024;

/** Downloads pause reading the socket when this many received bytes wait for the consumer. */
const DOWNLOAD_HIGH_WATER = 8 * 1024 * 1024;

export interface RpcConnectionOptions {
  /** Bytes per outgoing STREAM packet (default 1 MiB). */
  streamChunkSize?: number;
  /** Seconds without a byte from the daemon before a keepalive PING (default 5; 0 = no keepalive). */
  keepaliveInterval?: number;
  /** Unanswered PINGs after which the daemon counts as dead (default 5). */
  keepaliveCount?: number;
}

/** libvirt's client defaults (libvirt.conf keepalive_interval, keepalive_count). */
export const DEFAULT_KEEPALIVE_INTERVAL_S = 5;
export const DEFAULT_KEEPALIVE_COUNT = 5;

export class RpcConnection {
  private serial = 0;
  private readonly channels = new Map<number, Channel>();
  private readonly decoder = new PacketDecoder();
  private lost: LibvirtError | null = null;
  private readonly closedPromise: Promise<void>;
  private pausedBy = new Set<number>();
  private transportFailure: Error | null = null;
  private keepaliveTimer: NodeJS.Timeout | null = null;
  private unanswered = 0;
  /** True while `send` holds the socket corked (until its queued microtask runs). */
  private corked = false;
  /** A TLS socket: each packet is written alone, the next from the previous write's callback (see `send`). */
  private readonly recordPerPacket: boolean;
  /** Over TLS: packets waiting for the write in flight (`writing`) to finish, and their bytes. */
  private readonly waiting: Uint8Array[] = [];
  private waitingBytes = 0;
  private writing = false;
  /** Over TLS: called when the waiting packets' bytes fall to UPLOAD_QUEUE_BYTES or less (an upload's back-pressure). */
  private readonly belowLimit = new Set<() => void>();
  readonly streamChunkSize: number;

  constructor(
    private readonly socket: Duplex,
    options: RpcConnectionOptions = {},
  ) {
    this.streamChunkSize = options.streamChunkSize ?? DEFAULT_STREAM_CHUNK_SIZE;
    this.recordPerPacket = socket instanceof TLSSocket;
    this.closedPromise = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => (this.unanswered = 0)); // the peer took our bytes: it is alive
    socket.on('error', (e: Error) => {
      this.transportFailure ??= e;
      this.fail(`${e.message}`);
    });
    socket.on('end', () => this.fail('end of file from libvirtd'));
    socket.on('close', () => this.fail('connection closed'));
    socket.resume();
    this.startKeepalive(options.keepaliveInterval, options.keepaliveCount);
  }

  /**
   * Starts keepalive pings (seconds between them, default 5; 0 = none) unless they run already; the constructor
   * starts them with its options. A connection opened with `keepaliveInterval: 0` starts them once its handshake
   * is done.
   */
  startKeepalive(interval = DEFAULT_KEEPALIVE_INTERVAL_S, count = DEFAULT_KEEPALIVE_COUNT): void {
    if (this.keepaliveTimer || interval <= 0 || this.lost) return;
    this.keepaliveTimer = setInterval(() => this.keepalive(interval, count), interval * 1000);
    this.keepaliveTimer.unref();
  }

  /** The error the byte stream itself failed with (e.g. ssh's exit, explained), if it did. */
  get transportError(): Error | null {
    return this.transportFailure;
  }

  private keepalive(interval: number, count: number): void {
    if (this.lost) return;
    if (this.pausedBy.size > 0) {
      // We stopped reading (a download waits for its consumer): the daemon's answers wait in the socket.
      this.unanswered = 0;
      return;
    }
    if (this.unanswered >= count) {
      this.fail(
        `libvirtd sent nothing for ${interval * (count + 1)} s and did not answer ${count} keepalive pings: the host or the network path to it is down`,
      );
      this.socket.destroy();
      return;
    }
    this.unanswered++;
    this.trySend({
      program: KEEPALIVE_PROGRAM,
      version: KEEPALIVE_PROTOCOL_VERSION,
      procedure: KEEPALIVE_PROC_PING,
      type: MessageType.Message,
      serial: 0,
      status: MessageStatus.Ok,
    });
  }

  /** True once the connection is closed or lost; every call then rejects. */
  get isClosed(): boolean {
    return this.lost !== null;
  }

  /** Calls `procedure` of `program` with XDR-encoded `args`; resolves with the reply's XDR payload. */
  async call(
    procedure: number,
    args: Uint8Array = new Uint8Array(0),
    options: CallOptions = {},
    program = REMOTE_PROGRAM,
  ): Promise<Buffer> {
    const { serial, channel } = this.open(procedure, options.signal);
    try {
      this.send({ program, version: REMOTE_PROTOCOL_VERSION, procedure, type: MessageType.Call, serial, status: MessageStatus.Ok }, args);
      return await channel.reply();
    } finally {
      this.channels.delete(serial);
      channel.dispose();
    }
  }

  /**
   * Calls a procedure that opens a write stream (e.g. STORAGE_VOL_UPLOAD), then sends `source` as STREAM
   * packets of at most `streamChunkSize` bytes, waiting for the socket to drain between packets (backpressure),
   * and finishes with an empty STREAM OK packet, resolving when the daemon confirms. Errors from the daemon
   * reject with LibvirtError; a failing source or an abort sends a stream abort (STREAM ERROR) and rethrows.
   * Each data packet is copied whole into a buffer the socket owns before the next chunk is asked for, so a
   * source may reuse a chunk's memory as soon as it is asked for the next one (a file reader with one buffer). The
   * socket may hold packets long after they were written (a busy daemon, other streams on the connection), and
   * holes let a sparse source run ahead of the socket by any length: a packet must never be a view of the
   * source's memory (issue #31.1: handing views to the socket corrupted concurrent sparse uploads).
   * With `options.sparse`, zero runs travel as STREAM_HOLE packets (status CONTINUE, payload `virNetStreamHole`).
   */
  async upload(procedure: number, args: Uint8Array, source: AsyncIterable<Uint8Array>, options: UploadOptions = {}): Promise<void> {
    const { serial, channel } = this.open(procedure, options.signal);
    const header = (status: MessageStatus): PacketHeader => ({
      program: REMOTE_PROGRAM,
      version: REMOTE_PROTOCOL_VERSION,
      procedure,
      type: MessageType.Stream,
      serial,
      status,
    });
    let opened = false;
    let finished = false;
    try {
      this.send({ ...header(MessageStatus.Ok), type: MessageType.Call }, args);
      await channel.reply();
      opened = true;
      const chunks = rechunk(source, this.streamChunkSize);
      let sent = 0;
      for await (const segment of options.sparse ? toSparseSegments(chunks) : toDenseSegments(chunks)) {
        channel.throwIfFailed();
        if (isHole(segment)) {
          this.send({ ...header(MessageStatus.Continue), type: MessageType.StreamHole }, encodeStreamHole(segment.hole));
          options.onSent?.(segment);
          sent += segment.hole;
        } else {
          await this.sendAndDrain(header(MessageStatus.Continue), segment, channel, options.onSent);
          sent += segment.length;
        }
        options.onProgress?.(sent);
      }
      channel.throwIfFailed();
      this.send(header(MessageStatus.Ok));
      await channel.streamEnd();
      finished = true;
    } finally {
      if (opened && !finished && !channel.failed && !this.lost) this.trySend(header(MessageStatus.Error));
      this.channels.delete(serial);
      channel.dispose();
    }
  }

  /**
   * Calls a procedure that opens a read stream (e.g. STORAGE_VOL_DOWNLOAD) and yields the daemon's data
   * packets as they arrive. At the daemon's end of stream it sends the finish packet and waits for the
   * confirmation. Reading the socket pauses while more than 8 MiB wait for the consumer. Breaking out of the
   * loop aborts the stream on the daemon.
   */
  async *download(procedure: number, args: Uint8Array, options: StreamOptions = {}): AsyncGenerator<Buffer, void, undefined> {
    const { serial, channel } = this.open(procedure, options.signal);
    const header = (status: MessageStatus): PacketHeader => ({
      program: REMOTE_PROGRAM,
      version: REMOTE_PROTOCOL_VERSION,
      procedure,
      type: MessageType.Stream,
      serial,
      status,
    });
    let opened = false;
    let finished = false;
    channel.onDrained = () => this.resumeFor(serial);
    try {
      this.send({ ...header(MessageStatus.Ok), type: MessageType.Call }, args);
      await channel.reply();
      opened = true;
      options.onOpen?.();
      for (;;) {
        const data = await channel.nextData();
        if (data === null) break;
        yield data;
      }
      this.send(header(MessageStatus.Ok));
      await channel.streamEnd();
      finished = true;
    } finally {
      if (opened && !finished && !channel.failed && !this.lost) this.trySend(header(MessageStatus.Error));
      this.resumeFor(serial);
      this.channels.delete(serial);
      channel.dispose();
    }
  }

  /** Ends the byte stream and waits until it is closed. Idempotent. Pending calls reject. */
  async destroy(): Promise<void> {
    this.fail('connection closed by the client', 'libvirt connection is closed');
    if (!this.socket.destroyed) {
      this.socket.end();
      const timer = setTimeout(() => this.socket.destroy(), 1000);
      await this.closedPromise;
      clearTimeout(timer);
    }
  }

  private open(procedure: number, signal: AbortSignal | undefined): { serial: number; channel: Channel } {
    if (this.lost) throw this.lost;
    signal?.throwIfAborted();
    this.serial = (this.serial + 1) >>> 0 || 1;
    const serial = this.serial;
    const channel = new Channel(procedure, signal);
    this.channels.set(serial, channel);
    return { serial, channel };
  }

  /**
   * Writes a packet. Packets sent together (calls started at once, e.g. with Promise.all) leave in one write: the
   * socket is corked at the first and uncorked by a microtask queued then, which runs after the reactions already
   * queued (issue 38: a write system call per packet was a large share of a small call's CPU). Not over TLS: there
   * one write is one TLS record, and libvirtd (9.0, GnuTLS) dispatches only the first packet of a record until more
   * bytes reach its socket, so the second call of a pair waited for the next keepalive (5 s); a packet per write is
   * a record per packet.
   */
  private send(header: PacketHeader, payload?: Uint8Array): void {
    if (this.lost) throw this.lost;
    if (!this.corked && !this.recordPerPacket) {
      this.corked = true;
      this.socket.cork();
      queueMicrotask(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.write(encodePacket(header, payload));
  }

  /**
   * Writes one encoded packet. Over TLS a packet is written only once the previous write finished: writes made while
   * one is in flight would wait in the socket's buffer and leave together (writev), one TLS record again.
   */
  private write(packet: Uint8Array): void {
    if (!this.recordPerPacket) {
      this.socket.write(packet);
      return;
    }
    if (this.writing) {
      this.waiting.push(packet);
      this.waitingBytes += packet.length;
      return;
    }
    this.writing = true;
    this.socket.write(packet, (err) => this.writeNext(err));
  }

  private writeNext(err: Error | null | undefined): void {
    const next = err || this.lost ? undefined : this.waiting.shift();
    if (!next) {
      this.waiting.length = 0;
      this.waitingBytes = 0;
      this.writing = false;
    } else {
      this.waitingBytes -= next.length;
      this.socket.write(next, (e) => this.writeNext(e));
    }
    if (this.waitingBytes <= UPLOAD_QUEUE_BYTES) for (const f of [...this.belowLimit]) f();
  }

  private trySend(header: PacketHeader, payload?: Uint8Array): void {
    try {
      this.send(header, payload);
    } catch {
      // connection already gone: nothing to abort
    }
  }

  /** Writes a packet (header and payload copied into one buffer the socket owns: see `upload`); when more than
   *  UPLOAD_QUEUE_BYTES wait in the socket's buffer, waits for 'drain' (or the stream's failure). */
  private async sendAndDrain(
    header: PacketHeader,
    payload: Uint8Array,
    channel: Channel,
    onSent?: (data: Uint8Array) => void,
  ): Promise<void> {
    if (this.lost) throw this.lost;
    const packet = encodePacket(header, payload);
    this.write(packet);
    onSent?.(packet.subarray(packet.length - payload.length));
    if (this.socket.writableLength + this.waitingBytes <= UPLOAD_QUEUE_BYTES) return;
    let done = (): void => undefined;
    await Promise.race([
      channel.failure,
      new Promise<void>((resolve) => {
        done = (): void => resolve();
        if (this.recordPerPacket) this.belowLimit.add(done);
        else this.socket.once('drain', done);
        this.socket.once('close', done);
      }),
    ]);
    this.belowLimit.delete(done);
    this.socket.off('drain', done);
    this.socket.off('close', done);
    channel.throwIfFailed();
    if (this.lost) throw this.lost;
  }

  private onData(chunk: Buffer): void {
    this.unanswered = 0;
    let packets: Packet[];
    try {
      packets = this.decoder.push(chunk);
    } catch (e) {
      this.fail(`protocol error: ${(e as Error).message}`);
      this.socket.destroy();
      return;
    }
    for (const p of packets) this.dispatch(p);
  }

  private dispatch(p: Packet): void {
    const h = p.header;
    if (h.program === KEEPALIVE_PROGRAM) {
      if (h.procedure === KEEPALIVE_PROC_PING && h.type === MessageType.Message) {
        this.trySend({
          program: KEEPALIVE_PROGRAM,
          version: KEEPALIVE_PROTOCOL_VERSION,
          procedure: KEEPALIVE_PROC_PONG,
          type: MessageType.Message,
          serial: 0,
          status: MessageStatus.Ok,
        });
      }
      return;
    }
    if (h.program !== REMOTE_PROGRAM || (h.type !== MessageType.Reply && h.type !== MessageType.Stream)) return; // events etc.
    const channel = this.channels.get(h.serial);
    if (!channel) return; // a call that was aborted or finished already
    if (h.status === MessageStatus.Error) {
      channel.fail(safeDecodeError(p.payload), true);
    } else if (h.type === MessageType.Reply) {
      channel.onReply(p.payload);
    } else {
      channel.onStream(h.status === MessageStatus.Continue ? p.payload : null);
      if (channel.queuedBytes > DOWNLOAD_HIGH_WATER && !this.pausedBy.has(h.serial)) {
        this.pausedBy.add(h.serial);
        this.socket.pause();
      }
    }
  }

  private resumeFor(serial: number): void {
    if (this.pausedBy.delete(serial) && this.pausedBy.size === 0) this.socket.resume();
  }

  private fail(reason: string, message = `libvirt connection lost: ${reason}`): void {
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    this.keepaliveTimer = null;
    if (this.lost) return;
    this.lost = new LibvirtError(VIR_ERR_SYSTEM_ERROR, VIR_FROM_RPC, VIR_ERR_ERROR, message);
    for (const channel of this.channels.values()) channel.fail(this.lost);
    this.channels.clear();
  }
}

function safeDecodeError(payload: Buffer): LibvirtError {
  try {
    return decodeRemoteError(payload);
  } catch (e) {
    return new LibvirtError(
      VIR_ERR_RPC,
      VIR_FROM_RPC,
      VIR_ERR_ERROR,
      `libvirtd reported an error that could not be decoded: ${(e as Error).message}`,
    );
  }
}
