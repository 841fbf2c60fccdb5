/**
 * src/ops/snapshots against the real libvirtd at qemu:///system (libvirt 9.0, QEMU 7.2): the snapshot kinds of
 * docs/snapshots.md (a virtiofs share's refusal included), the seed copy a `disk` snapshot keeps and a revert writes back, description redefine, delete.
 * The domains boot nothing (an empty qcow2 disk): QEMU runs, which is all a snapshot with memory needs.
 */
import { mkdtempSync, rmSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  connect,
  LibvirtError,
  VIR_DOMAIN_UNDEFINE_NVRAM,
  VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA,
  type DomRef,
  type PoolRef,
  type RemoteLibvirtClient,
  type VolRef,
} from '../../src/libvirt';
import {
  deleteSnapshot,
  findSnapshot,
  listSnapshots,
  revertSnapshot,
  seedCopyName,
  setSnapshotDescription,
  SnapshotRefusedError,
  takeSnapshot,
} from '../../src/ops/snapshots';
import { deleteVolumes } from '../helpers/libvirt';

jest.setTimeout(120_000);

const PREFIX = 'vstest-snap-host';
const BIOS = `${PREFIX}-bios`;
const EFI = `${PREFIX}-efi`;
const RAW = `${PREFIX}-raw`;
const FS = `${PREFIX}-fs`;
const VOLUMES = [
  `${BIOS}.qcow2`,
  `${EFI}.qcow2`,
  `${RAW}.qcow2`,
  `${FS}.qcow2`,
  `${PREFIX}-data.raw`,
  `${PREFIX}-seed.iso`,
  seedCopyName(BIOS, 'off'),
  seedCopyName(EFI, 'off'),
];

function domainXml(name: string, opts: { efi?: boolean; rawData?: boolean; virtiofs?: string } = {}): string {
  const disk = (vol: string, dev: string, format: string) =>
    `<disk type='volume' device='disk'><driver name='qemu' type='${format}'/><source pool='default' volume='${vol}'/><target dev='${dev}' bus='virtio'/></disk>`;
  return `<domain type='qemu'><name>${name}</name><memory unit='MiB'>64</memory><vcpu>1</vcpu>
  ${opts.virtiofs ? "<memoryBacking><source type='memfd'/><access mode='shared'/></memoryBacking>" : ''}
  <os${opts.efi ? " firmware='efi'" : ''}><type arch='x86_64' machine='pc'>hvm</type><boot dev='hd'/></os><features><acpi/></features>
  <devices>${disk(`${name}.qcow2`, 'vda', 'qcow2')}${opts.rawData ? disk(`${PREFIX}-data.raw`, 'vdb', 'raw') : ''}
  ${opts.virtiofs ? `<filesystem type='mount' accessmode='passthrough'><driver type='virtiofs'/><binary path='/usr/lib/qemu/virtiofsd'/><source dir='${opts.virtiofs}'/><target dir='share'/></filesystem>` : ''}
  <disk type='volume' device='cdrom'><driver name='qemu' type='raw'/><source pool='default' volume='${PREFIX}-seed.iso'/><target dev='sda' bus='sata'/><readonly/></disk>
  </devices></domain>`;
}

async function removeDomain(client: RemoteLibvirtClient, name: string): Promise<void> {
  try {
    const dom = await client.domainLookupByName(name);
    if (await client.domainIsActive(dom)) await client.domainDestroy(dom);
    for (const s of await client.domainListAllSnapshots(dom)) await client.domainSnapshotDelete(s, 0).catch(() => undefined);
    await client.domainUndefine(dom, VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA | VIR_DOMAIN_UNDEFINE_NVRAM);
  } catch (e) {
    if (!(e instanceof LibvirtError)) throw e;
  }
}

