/**
 * uploadSource against the real libvirtd (pool `default`, volume `vstest-upsrc-*`): a local file read through one
 * reused buffer arrives byte for byte, and the upload reports that it verified what it sent and read back.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadSource } from '../../../provider/src/resources/private/upload';
import { PoolRef, RemoteLibvirtClient, connect } from '../../../src/libvirt';
import { deleteVolumes } from '../../helpers/libvirt';

jest.setTimeout(180_000);

const MiB = 1024 * 1024;
const NAME = 'vstest-upsrc-random.img';

describe('uploadSource from a local file', () => {
  let client: RemoteLibvirtClient;
  let pool: PoolRef;
  let dir: string;

  const remove = () => deleteVolumes(client, pool, [NAME]);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vstest-upsrc-'));
    client = await connect('qemu:///system');
    pool = await client.storagePoolLookupByName('default');
    await remove();
  });
  afterAll(async () => {
    await remove();
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('GIVEN 64 MiB + 3 bytes of random data with its sha256 WHEN uploaded THEN the volume holds exactly those bytes', async () => {
    const data = randomBytes(64 * MiB + 3);
    const file = join(dir, 'random.raw');
    writeFileSync(file, data);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const vol = await client.storageVolCreateXml(
      pool,
      `<volume><name>${NAME}</name><capacity unit='bytes'>${data.length}</capacity><allocation>0</allocation><target><format type='raw'/></target></volume>`,
    );
    const lines: string[] = [];
    const { bytes: sent, sha256: digest } = await uploadSource(client, vol, file, {
      sha256,
      length: data.length,
      sparse: true,
      log: { info: (m) => lines.push(m) },
      label: 'volume default/x',
    });
    expect(sent).toBe(data.length);
    expect(digest).toBe(sha256);
    expect(lines.at(-2)).toMatch(
      new RegExp(`^volume default/x: uploaded ${data.length} of ${data.length} bytes \\(100%\\), [\\d.]+ MB/s$`),
    );
    expect(lines.at(-1)).toMatch(
      new RegExp(`^volume default/x: verified, sha256 ${sha256} \\(sent and read back; read-back [\\d.]+ s\\)$`),
    );
    const back = createHash('sha256');
    for await (const chunk of client.storageVolDownloadStream(vol, 0, data.length)) back.update(chunk);
    expect(back.digest('hex')).toBe(sha256);
  });
});
