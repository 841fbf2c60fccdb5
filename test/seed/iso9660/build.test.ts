import { createHash } from 'crypto';
import { buildIso } from '../../../src/seed/iso9660';
import { binary, sampleFiles } from './fixtures';

const SECTOR = 2048;
const ascii = (image: Uint8Array, at: number, length: number) => Buffer.from(image.subarray(at, at + length)).toString('latin1');
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('buildIso', () => {
  it('GIVEN the same files twice WHEN built THEN the images are byte-identical', () => {
    expect(Buffer.compare(buildIso(sampleFiles(), { volumeId: 'cidata' }), buildIso(sampleFiles(), { volumeId: 'cidata' }))).toBe(0);
  });

  it('GIVEN a fixed two-file seed WHEN built THEN its bytes match the recorded digest (layout changes must be deliberate)', () => {
    const image = buildIso(
      [
        { path: 'meta-data', content: utf8('instance-id: i-1\n') },
        { path: 'user-data', content: utf8('#cloud-config\n') },
      ],
      { volumeId: 'cidata' },
    );
    expect(image.length).toBe(28 * SECTOR);
    expect(createHash('sha256').update(image).digest('hex')).toBe('f856e1333dc830fbda484063262a7c4ee89a60f522c5472d7f419849d54b1c32');
  });

  it('GIVEN file contents given as FileContent writers WHEN built THEN the image is byte-identical to the one built from buffers', () => {
    const asWriter = (bytes: Uint8Array) => ({
      length: bytes.length,
      writeInto: (target: Uint8Array, offset: number) => target.set(bytes, offset),
    });
    const written = buildIso(
      sampleFiles().map((f) => ({ path: f.path, content: asWriter(f.content) })),
      { volumeId: 'cidata' },
    );
    expect(Buffer.compare(written, buildIso(sampleFiles(), { volumeId: 'cidata' }))).toBe(0);
  });

  it("GIVEN an output WHEN built THEN the image is written into its buffer front to back: each prefix reported final is the image's, reports grow to its length, at most a MiB of content apart", () => {
    const MiB = 1024 * 1024;
    const big = binary(2 * MiB + 100, 7);
    const files = [...sampleFiles(), { path: 'big/a.bin', content: big }, { path: 'big/b.bin', content: binary(3000, 8) }];
    let buffer: Uint8Array | undefined;
    const prefixes: Uint8Array[] = [];
    const image = buildIso(files, {
      volumeId: 'cidata',
      output: {
        allocate: (length) => (buffer = new Uint8Array(length)),
        final: (end) => prefixes.push((buffer as Uint8Array).slice(0, end)),
      },
    });
    expect(image).toBe(buffer);
    expect(Buffer.compare(image, buildIso(files, { volumeId: 'cidata' }))).toBe(0);
    const ends = prefixes.map((p) => p.length);
    expect(ends[ends.length - 1]).toBe(image.length);
    ends.forEach((end, i) => expect(end).toBeGreaterThanOrEqual(ends[i - 1] ?? 0));
    ends.forEach((end, i) => expect(end - (ends[i - 1] ?? 0)).toBeLessThanOrEqual(MiB + SECTOR));
    for (const prefix of prefixes) expect(Buffer.compare(prefix, image.subarray(0, prefix.length))).toBe(0);
  });

  it('GIVEN an output that allocates a buffer of the wrong size WHEN built THEN it throws naming the sizes', () => {
    const output = { allocate: (length: number) => new Uint8Array(length - SECTOR), final: () => undefined };
    expect(() => buildIso(sampleFiles(), { volumeId: 'cidata', output })).toThrow(/IsoOutput\.allocate\(\d+\) returned \d+ bytes/);
  });

  it('GIVEN a content that is neither bytes nor a writer WHEN built THEN it is rejected naming the file', () => {
    expect(() => buildIso([{ path: 'user-data', content: { length: 3 } as never }], { volumeId: 'cidata' })).toThrow(/user-data/);
  });

  it('GIVEN the same files in reverse order WHEN built THEN the image is byte-identical', () => {
    const forward = buildIso(sampleFiles(), { volumeId: 'cidata' });
    const reversed = buildIso(sampleFiles().reverse(), { volumeId: 'cidata' });
    expect(Buffer.compare(forward, reversed)).toBe(0);
  });

  it('GIVEN a lower-case label WHEN built THEN the primary volume id keeps it exactly, space-padded', () => {
    const image = buildIso(sampleFiles(), { volumeId: 'config-2' });
    expect(ascii(image, 16 * SECTOR + 40, 32)).toBe('config-2'.padEnd(32, ' '));
  });

  it('GIVEN any files WHEN built THEN sectors 16, 17, 18 are the primary, Joliet (%/E) and terminator descriptors', () => {
    const image = buildIso(sampleFiles(), { volumeId: 'cidata' });
    expect([image[16 * SECTOR], ascii(image, 16 * SECTOR + 1, 5)]).toEqual([1, 'CD001']);
    expect([image[17 * SECTOR], ascii(image, 17 * SECTOR + 88, 3)]).toEqual([2, '%/E']);
    expect([image[18 * SECTOR], ascii(image, 18 * SECTOR + 1, 5)]).toEqual([255, 'CD001']);
  });

  it('GIVEN a label WHEN built THEN the Joliet volume id holds it as UCS-2', () => {
    const image = buildIso(sampleFiles(), { volumeId: 'cidata' });
    expect(
      Buffer.from(image.subarray(17 * SECTOR + 40, 17 * SECTOR + 52))
        .swap16()
        .toString('utf16le'),
    ).toBe('cidata');
  });

  it('GIVEN any files WHEN built THEN the volume space size equals the image length in blocks', () => {
    const image = buildIso(sampleFiles(), { volumeId: 'cidata' });
    const view = new DataView(image.buffer);
    expect(image.length % SECTOR).toBe(0);
    expect(view.getUint32(16 * SECTOR + 80, true)).toBe(image.length / SECTOR);
    expect(view.getUint32(16 * SECTOR + 84, false)).toBe(image.length / SECTOR);
  });

  it('GIVEN a file WHEN built THEN its content is stored at a sector boundary', () => {
    const content = utf8('unique-marker-0123456789');
    const image = buildIso([{ path: 'meta-data', content }], { volumeId: 'cidata' });
    const at = Buffer.from(image).indexOf(Buffer.from(content));
    expect(at % SECTOR).toBe(0);
  });

  it('GIVEN a duplicate path WHEN built THEN the error names the path', () => {
    const files = [...sampleFiles(), { path: 'meta-data', content: new Uint8Array(1) }];
    expect(() => buildIso(files, { volumeId: 'cidata' })).toThrow(/files\[7\]\.path.*"meta-data" is given more than once/);
  });

  it.each(['/meta-data', 'a//b', 'dir/', ''])('GIVEN the path %j WHEN built THEN an empty path segment is reported', (path) => {
    expect(() => buildIso([{ path, content: new Uint8Array() }], { volumeId: 'cidata' })).toThrow(/Empty (path segment|seed file path)/);
  });

  it('GIVEN a 65-character name WHEN built THEN the error says it is too long for Joliet and names the path', () => {
    const path = `dir/${'n'.repeat(65)}`;
    expect(() => buildIso([{ path, content: new Uint8Array() }], { volumeId: 'cidata' })).toThrow(
      new RegExp(`Name too long for Joliet.*"${path}"`),
    );
  });

  it('GIVEN a 64-character name WHEN built THEN it is accepted', () => {
    expect(() => buildIso([{ path: 'n'.repeat(64), content: new Uint8Array() }], { volumeId: 'cidata' })).not.toThrow();
  });

  it('GIVEN a name with ";" WHEN built THEN the error names the path and the character', () => {
    expect(() => buildIso([{ path: 'a;b', content: new Uint8Array() }], { volumeId: 'cidata' })).toThrow(/"a;b" contains ";"/);
  });

  it('GIVEN a path that is both a file and a directory WHEN built THEN the error names it', () => {
    const files = [
      { path: 'openstack', content: new Uint8Array() },
      { path: 'openstack/latest/user_data', content: new Uint8Array() },
    ];
    expect(() => buildIso(files, { volumeId: 'config-2' })).toThrow(/both a file and a directory.*"openstack"/);
  });

  it('GIVEN a path 9 levels deep WHEN built THEN the error says ISO 9660 allows at most 7 directories', () => {
    expect(() => buildIso([{ path: 'a/b/c/d/e/f/g/h/file', content: new Uint8Array() }], { volumeId: 'cidata' })).toThrow(
      /"a\/b\/c\/d\/e\/f\/g\/h\/file" has 8 directories/,
    );
  });

  it.each(['', ' cidata', 'x'.repeat(33), 'ci\ndata'])('GIVEN the volume id %j WHEN built THEN it is rejected', (volumeId) => {
    expect(() => buildIso(sampleFiles(), { volumeId })).toThrow(/volumeId: Invalid volume id/);
  });

  it('GIVEN files adding up to more than 4 GiB WHEN built THEN the error names the file that overflows', () => {
    const gib = new Uint8Array(2 ** 30); // not touched: the layout fails before any copy
    const files = [0, 1, 2, 3].map((i) => ({ path: `part${i}`, content: gib }));
    expect(() => buildIso(files, { volumeId: 'cidata' })).toThrow(/too large: adding "part3" makes it over 4 GiB/);
  });
});
