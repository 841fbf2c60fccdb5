/** An in-memory libvirtd stand-in: a Duplex for RpcConnection, the packets the client sent, and a way to answer. */
import { Duplex, PassThrough } from 'node:stream';
import { MessageStatus, MessageType, Packet, PacketDecoder, PacketHeader, REMOTE_PROGRAM, encodePacket } from '../../../src/libvirt/packet';

export interface FakeDaemon {
  socket: Duplex;
  received: Packet[];
  /** Called for each packet the client sends. */
  onPacket: (p: Packet) => void;
  send(header: Partial<PacketHeader> & { serial: number; procedure: number }, payload?: Uint8Array): void;
  reply(to: Packet, payload?: Uint8Array, status?: MessageStatus): void;
  stream(to: Packet, status: MessageStatus, payload?: Uint8Array): void;
  /** The daemon hangs up. */
  hangUp(): void;
}

export function fakeDaemon(): FakeDaemon {
  const toClient = new PassThrough();
  const toServer = new PassThrough();
  const decoder = new PacketDecoder();
  const d: FakeDaemon = {
    socket: Duplex.from({ readable: toClient, writable: toServer }),
    received: [],
    onPacket: () => undefined,
    send(header, payload) {
      toClient.write(
        encodePacket({ program: REMOTE_PROGRAM, version: 1, type: MessageType.Reply, status: MessageStatus.Ok, ...header }, payload),
      );
    },
    reply(to, payload, status = MessageStatus.Ok) {
      d.send({ serial: to.header.serial, procedure: to.header.procedure, status }, payload);
    },
    stream(to, status, payload) {
      d.send({ serial: to.header.serial, procedure: to.header.procedure, type: MessageType.Stream, status }, payload);
    },
    hangUp() {
      toClient.end();
    },
  };
  toServer.on('data', (chunk: Buffer) => {
    for (const p of decoder.push(chunk)) {
      d.received.push(p);
      d.onPacket(p);
    }
  });
  return d;
}
