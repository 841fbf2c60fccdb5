/**
 * Issue 31.1 at the stream layer: RpcConnection.upload must send every byte a source yielded, as it was when
 * yielded, however long the socket holds the packets and whatever else shares the connection. A source that
 * reuses its read buffer (as the provider's file reader does) and a socket that queues writes (as a busy libvirtd
 * socket does while another upload fills it) corrupted sparse uploads: a data packet was queued as a view of the
 * buffer, holes let the source run ahead without the queue draining, and the next read overwrote the queued bytes.
 */
import { createHash } from 'node:crypto';
import { Duplex, PassThrough, Writable } from 'node:stream';
import { MessageStatus, MessageType, Packet, PacketDecoder, REMOTE_PROGRAM, encodePacket } from '../../src/libvirt/packet';
import { RpcConnection } from '../../src/libvirt/rpc';

jest.setTimeout(60_000);

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * A libvirtd stand-in whose socket takes each write only after a timer tick (a busy daemon): writes wait in the
 * socket's own buffer, as references. Answers every CALL and confirms every finish; collects each stream's bytes
 * (data packets and holes) by serial.
 */
function slowDaemon() {
  const toClient = new PassThrough();
  const decoder = new PacketDecoder();
  const streams = new Map<number, Buffer[]>();
  const answer = (p: Packet, type: MessageType, status = MessageStatus.Ok) =>
    toClient.write(
      encodePacket({ program: REMOTE_PROGRAM, version: 1, procedure: p.header.procedure, serial: p.header.serial, type, status }),
    );
  const take = (p: Packet) => {
    const parts = streams.get(p.header.serial) ?? [];
    streams.set(p.header.serial, parts);
    if (p.header.type === MessageType.Call) answer(p, MessageType.Reply);
    else if (p.header.type === MessageType.StreamHole) parts.push(Buffer.alloc(Number(p.payload.readBigUInt64BE(0))));
    else if (p.header.status === MessageStatus.Continue) parts.push(Buffer.from(p.payload));
    else answer(p, MessageType.Stream);
  };
  const toServer = new Writable({
    highWaterMark: 64 * KiB,
    write(chunk: Buffer, _enc, cb) {
      // The "kernel" copies the bytes when it takes them, a turn of the event loop later.
      setImmediate(() => {
        for (const p of decoder.push(Buffer.from(chunk))) take(p);
        cb();
      });
    },
  });
  return { socket: Duplex.from({ readable: toClient, writable: toServer }), streams };
}

/** Bytes of block `i` of a pattern: data blocks filled with a byte derived from `seed` and `i`, or zeros. */
function block(seed: number, i: number, size: number, zero: boolean): Buffer {
  return zero ? Buffer.alloc(size) : Buffer.alloc(size, ((seed * 31 + i) % 255) + 1);
}

/**
 * A source of `count` blocks of `size` bytes (every `holeEvery`-th block data, the rest zero; 1 = all data) read
 * into a ring of `ring` buffers reused in turn, as a file reader without allocation does. Returns the sha256 of
 * what it yielded, known once it ended.
 */
function reusingSource(seed: number, count: number, size: number, holeEvery: number, ring: number) {
  const hash = createHash('sha256');
  const buffers = Array.from({ length: ring }, () => Buffer.alloc(size));
  async function* blocks(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < count; i++) {
      const buffer = buffers[i % ring];
      block(seed, i, size, i % holeEvery !== 0).copy(buffer);
      hash.update(buffer);
      yield buffer;
    }
  }
  return { blocks: blocks(), sha256: () => hash.digest('hex') };
}

const sha256 = (parts: Buffer[] | undefined) =>
  createHash('sha256')
    .update(Buffer.concat(parts ?? []))
    .digest('hex');

describe('RpcConnection.upload and the buffers it is given', () => {
  it('GIVEN a sparse upload from a source that reuses its buffer and a busy socket, beside a dense upload WHEN both run at once THEN each stream carries exactly its source bytes', async () => {
    const d = slowDaemon();
    const rpc = new RpcConnection(d.socket, { keepaliveInterval: 0 });
    // 1 MiB reads into a ring of 4 as the provider's file reader did (reused after 3 MiB more were yielded); one
    // data block then three zero blocks (holes), 24 MiB.
    const sparse = reusingSource(7, 24, MiB, 4, 4);
    const dense = reusingSource(9, 12, MiB, 1, 4);
    await Promise.all([rpc.upload(208, Buffer.alloc(0), sparse.blocks, { sparse: true }), rpc.upload(208, Buffer.alloc(0), dense.blocks)]);
    expect(sha256(d.streams.get(1))).toBe(sparse.sha256());
    expect(sha256(d.streams.get(2))).toBe(dense.sha256());
    await rpc.destroy();
  });

  it('GIVEN one upload on a busy socket WHEN its source reuses one buffer for every chunk THEN the stream carries exactly the source bytes', async () => {
    const d = slowDaemon();
    const rpc = new RpcConnection(d.socket, { keepaliveInterval: 0 });
    // The contract: a source may reuse a chunk's memory as soon as the next chunk is asked for.
    const sparse = reusingSource(3, 16, MiB, 3, 1);
    await rpc.upload(208, Buffer.alloc(0), sparse.blocks, { sparse: true });
    expect(sha256(d.streams.get(1))).toBe(sparse.sha256());
    await rpc.destroy();
  });
});