describe('domain snapshots on libvirt 9.0', () => {
  let client: RemoteLibvirtClient;
  let pool: PoolRef;
  let seed: VolRef;
  let bios: DomRef;
  let efi: DomRef;

  const seedBytes = async (): Promise<string> => Buffer.from(await client.storageVolDownload(seed)).toString();
  const writeSeed = async (text: string): Promise<void> => {
    await client.storageVolUpload(seed, Buffer.from(text.padEnd(4096, '\0')), 0, 4096);
  };

  beforeAll(async () => {
    client = await connect('qemu:///system');
    for (const d of [BIOS, EFI, RAW, FS]) await removeDomain(client, d);
    pool = await client.storagePoolLookupByName('default');
    await deleteVolumes(client, pool, VOLUMES);
    const vol = (name: string, format: string) =>
      `<volume><name>${name}</name><capacity unit='MiB'>16</capacity><allocation>0</allocation><target><format type='${format}'/></target></volume>`;
    for (const d of [BIOS, EFI, RAW, FS]) await client.storageVolCreateXml(pool, vol(`${d}.qcow2`, 'qcow2'));
    await client.storageVolCreateXml(pool, vol(`${PREFIX}-data.raw`, 'raw'));
    seed = await client.storageVolCreateXml(
      pool,
      `<volume><name>${PREFIX}-seed.iso</name><capacity unit='bytes'>4096</capacity><target><format type='raw'/></target></volume>`,
    );
    await writeSeed('seed-1');
    bios = await client.domainDefineXml(domainXml(BIOS));
    efi = await client.domainDefineXml(domainXml(EFI, { efi: true }));
  });

  afterAll(async () => {
    if (!client) return;
    for (const d of [BIOS, EFI, RAW, FS]) await removeDomain(client, d);
    await deleteVolumes(client, pool, VOLUMES);
    await client.close();
  });

  it('GIVEN a shut-off domain with a seed WHEN snapshotted THEN the snapshot holds its disk, not its memory, and a seed copy is kept', async () => {
    const { info, kind } = await takeSnapshot(client, bios, { name: 'off', description: 'first' });
    expect(kind).toBe('disk');
    expect(info).toMatchObject({ name: 'off', description: 'first', state: 'shutoff', memory: 'no' });
    expect(info.disks).toEqual([
      { name: 'vda', snapshot: 'internal' },
      { name: 'sda', snapshot: 'no' },
    ]);
    const copy = await client.storageVolLookupByName(pool, seedCopyName(BIOS, 'off'));
    expect(Buffer.from(await client.storageVolDownload(copy)).toString()).toMatch(/^seed-1\0/);
  });

  it('GIVEN the seed rewritten after the snapshot WHEN reverted THEN the seed holds its content at the snapshot again', async () => {
    await writeSeed('seed-2');
    const result = await revertSnapshot(client, bios, 'off');
    expect(result).toMatchObject({ running: false, seedRestored: { name: `${PREFIX}-seed.iso` } });
    expect(await seedBytes()).toMatch(/^seed-1\0/);
  });

  it('GIVEN a snapshot WHEN its description is changed THEN the new one is read back and the snapshot stays current', async () => {
    const info = await setSnapshotDescription(client, bios, 'off', 'second');
    expect(info.description).toBe('second');
    expect((await client.domainSnapshotCurrent(bios)).name).toBe('off');
  });

  it('GIVEN the running BIOS domain WHEN snapshotted THEN the snapshot holds its memory and a revert leaves it running', async () => {
    await client.domainCreate(bios);
    const { info, kind } = await takeSnapshot(client, bios, { name: 'on' });
    expect([kind, info.state, info.memory, info.parent]).toEqual(['memory', 'running', 'internal', 'off']);
    await client.domainDestroy(bios);
    expect(await revertSnapshot(client, bios, 'on')).toMatchObject({ running: true, seedRestored: null });
  });

  it('GIVEN two snapshots WHEN listed THEN the parent comes first', async () => {
    expect((await listSnapshots(client, bios)).map((s) => s.name)).toEqual(['off', 'on']);
  });

  it('GIVEN a snapshot with a seed copy WHEN deleted THEN the snapshot and its seed copy are gone', async () => {
    expect(await deleteSnapshot(client, bios, 'off')).toBe(true);
    expect(await findSnapshot(client, bios, 'off')).toBeNull();
    await expect(client.storageVolLookupByName(pool, seedCopyName(BIOS, 'off'))).rejects.toMatchObject({ code: 50 });
  });

  it('GIVEN a snapshot name the domain does not have WHEN deleted THEN it reports false', async () => {
    expect(await deleteSnapshot(client, bios, 'never')).toBe(false);
  });

  it('GIVEN a shut-off UEFI domain WHEN snapshotted and reverted with start THEN both work and the guest runs', async () => {
    expect((await takeSnapshot(client, efi, { name: 'off' })).kind).toBe('disk');
    expect((await revertSnapshot(client, efi, 'off', { start: true })).running).toBe(true);
  });

  it('GIVEN the running UEFI domain WHEN libvirt is asked for an internal snapshot THEN libvirt 9.0 refuses it for pflash firmware', async () => {
    await expect(client.domainSnapshotCreateXml(efi, '<domainsnapshot><name>x</name></domainsnapshot>')).rejects.toThrow(
      /internal snapshots of a VM with pflash based firmware are not supported/,
    );
  });

  it('GIVEN the running UEFI domain WHEN takeSnapshot is asked THEN it refuses before libvirt, with the fix', async () => {
    await expect(takeSnapshot(client, efi, { name: 'x' })).rejects.toThrow(SnapshotRefusedError);
  });

  it('GIVEN a writable raw disk WHEN libvirt is asked for an internal snapshot THEN libvirt 9.0 refuses it naming the disk', async () => {
    const raw = await client.domainDefineXml(domainXml(RAW, { rawData: true }));
    await expect(client.domainSnapshotCreateXml(raw, '<domainsnapshot><name>x</name></domainsnapshot>')).rejects.toThrow(
      /internal snapshot for disk vdb unsupported for storage type raw/,
    );
  });

  describe('a running domain with a virtiofs share', () => {
    let fs: DomRef;
    let share: string;
    beforeAll(async () => {
      share = mkdtempSync(path.join(os.tmpdir(), `${FS}-`));
      fs = await client.domainDefineXml(domainXml(FS, { virtiofs: share }));
      await client.domainCreate(fs);
    });
    afterAll(async () => {
      await removeDomain(client, FS);
      rmSync(share, { recursive: true, force: true });
    });

    it('WHEN libvirt is asked for an internal snapshot with memory THEN it refuses naming vhost-user-fs', async () => {
      await expect(client.domainSnapshotCreateXml(fs, '<domainsnapshot><name>x</name></domainsnapshot>')).rejects.toThrow(
        /non-migratable device: .*vhost-user-fs/,
      );
    });

    it('WHEN takeSnapshot is asked THEN it refuses before libvirt, naming virtiofs', async () => {
      await expect(takeSnapshot(client, fs, { name: 'x' })).rejects.toMatchObject({
        name: 'SnapshotRefusedError',
        problem: expect.stringContaining('virtiofs'),
      });
    });
  });
});
