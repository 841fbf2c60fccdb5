/**
 * Sparse uploads against the real libvirtd at qemu:///system (pool `default`): zero blocks travel as stream holes
 * (VIR_STORAGE_VOL_UPLOAD_SPARSE_STREAM) and stay unallocated in the volume's file. Volumes are named
 * `vstest-sparse-…` and removed afterwards.
 */
import { createHash } from 'node:crypto';
import { PoolRef, RemoteLibvirtClient, connect } from '../../src/libvirt';
import { deleteVolumes } from '../helpers/libvirt';

jest.setTimeout(180_000);

const MiB = 1024 * 1024;
const NAME = 'vstest-sparse-upload.img';
const ZEROS_NAME = 'vstest-sparse-zeros.img';

/** A 256 MiB image holding 8 MiB of non-zero data in 1 MiB pieces every 32 MiB, zero elsewhere. */
function* image(): Generator<Uint8Array> {
  for (let piece = 0; piece < 8; piece++) {
    yield Buffer.alloc(MiB, piece + 1);
    yield Buffer.alloc(31 * MiB);
  }
}
const SIZE = 256 * MiB;
const DATA = 8 * MiB;

async function* fromGenerator(): AsyncGenerator<Uint8Array> {
  yield* image();
}

describe('sparse volume upload', () => {
  let client: RemoteLibvirtClient;
  let pool: PoolRef;

  const remove = () => deleteVolumes(client, pool, [NAME, ZEROS_NAME]);

  beforeAll(async () => {
    client = await connect('qemu:///system');
    pool = await client.storagePoolLookupByName('default');
    await remove();
  });
  afterAll(async () => {
    await remove();
    await client.close();
  });

  it('GIVEN a 256 MiB image with 8 MiB of data WHEN uploaded sparse into a sparse raw volume THEN the allocation is about the data and the bytes read back', async () => {
    const vol = await client.storageVolCreateXml(
      pool,
      `<volume><name>${NAME}</name><capacity unit='bytes'>${SIZE}</capacity><allocation>0</allocation><target><format type='raw'/></target></volume>`,
    );
    await client.storageVolUpload(vol, fromGenerator(), 0, SIZE, { sparse: true });
    const info = await client.storageVolGetInfo(vol);
    expect(info.capacity).toBe(SIZE);
    expect(info.allocation).toBeGreaterThanOrEqual(DATA);
    expect(info.allocation).toBeLessThanOrEqual(DATA * 1.1);
    const want = createHash('sha256');
    for (const c of image()) want.update(c);
    const got = createHash('sha256');
    for await (const c of client.storageVolDownloadStream(vol, 0, SIZE)) got.update(c);
    expect(got.digest('hex')).toBe(want.digest('hex'));
  });

  it('GIVEN 5 GiB of zeros WHEN uploaded sparse THEN one hole beyond 4 GiB is accepted and nothing is allocated', async () => {
    const size = 5 * 1024 * MiB;
    const vol = await client.storageVolCreateXml(
      pool,
      `<volume><name>${ZEROS_NAME}</name><capacity unit='bytes'>${size}</capacity><allocation>0</allocation><target><format type='raw'/></target></volume>`,
    );
    const zeros = Buffer.alloc(16 * MiB);
    async function* source(): AsyncGenerator<Uint8Array> {
      for (let done = 0; done < size; done += zeros.length) yield zeros;
    }
    let packets = 0;
    await client.storageVolUpload(vol, source(), 0, size, { sparse: true, onProgress: () => packets++ });
    expect(packets).toBe(1); // one STREAM_HOLE packet
    expect(await client.storageVolGetInfo(vol)).toMatchObject({ capacity: size, allocation: 0 });
  });
});
