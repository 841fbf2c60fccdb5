import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  lengthFromResponse,
  openSource,
  sniffImage,
  shownSource,
  urlRequest,
} from '../../../../provider/src/resources/private/image-source';

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name.toLowerCase()] ?? null });

describe('lengthFromResponse', () => {
  it('GIVEN a 206 with Content-Range bytes 0-31/1048576 WHEN read THEN the length is the total', () => {
    expect(lengthFromResponse(206, headers({ 'content-range': 'bytes 0-31/1048576', 'content-length': '32' }))).toBe(1048576);
  });

  it('GIVEN a 206 whose total is * WHEN read THEN the length is unknown', () => {
    expect(lengthFromResponse(206, headers({ 'content-range': 'bytes 0-31/*' }))).toBeUndefined();
  });

  it('GIVEN a 200 (range ignored) with Content-Length WHEN read THEN that is the length', () => {
    expect(lengthFromResponse(200, headers({ 'content-length': '4096' }))).toBe(4096);
  });

  it('GIVEN a chunked 200 without Content-Length WHEN read THEN the length is unknown', () => {
    expect(lengthFromResponse(200, headers({ 'transfer-encoding': 'chunked' }))).toBeUndefined();
  });
});

describe('sniffImage', () => {
  it('GIVEN a qcow2 header with size 10 GiB and an unknown length WHEN sniffed THEN qcow2 with that virtual size', () => {
    const head = Buffer.alloc(32);
    head.writeUInt32BE(0x514649fb, 0);
    head.writeBigUInt64BE(10n << 30n, 24);
    expect(sniffImage(head, undefined)).toEqual({ length: undefined, format: 'qcow2', virtualSize: 10 * 2 ** 30 });
  });

  it('GIVEN raw bytes of unknown length WHEN sniffed THEN raw with no virtual size', () => {
    expect(sniffImage(Buffer.alloc(32, 1), undefined)).toEqual({ length: undefined, format: 'raw', virtualSize: undefined });
  });
});

describe('openSource (local file)', () => {
  const MiB = 1 << 20;
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'vstest-source-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('GIVEN a 5.5 MiB file WHEN read THEN the chunks (copied as they come) are the file, in 1 MiB reads', async () => {
    const data = Buffer.alloc(5.5 * MiB);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31 + (i >> 20)) & 0xff;
    writeFileSync(join(dir, 'a.raw'), data);
    const copies: Buffer[] = [];
    for await (const chunk of await openSource(join(dir, 'a.raw'))) copies.push(Buffer.from(chunk));
    expect(copies.map((c) => c.length)).toEqual([MiB, MiB, MiB, MiB, MiB, MiB / 2]);
    expect(Buffer.concat(copies).equals(data)).toBe(true);
  });

  it('GIVEN a file of several reads WHEN read THEN every chunk is a view of one reused buffer (valid until the next is asked for)', async () => {
    writeFileSync(join(dir, 'b.raw'), Buffer.alloc(3 * MiB, 1));
    const seen: ArrayBufferLike[] = [];
    for await (const chunk of await openSource(join(dir, 'b.raw'))) seen.push(chunk.buffer);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
  });

  it('GIVEN a missing file WHEN opened THEN the error names it', async () => {
    await expect(openSource(join(dir, 'missing.raw'))).rejects.toThrow(`cannot read ${join(dir, 'missing.raw')}: ENOENT`);
  });
});

describe('URL credentials', () => {
  it.each([
    ['http://alice:s3cret@host/image.qcow2', 'http://alice:***@host/image.qcow2'],
    ['https://alice:p%40ss%3Aword@host:8443/i.qcow2?x=1', 'https://alice:***@host:8443/i.qcow2?x=1'],
    ['http://alice@host/image.qcow2', 'http://alice@host/image.qcow2'],
    ['http://host/a@b.qcow2', 'http://host/a@b.qcow2'],
    ['/var/lib/images/a:b@c.qcow2', '/var/lib/images/a:b@c.qcow2'],
  ])('GIVEN source %s WHEN shown THEN it reads %s', (source, shown) => {
    expect(shownSource(source)).toBe(shown);
  });

  it('GIVEN a URL with percent-encoded credentials WHEN requested THEN the URL loses them and basic auth carries them decoded', () => {
    expect(urlRequest('https://alice:p%40ss%3Aword@host/i.qcow2')).toEqual({
      url: 'https://host/i.qcow2',
      headers: { Authorization: `Basic ${Buffer.from('alice:p@ss:word').toString('base64')}` },
    });
  });

  it('GIVEN a URL without credentials WHEN requested THEN no Authorization header is sent', () => {
    expect(urlRequest('http://host/i.qcow2')).toEqual({ url: 'http://host/i.qcow2', headers: {} });
  });
});
