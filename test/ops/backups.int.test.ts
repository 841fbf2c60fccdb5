/**
 * src/ops/backups against the real libvirtd at qemu:///system (libvirt 9.0, QEMU 7.2): a full push backup of a
 * running domain's qcow2 disk, data written through QEMU, an incremental one, verify (and a corrupted file found),
 * restore of the chain compared with the disk, prune, the folder removed by hand and a second folder of the same
 * domain (each folder's checkpoints named apart), and the provider's removal of a domain that has a backup's
 * checkpoint (what `terraform destroy` does; libvirt refuses a plain undefine). The domain boots nothing (an empty
 * qcow2 disk): QEMU runs, which is all a backup needs; the writes go through QEMU's block layer (HMP `qemu-io`), so the checkpoint's
 * bitmap records them as a guest's would.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'fs';
import * as path from 'path';
import {
  connect,
  LibvirtError,
  VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA,
  VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA,
  VIR_ERR_NO_DOMAIN,
  type DomRef,
  type PoolRef,
  type RemoteLibvirtClient,
} from '../../src/libvirt';
import { checkpointName } from '../../src/backup';
import { createBackup, pruneBackups, readBackups, restoreDisk, verifyBackups } from '../../src/ops/backups';
import { commandOk } from '../helpers/command';
import { deleteVolumes } from '../helpers/libvirt';
import { virshHmp, writeThroughQemu as writeInto } from '../helpers/qemu-io';
import { createRestoredVolume, planRestore } from '../../provider/src/resources/private/restore';
import { removeDomain as providerRemoveDomain } from '../../provider/src/resources/private/domain-lifecycle';

jest.setTimeout(300_000);

const PREFIX = 'vstest-bkup-ops';
const VOLUME = `${PREFIX}.qcow2`;
const RESTORED = `${PREFIX}-restored.qcow2`;

function domainXml(): string {
  return `<domain type='qemu'><name>${PREFIX}</name><memory unit='MiB'>64</memory><vcpu>1</vcpu>
  <os><type arch='x86_64' machine='pc'>hvm</type><boot dev='hd'/></os>
  <devices><disk type='volume' device='disk'><driver name='qemu' type='qcow2'/><source pool='default' volume='${VOLUME}'/><target dev='vda' bus='virtio'/></disk></devices></domain>`;
}

/** qemu-io's output of reading each `[pattern, offset, length]` of a qcow2 image (fails on a pattern mismatch). */
/** Writes `pattern` bytes at `offset` of the running domain's vda through QEMU (test/helpers/qemu-io.ts). */
function writeThroughQemu(pattern: string, offset: string, length: string): void {
  writeInto(virshHmp(PREFIX), VOLUME, pattern, offset, length);
}

function readPatterns(image: string, reads: [string, string, string][]): string {
  return commandOk('qemu-io', ['-r', '-U', '-f', 'qcow2', ...reads.flatMap(([p, o, l]) => ['-c', `read -P ${p} ${o} ${l}`]), image]);
}

async function removeDomain(client: RemoteLibvirtClient): Promise<void> {
  try {
    const dom = await client.domainLookupByName(PREFIX);
    if (await client.domainIsActive(dom)) await client.domainDestroy(dom);
    await client.domainUndefine(dom, VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA);
  } catch (e) {
    if (!(e instanceof LibvirtError)) throw e;
  }
}

