import { parseQcow2Header, parseQcow2Snapshots, QCOW2_HEADER_BYTES, sameL1Table, snapshotDeletion } from '../../src/snapshot';

/** A qcow2 snapshot table entry as QEMU docs/interop/qcow2.txt lays it out (8-byte aligned), built by hand. */
function entry(id: string, name: string, date: number, l1Offset: number, extra = 16): Buffer {
  const fixed = Buffer.alloc(40 + extra);
  fixed.writeUInt32BE(0, 0);
  fixed.writeUInt32BE(l1Offset, 4);
  fixed.writeUInt32BE(1, 8);
  fixed.writeUInt16BE(id.length, 12);
  fixed.writeUInt16BE(name.length, 14);
  fixed.writeUInt32BE(date, 16);
  fixed.writeUInt32BE(extra, 36);
  const body = Buffer.concat([fixed, Buffer.from(id), Buffer.from(name)]);
  return Buffer.concat([body, Buffer.alloc((8 - (body.length % 8)) % 8)]);
}

describe('qcow2 snapshot table', () => {
  it('GIVEN a header WHEN parsed THEN its L1 table and snapshot table are found', () => {
    const h = Buffer.alloc(QCOW2_HEADER_BYTES);
    h.write('QFI\xfb', 0, 'latin1');
    h.writeUInt32BE(3, 4);
    h.writeUInt32BE(1, 36);
    h.writeUInt32BE(0x30000, 44);
    h.writeUInt32BE(2, 60);
    h.writeUInt32BE(1, 64);
    h.writeUInt32BE(0x50000, 68);
    expect(parseQcow2Header(h)).toEqual({
      version: 3,
      l1Size: 1,
      l1TableOffset: 0x30000,
      nbSnapshots: 2,
      snapshotsOffset: 2 ** 32 + 0x50000,
    });
  });

  it('GIVEN bytes that are no qcow2 header WHEN parsed THEN it says so', () => {
    expect(() => parseQcow2Header(Buffer.alloc(QCOW2_HEADER_BYTES))).toThrow(/not a qcow2 image/);
    expect(() => parseQcow2Header(Buffer.alloc(8))).toThrow(/72 bytes; got 8/);
  });

  it('GIVEN a table holding one tag twice WHEN parsed THEN both entries come back in order, with their ids', () => {
    const table = Buffer.concat([entry('1', 'virtseed-auto-1', 100, 0x1000), entry('2', 'virtseed-auto-1', 200, 0x2000, 24)]);
    expect(parseQcow2Snapshots(table, 2)).toEqual([
      { id: '1', name: 'virtseed-auto-1', dateSec: 100, l1Size: 1, l1TableOffset: 0x1000 },
      { id: '2', name: 'virtseed-auto-1', dateSec: 200, l1Size: 1, l1TableOffset: 0x2000 },
    ]);
  });

  it('GIVEN a table cut short WHEN parsed THEN null asks for more bytes', () => {
    const table = Buffer.concat([entry('1', 'a', 1, 0), entry('2', 'b', 2, 0)]);
    expect(parseQcow2Snapshots(table.subarray(0, table.length - 8), 2)).toBeNull();
    expect(parseQcow2Snapshots(table.subarray(0, 20), 1)).toBeNull();
  });

  it('GIVEN two L1 tables that differ only in the COPIED flag WHEN compared THEN they are the same; another offset is not', () => {
    const a = Buffer.from('0000000000050000', 'hex');
    expect(sameL1Table(a, Buffer.from('8000000000050000', 'hex'))).toBe(true);
    expect(sameL1Table(a, Buffer.from('0000000000060000', 'hex'))).toBe(false);
    expect(sameL1Table(a, Buffer.alloc(16))).toBe(false);
  });
});

describe('snapshotDeletion', () => {
  it('GIVEN a running UEFI guest WHEN asked THEN the delete waits for it to be shut off', () => {
    expect(snapshotDeletion({ running: true, firmware: 'efi' })).toMatchObject({ ok: false, fix: expect.stringContaining('shut off') });
  });
  it('GIVEN a shut-off UEFI guest or a running BIOS one WHEN asked THEN libvirt deletes it from the disks', () => {
    expect(snapshotDeletion({ running: false, firmware: 'efi' })).toEqual({ ok: true });
    expect(snapshotDeletion({ running: true, firmware: 'bios' })).toEqual({ ok: true });
  });
});
