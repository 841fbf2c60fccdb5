/**
 * Against the real libvirtd at qemu:///system: storage pool, volumes (with stream upload/download), domains,
 * and libvirt's error codes. Everything created is named `vstest-…` and removed in afterAll.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  LibvirtError,
  PoolRef,
  RemoteLibvirtClient,
  VIR_DOMAIN_SHUTOFF,
  VIR_ERR_NO_DOMAIN,
  VIR_ERR_NO_STORAGE_POOL,
  VIR_ERR_NO_STORAGE_VOL,
  VIR_STORAGE_POOL_RUNNING,
  bytesToUuid,
  connect,
} from '../../src/libvirt';

jest.setTimeout(120_000);

const POOL = 'vstest-pool';
const POOL_DIR = '/var/lib/virtseed/vstest-pool';
const DOMAIN = 'vstest-rpc-domain';
const DOMAIN_UUID = '6b0e7b8a-3c1d-4e2f-9a10-5d6c7e8f9a01';
const MiB = 1024 * 1024;

/** Deterministic pseudo-random bytes (xorshift32). */
function pattern(length: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

async function ignoreMissing(f: () => Promise<unknown>): Promise<void> {
  try {
    await f();
  } catch (e) {
    if (!(e instanceof LibvirtError)) throw e;
  }
}

async function cleanUp(c: RemoteLibvirtClient): Promise<void> {
  await ignoreMissing(async () => c.domainUndefine(await c.domainLookupByName(DOMAIN)));
  await ignoreMissing(async () => {
    const pool = await c.storagePoolLookupByName(POOL);
    if (await c.storagePoolIsActive(pool)) {
      for (const v of await c.storagePoolListAllVolumes(pool)) await c.storageVolDelete(v);
      await c.storagePoolDestroy(pool);
    }
    await c.storagePoolUndefine(pool);
  });
  fs.rmSync(POOL_DIR, { recursive: true, force: true });
}

describe('RemoteLibvirtClient against qemu:///system', () => {
  let client: RemoteLibvirtClient;
  let pool: PoolRef;

  beforeAll(async () => {
    client = await connect('qemu:///system');
    await cleanUp(client);
    fs.mkdirSync(POOL_DIR, { recursive: true });
    pool = await client.storagePoolDefineXml(`<pool type='dir'><name>${POOL}</name><target><path>${POOL_DIR}</path></target></pool>`);
    await client.storagePoolCreate(pool);
  });

  afterAll(async () => {
    if (!client) return;
    await cleanUp(client);
    await client.close();
  });

  it("GIVEN a connection WHEN the library version is asked THEN it is libvirt's packed major/minor/release", async () => {
    const v = await client.connectGetLibVersion();
    expect(v).toBeGreaterThanOrEqual(1_000_000);
  });

  it('GIVEN the defined and started pool WHEN looked up and inspected THEN it is running with the same uuid', async () => {
    const found = await client.storagePoolLookupByName(POOL);
    expect(found.uuid.equals(pool.uuid)).toBe(true);
    await client.storagePoolRefresh(found);
    await client.storagePoolSetAutostart(found, false);
    expect(await client.storagePoolGetAutostart(found)).toBe(false);
    const info = await client.storagePoolGetInfo(found);
    expect(info.state).toBe(VIR_STORAGE_POOL_RUNNING);
    expect(info.capacity).toBeGreaterThan(0);
  });

  it('GIVEN a qcow2 volume WHEN created THEN its path, info and XML describe it and delete removes it', async () => {
    const vol = await client.storageVolCreateXml(
      pool,
      `<volume><name>vstest-q.qcow2</name><capacity unit='MiB'>16</capacity><target><format type='qcow2'/></target></volume>`,
    );
    expect(vol).toEqual({ pool: POOL, name: 'vstest-q.qcow2', key: `${POOL_DIR}/vstest-q.qcow2` });
    expect(await client.storageVolGetPath(vol)).toBe(`${POOL_DIR}/vstest-q.qcow2`);
    expect(await client.storageVolGetInfo(vol)).toMatchObject({ type: 0, capacity: 16 * MiB });
    expect(await client.storageVolGetXmlDesc(vol)).toMatch(/<format type='qcow2'\/>/);
    await client.storageVolDelete(vol);
    await expect(client.storageVolLookupByName(pool, 'vstest-q.qcow2')).rejects.toMatchObject({ code: VIR_ERR_NO_STORAGE_VOL });
  });

  it('GIVEN 3 MiB + 5 bytes uploaded to a raw volume WHEN downloaded THEN the bytes are identical', async () => {
    const data = pattern(3 * MiB + 5);
    const vol = await client.storageVolCreateXml(
      pool,
      `<volume><name>vstest-raw.img</name><capacity unit='MiB'>4</capacity><target><format type='raw'/></target></volume>`,
    );
    await client.storageVolUpload(vol, data);
    const back = await client.storageVolDownload(vol, 0, data.length);
    expect(back.length).toBe(data.length);
    expect(Buffer.compare(Buffer.from(back), data)).toBe(0);
  });

  it('GIVEN an iterable source in odd pieces at an offset WHEN uploaded THEN the file holds them at that offset', async () => {
    const vol = await client.storageVolLookupByName(pool, 'vstest-raw.img');
    const data = pattern(MiB + 12345, 42);
    async function* pieces(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < data.length; i += 100_003) yield data.subarray(i, i + 100_003);
    }
    await client.storageVolUpload(vol, pieces(), 4096);
    const onDisk = fs.readFileSync(`${POOL_DIR}/vstest-raw.img`).subarray(4096, 4096 + data.length);
    expect(Buffer.compare(onDisk, data)).toBe(0);
  });

  it('GIVEN the raw volume WHEN resized to 8 MiB THEN its capacity follows', async () => {
    const vol = await client.storageVolLookupByName(pool, 'vstest-raw.img');
    await client.storageVolResize(vol, 8 * MiB);
    expect((await client.storageVolGetInfo(vol)).capacity).toBe(8 * MiB);
  });

  it('GIVEN a minimal qemu domain WHEN defined THEN it is found by name and uuid, shut off, and undefined', async () => {
    const xml = `<domain type='qemu'><name>${DOMAIN}</name><uuid>${DOMAIN_UUID}</uuid><memory unit='MiB'>64</memory><vcpu>1</vcpu><os><type arch='x86_64'>hvm</type></os></domain>`;
    const dom = await client.domainDefineXml(xml);
    expect([dom.name, bytesToUuid(dom.uuid), dom.id]).toEqual([DOMAIN, DOMAIN_UUID, -1]);
    const byName = await client.domainLookupByName(DOMAIN);
    const byUuid = await client.domainLookupByUuid(dom.uuid);
    expect([byName.name, byUuid.name]).toEqual([DOMAIN, DOMAIN]);
    expect(await client.domainGetXmlDesc(dom)).toContain(`<uuid>${DOMAIN_UUID}</uuid>`);
    expect((await client.domainGetState(dom)).state).toBe(VIR_DOMAIN_SHUTOFF);
    expect((await client.connectListAllDomains()).map((d) => d.name)).toContain(DOMAIN);
    await client.domainUndefine(dom);
    await expect(client.domainLookupByName(DOMAIN)).rejects.toMatchObject({ code: VIR_ERR_NO_DOMAIN });
  });

  it('GIVEN a missing domain WHEN looked up THEN LibvirtError code 42 is thrown', async () => {
    const e = await client.domainLookupByName('vstest-missing').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LibvirtError);
    expect((e as LibvirtError).code).toBe(VIR_ERR_NO_DOMAIN);
  });

  it('GIVEN a missing volume WHEN looked up THEN LibvirtError code 50 is thrown', async () => {
    await expect(client.storageVolLookupByName(pool, 'vstest-missing.img')).rejects.toMatchObject({
      name: 'LibvirtError',
      code: VIR_ERR_NO_STORAGE_VOL,
    });
  });

  it('GIVEN a missing pool WHEN looked up THEN LibvirtError code 49 is thrown', async () => {
    await expect(client.storagePoolLookupByName('vstest-missing-pool')).rejects.toMatchObject({ code: VIR_ERR_NO_STORAGE_POOL });
  });

  it('GIVEN qemu+unix with an explicit socket WHEN connecting THEN the same daemon answers and close is idempotent', async () => {
    const other = await connect('qemu+unix:///system?socket=/var/run/libvirt/libvirt-sock');
    expect(await other.connectGetUri()).toBe('qemu:///system');
    await other.close();
    await other.close();
    await expect(other.connectGetLibVersion()).rejects.toThrow(/closed/);
  });

  it('GIVEN a socket path that does not exist WHEN connecting THEN a LibvirtError names the URI', async () => {
    await expect(connect('qemu+unix:///system?socket=/nonexistent/vstest-sock')).rejects.toThrow(/Cannot connect to qemu\+unix/);
  });

  it('GIVEN a TCP port forwarding to the daemon socket WHEN connecting with qemu+tcp THEN calls work over TCP', async () => {
    const proxy = net.createServer((inbound) => {
      const outbound = net.createConnection('/var/run/libvirt/libvirt-sock');
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as net.AddressInfo).port;
    try {
      const tcp = await connect(`qemu+tcp://127.0.0.1:${port}/system`);
      expect(await tcp.connectGetLibVersion()).toBe(await client.connectGetLibVersion());
      await tcp.close();
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('GIVEN an ssh stand-in that runs the remote command locally WHEN connecting with qemu+ssh THEN the proxy command reaches the daemon', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-ssh-'));
    const fakeSsh = path.join(dir, 'ssh');
    fs.writeFileSync(fakeSsh, '#!/bin/sh\nfor last in "$@"; do :; done\nexec sh -c "$last"\n', { mode: 0o755 });
    try {
      const ssh = await connect('qemu+ssh://root@localhost/system', { sshCommand: fakeSsh });
      const vol = await ssh.storageVolLookupByName(await ssh.storagePoolLookupByName(POOL), 'vstest-raw.img');
      expect((await ssh.storageVolDownload(vol, 0, 1000)).length).toBe(1000);
      await ssh.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
