import { FLAG_DIRECTORY } from '../../../../src/seed/iso9660/private/constants';
import { writeDirectoryRecord, writePathTable } from '../../../../src/seed/iso9660/private/records';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('directory and path table records (ECMA-119 9.1, 9.4)', () => {
  it('GIVEN the "." record of a directory at block 23 WHEN written THEN the 34 bytes match the ECMA-119 9.1 layout', () => {
    const bytes = new Uint8Array(34);
    writeDirectoryRecord(bytes, new DataView(bytes.buffer), 0, 34, Uint8Array.of(0), FLAG_DIRECTORY, { block: 23, size: 2048 }, []);
    expect(hex(bytes)).toBe(
      '22' + '00' + '1700000000000017' + '0008000000000800' + '46010100000000' + '02' + '00' + '00' + '01000001' + '01' + '00',
    );
  });

  it('GIVEN a file identifier of even length WHEN written THEN a padding byte precedes the System Use field', () => {
    const bytes = new Uint8Array(42);
    const id = Uint8Array.from(Buffer.from('AB.;1X'));
    writeDirectoryRecord(bytes, new DataView(bytes.buffer), 0, 42, id, 0, { block: 0, size: 0 }, [Uint8Array.of(0xaa)]);
    expect(bytes[33 + 6]).toBe(0);
    expect(bytes[33 + 7]).toBe(0xaa);
  });

  it('GIVEN root and one subdirectory WHEN written as L and M path tables THEN numbers follow each byte order and odd identifiers are padded', () => {
    const entries = [
      { id: Uint8Array.of(0), block: 23, parentNumber: 1 },
      { id: Uint8Array.from(Buffer.from('OPENSTAC')), block: 24, parentNumber: 1 },
    ];
    const l = new Uint8Array(28);
    const m = new Uint8Array(28);
    expect(writePathTable(new DataView(l.buffer), 0, entries, true)).toBe(26);
    writePathTable(new DataView(m.buffer), 0, entries, false);
    expect(hex(l.subarray(0, 10))).toBe('01001700000001000000');
    expect(hex(m.subarray(0, 10))).toBe('01000000001700010000');
    expect(hex(l.subarray(10, 26))).toBe('0800180000000100' + Buffer.from('OPENSTAC').toString('hex'));
  });
});
