import { buildIso, readIso } from '../../../src/seed/iso9660';
import { asRecord, binary, sampleFiles, sortByPath } from './fixtures';

const SECTOR = 2048;

function rootSystemUseOffset(image: Uint8Array): number {
  const rootBlock = new DataView(image.buffer).getUint32(16 * SECTOR + 156 + 2, true);
  return rootBlock * SECTOR + 34; // "." record: 33-byte header + 1-byte identifier, no padding
}

describe('readIso', () => {
  it('GIVEN an image we built WHEN read THEN the label and every file come back exactly', () => {
    const files = sampleFiles();
    const result = readIso(buildIso(files, { volumeId: 'cidata' }));
    expect(result.volumeId).toBe('cidata');
    expect(asRecord(result.files)).toEqual(asRecord(sortByPath(files)));
  });

  it('GIVEN an image we built WHEN read THEN files are sorted by path', () => {
    const paths = readIso(buildIso(sampleFiles(), { volumeId: 'cidata' })).files.map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
  });

  it('GIVEN names whose Rock Ridge NM does not fit in the record WHEN read back THEN the CE continuation gives the names', () => {
    const files = [
      { path: '€'.repeat(64), content: binary(10) },
      { path: `dir-${'é'.repeat(60)}/x`, content: binary(3) },
    ];
    expect(asRecord(readIso(buildIso(files, { volumeId: 'cidata' })).files)).toEqual(asRecord(sortByPath(files)));
  });

  it('GIVEN a directory with more records than fit in one sector WHEN read back THEN every file is found', () => {
    const files = Array.from({ length: 60 }, (_, i) => ({ path: `many/file-number-${String(i).padStart(3, '0')}`, content: binary(i) }));
    expect(readIso(buildIso(files, { volumeId: 'cidata' })).files).toHaveLength(60);
  });

  it('GIVEN an image without Rock Ridge WHEN read THEN the Joliet names are used', () => {
    const image = buildIso(sampleFiles(), { volumeId: 'cidata' });
    image[rootSystemUseOffset(image)] = 0x58; // 'SP' -> 'XP': no SUSP
    expect(readIso(image).files.map((f) => f.path)).toContain('openstack/latest/meta_data.json');
  });

  it('GIVEN an image with neither Rock Ridge nor Joliet WHEN read THEN ISO names without ";1" and trailing "." are used', () => {
    const image = buildIso(sampleFiles(), { volumeId: 'cidata' });
    image[rootSystemUseOffset(image)] = 0x58;
    image[17 * SECTOR + 88] = 0; // no Joliet escape sequence
    expect(readIso(image).files.map((f) => f.path)).toEqual([
      'META_DAT',
      'NETWORK_',
      'OPENSTAC/CONTENT/0000',
      'OPENSTAC/LATEST/META_DAT.JSO',
      'OPENSTAC/LATEST/USER_DAT',
      'USER_DAT',
      'VENDOR_D',
    ]);
  });

  it('GIVEN bytes that are not ISO 9660 WHEN read THEN it throws', () => {
    expect(() => readIso(new Uint8Array(40 * SECTOR))).toThrow(/Not an ISO 9660 image/);
  });

  it('GIVEN a truncated image WHEN read THEN it throws naming what lies beyond the image', () => {
    const image = buildIso(sampleFiles(), { volumeId: 'cidata' });
    expect(() => readIso(image.subarray(0, 20 * SECTOR))).toThrow(/beyond the image/);
  });
});
