/**
 * Issue 31 defect 15 against the real libvirtd at qemu:///system (libvirt 9.0, QEMU 7.2 with OVMF): what a qcow2
 * holds after src/ops/snapshots deletes, takes and reverts internal snapshots of a UEFI domain, read with
 * `qemu-img snapshot -l -U` (the disk, not libvirt's record). libvirt drops its record of a snapshot deleted while a
 * UEFI guest runs but the qcow2 keeps it; a later snapshot of the same name is a second one on the disk, and a
 * revert of that name restores the older. The domain boots nothing (an empty qcow2): OVMF running is all it needs.
 */
import { execFileSync } from 'child_process';
import {
  connect,
  LibvirtError,
  VIR_DOMAIN_UNDEFINE_NVRAM,
  VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA,
  type DomRef,
  type PoolRef,
  type RemoteLibvirtClient,
} from '../../src/libvirt';
import {
  deleteSnapshot,
  diskSnapshotNames,
  revertSnapshot,
  SnapshotDiskError,
  SnapshotRefusedError,
  takeSnapshot,
} from '../../src/ops/snapshots';
import { renderSnapshotRequest } from '../../src/snapshot';
import { nextAutoSnapshotName } from '../../provider/src/resources/private/domain-snapshots';
import { deleteVolumes } from '../helpers/libvirt';

jest.setTimeout(120_000);

const PREFIX = 'vstest-dsnap';
const EFI = `${PREFIX}-efi`;
const DISK = `${EFI}.qcow2`;

const domainXml = `<domain type='qemu'><name>${EFI}</name><memory unit='MiB'>64</memory><vcpu>1</vcpu>
  <os firmware='efi'><type arch='x86_64' machine='pc'>hvm</type><boot dev='hd'/></os><features><acpi/></features>
  <devices><disk type='volume' device='disk'><driver name='qemu' type='qcow2'/><source pool='default' volume='${DISK}'/><target dev='vda' bus='virtio'/></disk></devices></domain>`;

async function removeDomain(client: RemoteLibvirtClient): Promise<void> {
  try {
    const dom = await client.domainLookupByName(EFI);
    if (await client.domainIsActive(dom)) await client.domainDestroy(dom);
    await client.domainUndefine(dom, VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA | VIR_DOMAIN_UNDEFINE_NVRAM);
  } catch (e) {
    if (!(e instanceof LibvirtError)) throw e;
  }
}

describe('internal snapshots of a UEFI domain, as its qcow2 holds them', () => {
  let client: RemoteLibvirtClient;
  let pool: PoolRef;
  let dom: DomRef;
  let image: string;

  /** The snapshot tags `qemu-img snapshot -l -U` lists for the domain's disk, in table order (duplicates kept). */
  const onDisk = (): string[] => {
    const args = ['snapshot', '-l', '-U', image];
    const out = execFileSync('qemu-img', args, { encoding: 'utf8' });
    return out
      .split('\n')
      .slice(2)
      .map((l) => l.trim().split(/\s+/)[1])
      .filter((t): t is string => Boolean(t));
  };
  const inLibvirt = async (): Promise<string[]> =>
    Promise.all((await client.domainListAllSnapshots(dom)).map(async (s) => s.name)).then((n) => n.sort());

  beforeAll(async () => {
    client = await connect('qemu:///system');
    await removeDomain(client);
    pool = await client.storagePoolLookupByName('default');
    await deleteVolumes(client, pool, [DISK]);
    const vol = await client.storageVolCreateXml(
      pool,
      `<volume><name>${DISK}</name><capacity unit='MiB'>16</capacity><allocation>0</allocation><target><format type='qcow2'/></target></volume>`,
    );
    image = await client.storageVolGetPath(vol);
    dom = await client.domainDefineXml(domainXml);
  });

  afterAll(async () => {
    if (!client) return;
    await removeDomain(client);
    await deleteVolumes(client, pool, [DISK]);
    await client.close();
  });

  it('GIVEN a snapshot of the shut-off UEFI domain WHEN it is deleted while the guest runs THEN the delete is refused and disk and libvirt both keep it', async () => {
    await takeSnapshot(client, dom, { name: 'virtseed-auto-1' });
    await client.domainCreate(dom);
    const err = await deleteSnapshot(client, dom, 'virtseed-auto-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SnapshotRefusedError);
    expect(String(err)).toMatch(/delete snapshot virtseed-auto-1 .*running UEFI guest.*shut off/);
    expect({ libvirt: await inLibvirt(), disk: onDisk() }).toEqual({ libvirt: ['virtseed-auto-1'], disk: ['virtseed-auto-1'] });
  });

  it('GIVEN the guest shut off WHEN the snapshot is deleted THEN it is gone from the disk too', async () => {
    await client.domainDestroy(dom);
    expect(await deleteSnapshot(client, dom, 'virtseed-auto-1')).toBe(true);
    expect({ libvirt: await inLibvirt(), disk: onDisk() }).toEqual({ libvirt: [], disk: [] });
  });

  it('GIVEN a snapshot libvirt forgot while the disk keeps it (a delete of a running UEFI guest) WHEN the next name is chosen or taken THEN no name the disk holds is used again', async () => {
    await takeSnapshot(client, dom, { name: 'virtseed-auto-1' });
    await client.domainCreate(dom);
    // What libvirt does with the delete virtseed now refuses: its record goes, the qcow2 keeps the snapshot.
    await client.domainSnapshotDelete(await client.domainSnapshotLookupByName(dom, 'virtseed-auto-1'), 0);
    await client.domainDestroy(dom);
    expect({ libvirt: await inLibvirt(), disk: onDisk() }).toEqual({ libvirt: [], disk: ['virtseed-auto-1'] });
    expect(await diskSnapshotNames(client, dom)).toEqual(['virtseed-auto-1']);
    expect(nextAutoSnapshotName([...(await inLibvirt()), ...(await diskSnapshotNames(client, dom))])).toBe('virtseed-auto-2');
    const err = await takeSnapshot(client, dom, { name: 'virtseed-auto-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SnapshotDiskError);
    expect(String(err)).toMatch(/disk vda already holds a snapshot of that name/);
    expect(onDisk()).toEqual(['virtseed-auto-1']);
  });

  it('GIVEN a name the disk holds twice WHEN reverted to it THEN the revert is refused (it would restore the older), the disk untouched', async () => {
    // A second snapshot of the same name, as libvirt takes it when asked directly (the numbering restart of defect 15).
    await client.domainSnapshotCreateXml(dom, renderSnapshotRequest({ name: 'virtseed-auto-1' }), 0);
    expect(onDisk()).toEqual(['virtseed-auto-1', 'virtseed-auto-1']);
    const err = await revertSnapshot(client, dom, 'virtseed-auto-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SnapshotDiskError);
    expect(String(err)).toMatch(/disk vda holds 2 snapshots of that name .*nothing was reverted/);
  });

  it('GIVEN a snapshot the disk holds once WHEN reverted THEN the revert is verified (the disk is the snapshot) and passes', async () => {
    await client.domainSnapshotDelete(await client.domainSnapshotLookupByName(dom, 'virtseed-auto-1'), 0);
    expect(onDisk()).toEqual(['virtseed-auto-1']); // qemu-img deletes the first of the name: the older one
    await takeSnapshot(client, dom, { name: 'virtseed-auto-2' });
    await client.domainCreate(dom);
    await client.domainDestroy(dom);
    expect(await revertSnapshot(client, dom, 'virtseed-auto-2')).toMatchObject({ running: false, info: { name: 'virtseed-auto-2' } });
  });
});