describe('backups of a running domain on libvirt 9.0', () => {
  let client: RemoteLibvirtClient;
  let pool: PoolRef;
  let dom: DomRef;
  let root: string;
  let diskPath: string;
  const now = () => new Date('2026-11-28T00:00:00Z');
  /** The name of backup `sequence`'s checkpoint in the folder of the domain's backups under `under`. */
  const checkpoint = (sequence: number, under = root) => checkpointName(sequence, path.join(under, PREFIX));

  beforeAll(async () => {
    root = mkdtempSync('/var/tmp/vstest-bkup-ops-');
    chmodSync(root, 0o755);
    client = await connect('qemu:///system');
    await removeDomain(client);
    pool = await client.storagePoolLookupByName('default');
    await deleteVolumes(client, pool, [VOLUME, RESTORED]);
    const vol = await client.storageVolCreateXml(
      pool,
      `<volume><name>${VOLUME}</name><capacity unit='MiB'>64</capacity><allocation>0</allocation><target><format type='qcow2'/><compat>1.1</compat></target></volume>`,
    );
    diskPath = await client.storageVolGetPath(vol);
    dom = await client.domainDefineXml(domainXml());
    await client.domainCreate(dom);
  });

  afterAll(async () => {
    if (!client) return;
    await removeDomain(client);
    await deleteVolumes(client, pool, [VOLUME, RESTORED]);
    await client.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('GIVEN a running domain with data on its disk WHEN backed up twice THEN a full backup, then an incremental smaller than it', async () => {
    writeThroughQemu('0xa1', '0', '4M');
    const full = await createBackup(client, dom, root, { now });
    expect(full.manifest).toMatchObject({
      id: '0001-full',
      kind: 'full',
      parent: null,
      consistency: 'crash',
      checkpoint: checkpoint(1),
    });
    expect(full.manifest.files.map((f) => [f.name, f.role])).toEqual([
      ['disk-vda.qcow2', 'disk'],
      ['domain.xml', 'definition'],
    ]);
    writeThroughQemu('0xb2', '8M', '1M');
    const inc = await createBackup(client, dom, root, { now });
    expect(inc.manifest).toMatchObject({ id: '0002-incremental', kind: 'incremental', parent: '0001-full', base: '0001-full' });
    const size = (m: typeof full.manifest) => m.files.find((f) => f.role === 'disk')!.bytes;
    expect(size(inc.manifest)).toBeLessThan(size(full.manifest));
    expect((await client.domainListAllCheckpoints(dom)).map((c) => c.name).sort()).toEqual([checkpoint(1), checkpoint(2)]);
  });

  it('GIVEN the chain WHEN restored THEN the image has both writes and equals the disk (qemu-img compare)', async () => {
    await client.domainDestroy(dom);
    const out = path.join(root, 'restored.qcow2');
    const r = await restoreDisk(root, PREFIX, '0002-incremental', 'vda', out);
    expect(r.chain).toEqual(['0001-full', '0002-incremental']);
    commandOk('qemu-img', ['compare', diskPath, out]);
    expect(
      readPatterns(out, [
        ['0xa1', '0', '4M'],
        ['0xb2', '8M', '1M'],
      ]),
    ).not.toMatch(/Pattern verification failed/);
    rmSync(out);
  });

  it('GIVEN the chain WHEN virtseed_volume.restore_from plans and creates a volume THEN the plan names chain, bytes and size, and the volume equals the disk', async () => {
    const plan = await planRestore(path.join(root, PREFIX, '0002-incremental'), undefined);
    const backups = await readBackups(root, PREFIX);
    expect(plan).toMatchObject({ disk: 'vda', chain: ['0001-full', '0002-incremental'], virtualSize: 64 * 1048576, instanceId: null });
    expect(plan.bytes).toBe(backups.reduce((n, m) => n + m.files.find((f) => f.role === 'disk')!.bytes, 0));
    // The domain's folder: its latest backup.
    expect(await planRestore(path.join(root, PREFIX), undefined)).toEqual(plan);
    await expect(planRestore(root, undefined)).rejects.toThrow('a folder with no backup in it');
    await expect(planRestore(path.join(root, PREFIX, '0002-incremental'), 'vdb')).rejects.toThrow(
      'restore_disk is "vdb"; expected one of the disks of backup 0002-incremental: vda',
    );
    const vol = await createRestoredVolume(client, pool, { name: RESTORED, plan }, { log: { info: () => undefined } });
    commandOk('qemu-img', ['compare', diskPath, await client.storageVolGetPath(vol)]);
  });

  it('GIVEN intact backups WHEN verified THEN nothing differs; GIVEN a corrupted byte THEN verify names the file and restore refuses', async () => {
    expect(await verifyBackups(root, PREFIX)).toEqual({ checked: ['0001-full', '0002-incremental'], mismatches: [], broken: [] });
    const file = path.join(root, PREFIX, '0001-full', 'disk-vda.qcow2');
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(file, bytes);
    const v = await verifyBackups(root, PREFIX);
    expect(v.mismatches).toEqual([expect.objectContaining({ backup: '0001-full', name: 'disk-vda.qcow2', problem: 'sha256' })]);
    await expect(restoreDisk(root, PREFIX, '0002-incremental', 'vda', path.join(root, 'x.qcow2'))).rejects.toThrow(
      /0001-full file disk-vda.qcow2 does not match/,
    );
  });

  it('GIVEN a third (full) backup WHEN pruned to 1 THEN the older chain and its checkpoints are gone', async () => {
    await client.domainCreate(dom);
    const third = await createBackup(client, dom, root, { now, full: true });
    expect(third.manifest.id).toBe('0003-full');
    expect(await pruneBackups(root, PREFIX, 1, { client, dom })).toEqual({
      keep: ['0003-full'],
      remove: ['0001-full', '0002-incremental'],
    });
    expect((await readBackups(root, PREFIX)).map((m) => m.id)).toEqual(['0003-full']);
    expect((await client.domainListAllCheckpoints(dom)).map((c) => c.name)).toEqual([checkpoint(3)]);
  });

  it('GIVEN the folder removed by hand (twice) and a second folder WHEN backed up THEN each starts at 0001-full with checkpoints of its own', async () => {
    const names = async () => (await client.domainListAllCheckpoints(dom)).map((c) => c.name).sort();
    for (let k = 0; k < 2; k++) {
      rmSync(path.join(root, PREFIX), { recursive: true });
      // The second time, the first time's checkpoint of 0001 is still on the domain: left over, replaced.
      expect((await createBackup(client, dom, root, { now })).manifest).toMatchObject({ id: '0001-full', checkpoint: checkpoint(1) });
    }
    const second = path.join(root, 'second');
    const other = await createBackup(client, dom, second, { now });
    expect(other.manifest).toMatchObject({ id: '0001-full', checkpoint: checkpoint(1, second) });
    writeThroughQemu('0xc3', '12M', '1M');
    // The first folder's incremental starts from its own 0001, not from the second folder's.
    const inc = await createBackup(client, dom, root, { now });
    expect(inc.manifest).toMatchObject({ id: '0002-incremental', parent: '0001-full' });
    expect(inc.decision.since).toBe(checkpoint(1));
    expect(await names()).toEqual([checkpoint(1), checkpoint(2), checkpoint(3), checkpoint(1, second)].sort());
    await pruneBackups(root, PREFIX, 1, { client, dom });
    await pruneBackups(second, PREFIX, 1, { client, dom });
    // Pruning keeps each folder's chain: the left-over 0003 is no folder's and stays until the domain goes.
    expect(await names()).toEqual([checkpoint(1), checkpoint(2), checkpoint(3), checkpoint(1, second)].sort());
  });

  it("GIVEN a domain with a backup's checkpoint WHEN the provider removes it (terraform destroy) THEN it is undefined, which a plain undefine is refused", async () => {
    expect((await client.domainListAllCheckpoints(dom)).length).toBe(4);
    await client.domainDestroy(dom);
    await expect(client.domainUndefine(dom, VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA)).rejects.toThrow(
      /cannot delete inactive domain with 4 checkpoints/,
    );
    await providerRemoveDomain(client, dom);
    await expect(client.domainLookupByName(PREFIX)).rejects.toMatchObject({ code: VIR_ERR_NO_DOMAIN });
  });
});
