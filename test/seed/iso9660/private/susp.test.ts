import { ceEntry, erEntry, nmEntry, pxEntry, spEntry } from '../../../../src/seed/iso9660/private/susp';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('SUSP 1.12 and RRIP 1.12 entries', () => {
  it('GIVEN no arguments WHEN an SP entry is made THEN it is "SP", length 7, version 1, check bytes BE EF, skip 0', () => {
    expect(hex(spEntry())).toBe('53500701beef00');
  });

  it('GIVEN a continuation at block 30, offset 16, 237 bytes WHEN a CE entry is made THEN each field is both-endian', () => {
    expect(hex(ceEntry(30, 16, 237))).toBe('43451c01' + '1e0000000000001e' + '1000000000000010' + 'ed000000000000ed');
  });

  it('GIVEN mode 0444 for a regular file WHEN a PX entry is made THEN it holds mode, links, uid and gid in 36 bytes', () => {
    expect(hex(pxEntry(0o100444, 1, 0, 0))).toBe(
      '50582401' + '2481000000008124' + '0100000000000001' + '0000000000000000' + '0000000000000000',
    );
  });

  it('GIVEN the name "meta-data" WHEN an NM entry is made THEN it carries the exact bytes with flags 0', () => {
    expect(hex(nmEntry('meta-data'))).toBe('4e4d0e0100' + Buffer.from('meta-data').toString('hex'));
  });

  it('GIVEN the Rock Ridge extension WHEN an ER entry is made THEN its lengths and identifier RRIP_1991A match', () => {
    const er = erEntry();
    expect(er[2]).toBe(er.length);
    expect([er[4], er[5], er[6], er[7]]).toEqual([10, 84, 135, 1]);
    expect(Buffer.from(er.subarray(8, 18)).toString('ascii')).toBe('RRIP_1991A');
  });
});
