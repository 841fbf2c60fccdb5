/**
 * src/ops/volume-bytes.ts against the real libvirtd at qemu:///system (pool `default`): a raw volume takes any new
 * content, longer or shorter, also shorter than the blocks its file has allocated (which virStorageVolResize
 * refuses to shrink below), and reads back byte for byte. The volume is `vstest-volbytes.raw`, removed afterwards.
 */
import { createHash } from 'node:crypto';
import { connect, type PoolRef, type RemoteLibvirtClient } from '../../src/libvirt';
import { writeVolumeBytes } from '../../src/ops/volume-bytes';
import { deleteVolumes } from '../helpers/libvirt';

jest.setTimeout(120_000);

const NAME = 'vstest-volbytes.raw';

/** `n` bytes of a pattern that differs per `seed` (no zero runs: every block is allocated). */
function bytes(n: number, seed: number): Buffer {
  return Buffer.from(Array.from({ length: n }, (_, i) => 1 + ((i * 7 + seed) % 251)));
}

describe('writeVolumeBytes', () => {
  let client: RemoteLibvirtClient;
  let pool: PoolRef;

  beforeAll(async () => {
    client = await connect('qemu:///system');
    pool = await client.storagePoolLookupByName('default');
    await deleteVolumes(client, pool, [NAME]);
  });
  afterAll(async () => {
    await deleteVolumes(client, pool, [NAME]);
    await client.close();
  });

  it('GIVEN a 64 KiB raw volume full of data WHEN 300 bytes, then 200 KiB, then 5000 bytes are written THEN each time it holds exactly those bytes, at the same path', async () => {
    let vol = await client.storageVolCreateXml(
      pool,
      `<volume><name>${NAME}</name><capacity unit='bytes'>65536</capacity><target><format type='raw'/></target></volume>`,
    );
    await client.storageVolUpload(vol, bytes(65536, 0), 0, 65536);
    const path = await client.storageVolGetPath(vol);
    for (const [n, seed] of [
      [300, 1], // below the allocation (64 KiB): libvirt refuses to shrink it in place
      [204800, 2], // grows in place
      [5000, 3], // below the allocation again
    ] as const) {
      const content = bytes(n, seed);
      vol = await writeVolumeBytes(client, vol, content);
      const info = await client.storageVolGetInfo(vol);
      expect(info.capacity).toBe(n);
      const got = createHash('sha256');
      for await (const c of client.storageVolDownloadStream(vol, 0, n)) got.update(c);
      expect(got.digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
      expect(await client.storageVolGetPath(vol)).toBe(path);
    }
  });
});
