import { setBoth16, setBoth32, setRecordingDate, setUcs2Padded, setVolumeDate, utf16be } from '../../../../src/seed/iso9660/private/fields';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('both-endian and date fields (ECMA-119 7.2.3, 7.3.3, 8.4.26.1, 9.1.5)', () => {
  it('GIVEN 0x12345678 WHEN written as a both-byte-order 32-bit field THEN it is little-endian then big-endian', () => {
    const bytes = new Uint8Array(8);
    setBoth32(new DataView(bytes.buffer), 0, 0x12345678);
    expect(hex(bytes)).toBe('7856341212345678');
  });

  it('GIVEN 2048 WHEN written as a both-byte-order 16-bit field THEN it is 00 08 08 00', () => {
    const bytes = new Uint8Array(4);
    setBoth16(new DataView(bytes.buffer), 0, 2048);
    expect(hex(bytes)).toBe('00080800');
  });

  it('GIVEN the fixed date WHEN written as a volume date THEN it is the digits 1970010100000000 and offset 0', () => {
    const bytes = new Uint8Array(17);
    setVolumeDate(bytes, 0);
    expect(Buffer.from(bytes.subarray(0, 16)).toString('ascii')).toBe('1970010100000000');
    expect(bytes[16]).toBe(0);
  });

  it('GIVEN the fixed date WHEN written as a recording date THEN it is 70 years since 1900, January 1st, GMT', () => {
    const bytes = new Uint8Array(7);
    setRecordingDate(bytes, 0);
    expect(hex(bytes)).toBe('46010100000000');
  });

  it('GIVEN "cidata" WHEN written as a 32-byte UCS-2 field THEN it is big-endian UCS-2 padded with U+0020', () => {
    const bytes = new Uint8Array(32);
    setUcs2Padded(bytes, 0, 32, 'cidata');
    expect(hex(bytes)).toBe('006300690064006100740061' + '0020'.repeat(10));
  });

  it('GIVEN a name with a non-ASCII character WHEN encoded for Joliet THEN it is UTF-16 big-endian', () => {
    expect(hex(utf16be('é-1'))).toBe('00e9002d0031');
  });
});
