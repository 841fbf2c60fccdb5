import { lengthFromResponse, sniffImage } from '../../../../provider/src/resources/private/image-source';

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
