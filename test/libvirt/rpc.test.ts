import { LibvirtError, encodeRemoteError } from '../../src/libvirt/errors';
import { KEEPALIVE_PROGRAM, MessageStatus, MessageType, Packet } from '../../src/libvirt/packet';
import { RpcConnection } from '../../src/libvirt/rpc';
import { fakeDaemon } from './helpers/fake-daemon';

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));
const noSuchDomain = encodeRemoteError({ code: 42, domain: 10, level: 2, message: 'Domain not found' });

async function* pieces(...sizes: number[]): AsyncGenerator<Uint8Array> {
  let n = 0;
  for (const s of sizes) yield Buffer.alloc(s, n++);
}

describe('RpcConnection calls', () => {
  it('GIVEN two calls in flight WHEN the daemon answers in reverse order THEN each call gets the reply with its serial', async () => {
    const d = fakeDaemon();
    const rpc = new RpcConnection(d.socket);
    const a = rpc.call(157);
    const b = rpc.call(59);
    await flush();
    expect(d.received.map((p) => [p.header.type, p.header.serial])).toEqual([
      [MessageType.Call, 1],
      [MessageType.Call, 2],
    ]);
    d.reply(d.received[1], Buffer.from('bbbb'));
    d.reply(d.received[0], Buffer.from('aaaa'));
    expect((await a).toString()).toBe('aaaa');
    expect((await b).toString()).toBe('bbbb');
  });

  it('GIVEN a call WHEN the daemon replies with status ERROR THEN it rejects with the LibvirtError it carries', async () => {
    const d = fakeDaemon();
    d.onPacket = (p) => d.reply(p, noSuchDomain, MessageStatus.Error);
    const rpc = new RpcConnection(d.socket);
    await expect(rpc.call(23)).rejects.toMatchObject({ name: 'LibvirtError', code: 42, domain: 10, message: 'Domain not found' });
  });

  it('GIVEN a keepalive PING WHEN received THEN a PONG message with serial 0 is sent', async () => {
    const d = fakeDaemon();
    new RpcConnection(d.socket);
    d.send({ program: KEEPALIVE_PROGRAM, procedure: 1, serial: 0, type: MessageType.Message });
    await flush();
    expect(d.received.map((p) => p.header)).toEqual([
      { program: KEEPALIVE_PROGRAM, version: 1, procedure: 2, type: MessageType.Message, serial: 0, status: MessageStatus.Ok },
    ]);
  });

  it('GIVEN a pending call WHEN the daemon hangs up THEN the call rejects with a connection-lost LibvirtError', async () => {
    const d = fakeDaemon();
    const rpc = new RpcConnection(d.socket);
    const pending = rpc.call(157);
    await flush();
    d.hangUp();
    await expect(pending).rejects.toThrow(/libvirt connection lost/);
    await expect(rpc.call(157)).rejects.toBeInstanceOf(LibvirtError);
  });

  it('GIVEN an aborted signal WHEN the reply arrives later THEN the call rejected with the reason and the next call still works', async () => {
    const d = fakeDaemon();
    const rpc = new RpcConnection(d.socket);
    const ac = new AbortController();
    const aborted = rpc.call(157, undefined, { signal: ac.signal });
    ac.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    d.reply(d.received[0], Buffer.from('late'));
    const next = rpc.call(157);
    await flush();
    d.reply(d.received[1], Buffer.from('next'));
    expect((await next).toString()).toBe('next');
  });

  it('GIVEN destroy() WHEN called twice THEN both resolve and calls reject as closed', async () => {
    const d = fakeDaemon();
    const rpc = new RpcConnection(d.socket);
    await Promise.all([rpc.destroy(), rpc.destroy()]);
    await expect(rpc.call(157)).rejects.toThrow('libvirt connection is closed');
  });
});

