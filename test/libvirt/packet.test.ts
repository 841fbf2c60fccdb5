import {
  HEADER_SIZE,
  MessageStatus,
  MessageType,
  PacketDecoder,
  PacketError,
  REMOTE_PROGRAM,
  encodePacket,
} from '../../src/libvirt/packet';

const header = { program: REMOTE_PROGRAM, version: 1, procedure: 157, type: MessageType.Call, serial: 7, status: MessageStatus.Ok };

describe('encodePacket', () => {
  it('GIVEN a CALL with no payload WHEN encoded THEN it is the length 28 then the six header words', () => {
    expect(encodePacket(header).toString('hex')).toBe(
      '0000001c' + '20008086' + '00000001' + '0000009d' + '00000000' + '00000007' + '00000000',
    );
  });

  it('GIVEN a payload WHEN encoded THEN the length word counts itself, the header and the payload', () => {
    const p = encodePacket(header, Buffer.from('abcd'));
    expect(p.readUInt32BE(0)).toBe(4 + HEADER_SIZE + 4);
    expect(p.subarray(28).toString()).toBe('abcd');
  });
});

describe('PacketDecoder', () => {
  it('GIVEN two packets split at arbitrary points WHEN pushed byte by byte THEN both come out whole', () => {
    const bytes = Buffer.concat([
      encodePacket({ ...header, type: MessageType.Reply, serial: 1 }, Buffer.from('12345678')),
      encodePacket({ ...header, type: MessageType.Stream, status: MessageStatus.Continue, serial: 2 }, Buffer.from('xy')),
    ]);
    const d = new PacketDecoder();
    const out = [...bytes].flatMap((b) => d.push(Buffer.from([b])));
    expect(out.map((p) => [p.header.serial, p.header.type, p.header.status, p.payload.toString()])).toEqual([
      [1, MessageType.Reply, MessageStatus.Ok, '12345678'],
      [2, MessageType.Stream, MessageStatus.Continue, 'xy'],
    ]);
    expect(d.pending).toBe(0);
  });

  it('GIVEN a length word smaller than a header WHEN pushed THEN PacketError is thrown', () => {
    expect(() => new PacketDecoder().push(Buffer.from('00000008', 'hex'))).toThrow(PacketError);
  });

  it('GIVEN a length word above 16 MiB WHEN pushed THEN PacketError is thrown', () => {
    expect(() => new PacketDecoder().push(Buffer.from('7fffffff', 'hex'))).toThrow(/invalid packet length/);
  });
});