describe('RpcConnection streams', () => {
  function uploadDaemon(confirm: boolean) {
    const d = fakeDaemon();
    d.onPacket = (p: Packet) => {
      if (p.header.type === MessageType.Call) d.reply(p);
      else if (p.header.status === MessageStatus.Ok && confirm) d.stream(p, MessageStatus.Ok);
    };
    return d;
  }

  it('GIVEN an upload of 10 bytes in pieces WHEN the chunk size is 4 THEN STREAM CONTINUE packets of 4, 4, 2 then an empty OK are sent', async () => {
    const d = uploadDaemon(true);
    const rpc = new RpcConnection(d.socket, { streamChunkSize: 4 });
    await rpc.upload(208, Buffer.from('args'), pieces(3, 3, 4));
    const stream = d.received.filter((p) => p.header.type === MessageType.Stream);
    expect(stream.map((p) => [p.header.status, p.payload.length, p.header.serial, p.header.procedure])).toEqual([
      [MessageStatus.Continue, 4, 1, 208],
      [MessageStatus.Continue, 4, 1, 208],
      [MessageStatus.Continue, 2, 1, 208],
      [MessageStatus.Ok, 0, 1, 208],
    ]);
    expect(Buffer.concat(stream.map((p) => p.payload)).toString('hex')).toBe('00000001010102020202');
  });

  it('GIVEN a sparse upload of data, 8 zero bytes, data WHEN sent THEN a STREAM_HOLE packet carries virNetStreamHole {8, 0} between the data packets', async () => {
    const d = uploadDaemon(true);
    const rpc = new RpcConnection(d.socket, { streamChunkSize: 4 });
    const progress: number[] = [];
    const source = (async function* () {
      yield Buffer.from([1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
    })();
    // 4-byte chunks are smaller than a 4 KiB block: each chunk is one (partial) block.
    await rpc.upload(208, Buffer.from('args'), source, { sparse: true, onProgress: (n) => progress.push(n) });
    const stream = d.received.filter((p) => p.header.type !== MessageType.Call);
    expect(stream.map((p) => [p.header.type, p.header.status, p.payload.toString('hex')])).toEqual([
      [MessageType.Stream, MessageStatus.Continue, '01020304'],
      [MessageType.StreamHole, MessageStatus.Continue, '000000000000000800000000'],
      [MessageType.Stream, MessageStatus.Continue, '05'],
      [MessageType.Stream, MessageStatus.Ok, ''],
    ]);
    expect(progress).toEqual([4, 12, 13]);
  });

  it('GIVEN an upload WHEN the daemon sends STREAM ERROR THEN the upload rejects with that LibvirtError', async () => {
    const d = fakeDaemon();
    d.onPacket = (p) => {
      if (p.header.type === MessageType.Call) d.reply(p);
      else if (p.header.status === MessageStatus.Continue)
        d.stream(p, MessageStatus.Error, encodeRemoteError({ code: 38, domain: 18, level: 2, message: 'disk full' }));
    };
    const rpc = new RpcConnection(d.socket, { streamChunkSize: 4 });
    async function* slow(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 5; i++) {
        await flush();
        yield Buffer.alloc(4);
      }
    }
    await expect(rpc.upload(208, Buffer.alloc(0), slow())).rejects.toMatchObject({ code: 38, message: 'disk full' });
  });

  it('GIVEN a source that throws WHEN uploading THEN the stream is aborted with STREAM ERROR and the error rethrown', async () => {
    const d = uploadDaemon(true);
    const rpc = new RpcConnection(d.socket);
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.alloc(1);
      throw new Error('read failed');
    }
    await expect(rpc.upload(208, Buffer.alloc(0), broken())).rejects.toThrow('read failed');
    await flush();
    expect(d.received.at(-1)?.header.status).toBe(MessageStatus.Error);
  });

  it('GIVEN a download WHEN the daemon sends data then OK THEN the chunks are yielded and the client sends the finish packet', async () => {
    const d = fakeDaemon();
    d.onPacket = (p) => {
      if (p.header.type === MessageType.Call) {
        d.reply(p);
        d.stream(p, MessageStatus.Continue, Buffer.from('hello '));
        d.stream(p, MessageStatus.Continue, Buffer.from('world'));
        d.stream(p, MessageStatus.Ok);
      } else if (p.header.status === MessageStatus.Ok) d.stream(p, MessageStatus.Ok);
    };
    const rpc = new RpcConnection(d.socket);
    const parts: string[] = [];
    for await (const c of rpc.download(209, Buffer.alloc(0))) parts.push(c.toString());
    expect(parts).toEqual(['hello ', 'world']);
    expect(d.received.map((p) => [p.header.type, p.header.status])).toEqual([
      [MessageType.Call, MessageStatus.Ok],
      [MessageType.Stream, MessageStatus.Ok],
    ]);
  });
});

describe('RpcConnection read-stream end markers', () => {
  it('GIVEN a download WHEN libvirtd ends it with an empty CONTINUE packet THEN that is end of data', async () => {
    const d = fakeDaemon();
    d.onPacket = (p) => {
      if (p.header.type === MessageType.Call) {
        d.reply(p);
        d.stream(p, MessageStatus.Continue, Buffer.from('abc'));
        d.stream(p, MessageStatus.Continue, Buffer.alloc(0));
      } else if (p.header.status === MessageStatus.Ok) d.stream(p, MessageStatus.Ok);
    };
    const rpc = new RpcConnection(d.socket);
    const parts: string[] = [];
    for await (const c of rpc.download(209, Buffer.alloc(0))) parts.push(c.toString());
    expect(parts).toEqual(['abc']);
  });

  it('GIVEN a consumer that stops early WHEN the loop is left THEN the stream is aborted with STREAM ERROR', async () => {
    const d = fakeDaemon();
    d.onPacket = (p) => {
      if (p.header.type === MessageType.Call) {
        d.reply(p);
        d.stream(p, MessageStatus.Continue, Buffer.from('abc'));
      }
    };
    const rpc = new RpcConnection(d.socket);
    for await (const _ of rpc.download(209, Buffer.alloc(0))) break;
    await flush();
    expect(d.received.at(-1)?.header).toMatchObject({ type: MessageType.Stream, status: MessageStatus.Error, serial: 1 });
  });
});
