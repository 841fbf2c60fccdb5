/**
 * Backups (issue 37): the times and sizes of virtseed's backups and restore of a 2 GiB disk, beside the same
 * operations by hand. One domain on qemu:///system that boots nothing (QEMU runs, which is all a push backup needs;
 * no TCG boot), on a 2 GiB qcow2 disk whose every cluster is written (qemu-io, pattern 0xab) before it starts.
 *
 *  - full backup: `createBackup` (src/ops/backups: libvirt push backup with a checkpoint, then the definition saved
 *    and every file hashed for the manifest) beside `virsh backup-begin` of the same disk to a file, by hand, with a
 *    checkpoint of its own, waited for with `virsh domjobinfo`;
 *  - 4 MiB written through QEMU (HMP qemu-io), then the incremental backup, both ways (each since its own checkpoint);
 *  - restore: `restoreDisk` of the full + incremental chain into one qcow2 file (manifests checked, qemu-img convert
 *    over the chain, qemu-img compare) beside `qemu-img convert -O qcow2` of the disk itself.
 *
 * Sizes are the bytes the files take on the host (st_blocks × 512). One round (each figure moves 2 GiB; the machine
 * is shared): the load average is printed beside each figure. Objects are named `vsbench-bkup*`.
 */
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect, VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA } from '../src/libvirt';
import { createBackup, restoreDisk } from '../src/ops/backups';
import { BENCH_URI, run, virsh } from './private/command';
import { formatGoalTable, loadNow, type GoalRow } from './private/rows';
import { writeThroughQemu as writeInto } from '../test/helpers/qemu-io';

const PREFIX = 'vsbench-bkup';
const DISK = `/var/lib/libvirt/images/${PREFIX}.qcow2`;
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

function domainXml(): string {
  return `<domain type='qemu'><name>${PREFIX}</name><memory unit='MiB'>64</memory><vcpu>1</vcpu>
  <os><type arch='x86_64' machine='pc'>hvm</type><boot dev='hd'/></os>
  <devices><disk type='file' device='disk'><driver name='qemu' type='qcow2'/><source file='${DISK}'/><target dev='vda' bus='virtio'/></disk></devices></domain>`;
}

/** Bytes a file (or every file under a folder) takes on the host. */
function allocated(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.blocks * 512;
  return readdirSync(path).reduce((n, f) => n + allocated(join(path, f)), 0);
}

function cleanup(): void {
  virsh(['destroy', PREFIX], [0, 1]);
  virsh(['undefine', PREFIX, '--checkpoints-metadata'], [0, 1]);
  rmSync(DISK, { force: true });
}

/** `virsh backup-begin` of vda to `file` (incremental since checkpoint `since`), creating checkpoint `checkpoint`;
 *  waits for the job. Milliseconds from the command to the job's end. */
async function virshBackup(dir: string, file: string, checkpoint: string, since?: string): Promise<number> {
  const backupXml = join(dir, `${checkpoint}-backup.xml`);
  const checkpointXml = join(dir, `${checkpoint}-checkpoint.xml`);
  writeFileSync(
    backupXml,
    `<domainbackup mode='push'>${since ? `<incremental>${since}</incremental>` : ''}<disks><disk name='vda' type='file'><target file='${file}'/><driver type='qcow2'/></disk></disks></domainbackup>`,
  );
  writeFileSync(
    checkpointXml,
    `<domaincheckpoint><name>${checkpoint}</name><disks><disk name='vda' checkpoint='bitmap'/></disks></domaincheckpoint>`,
  );
  const start = performance.now();
  virsh(['backup-begin', PREFIX, backupXml, checkpointXml]);
  for (;;) {
    const info = virsh(['domjobinfo', PREFIX]);
    if (/Job type:\s+None/.test(info)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const ms = performance.now() - start;
  const done = virsh(['domjobinfo', PREFIX, '--completed']);
  if (!/Job type:\s+Completed/.test(done)) throw new Error(`virsh backup-begin ${checkpoint} did not complete:\n${done}`);
  return ms;
}

/** Writes through QEMU (test/helpers/qemu-io.ts): the disk's device, whose block backend may write. */
function writeThroughQemu(pattern: string, offset: number, length: number): void {
  writeInto((command) => virsh(['qemu-monitor-command', PREFIX, '--hmp', command]), DISK.split('/').pop()!, pattern, offset, length);
}

export async function runBackupBench(log: (line: string) => void = console.log): Promise<GoalRow[]> {
  const root = mkdtempSync('/var/tmp/vsbench-bkup-');
  chmodSync(root, 0o755);
  const hand = join(root, 'by-hand');
  run('mkdir', ['-m', '755', hand]);
  cleanup();
  const client = await connect(BENCH_URI);
  const rows: GoalRow[] = [];
  const load = () => loadNow().toFixed(2);
  try {
    run('qemu-img', ['create', '-q', '-f', 'qcow2', DISK, String(2 * GIB)]);
    // qemu-io writes at most 2 GiB - 512 bytes at once.
    run('qemu-io', ['-f', 'qcow2', '-c', `write -P 0xab 0 ${GIB}`, '-c', `write -P 0xab ${GIB} ${GIB}`, DISK]);
    const xml = join(root, 'domain.xml');
    writeFileSync(xml, domainXml());
    virsh(['define', xml]);
    virsh(['start', PREFIX]);
    const dom = await client.domainLookupByName(PREFIX);
    const now = () => new Date();

    let l = load();
    let t = performance.now();
    const full = await createBackup(client, dom, root, { now });
    const oursFullS = (performance.now() - t) / 1000;
    const handFullS = (await virshBackup(hand, join(hand, 'full.qcow2'), `${PREFIX}-hand-1`)) / 1000;
    const fullSize = allocated(full.dir);
    const handFullSize = allocated(join(hand, 'full.qcow2'));
    rows.push({
      name: 'full backup, 2 GiB written',
      unit: 's',
      ours: oursFullS,
      anchorName: 'virsh backup-begin',
      anchor: handFullS,
      load: l,
    });
    rows.push({
      name: 'full backup size',
      unit: 'MiB',
      ours: fullSize / MIB,
      anchorName: 'virsh backup-begin',
      anchor: handFullSize / MIB,
    });

    writeThroughQemu('0x5a', 64 * MIB, 4 * MIB);
    l = load();
    t = performance.now();
    const inc = await createBackup(client, dom, root, { now });
    const oursIncS = (performance.now() - t) / 1000;
    const handIncS = (await virshBackup(hand, join(hand, 'inc.qcow2'), `${PREFIX}-hand-2`, `${PREFIX}-hand-1`)) / 1000;
    if (inc.manifest.kind !== 'incremental') throw new Error(`expected an incremental backup, got ${inc.manifest.id}`);
    const incSize = allocated(inc.dir);
    const handIncSize = allocated(join(hand, 'inc.qcow2'));
    rows.push({
      name: 'incremental after 4 MiB written',
      unit: 's',
      ours: oursIncS,
      anchorName: 'virsh backup-begin --incremental',
      anchor: handIncS,
      load: l,
    });
    rows.push({
      name: 'incremental size',
      unit: 'MiB',
      ours: incSize / MIB,
      anchorName: 'virsh backup-begin --incremental',
      anchor: handIncSize / MIB,
    });

    l = load();
    t = performance.now();
    const restoredFile = join(root, 'restored.qcow2');
    await restoreDisk(root, PREFIX, inc.manifest.id, 'vda', restoredFile);
    const restoreS = (performance.now() - t) / 1000;
    const convertS = run('qemu-img', ['convert', '-U', '-O', 'qcow2', DISK, join(root, 'converted.qcow2')]).ms / 1000;
    rows.push({
      name: 'restore full + incremental',
      unit: 's',
      ours: restoreS,
      anchorName: 'qemu-img convert of the disk',
      anchor: convertS,
      load: l,
    });
    rows.push({
      name: 'restored image size',
      unit: 'MiB',
      ours: allocated(restoredFile) / MIB,
      anchorName: 'qemu-img convert of the disk',
      anchor: allocated(join(root, 'converted.qcow2')) / MIB,
    });
    for (const line of formatGoalTable(rows)) log(line);
    log(
      `backup: ours includes the manifest (sha256 of every file: ${fullSize} bytes for the full backup) and the definition; restore includes checking the chain's sha256 and qemu-img compare; one round, 2 loaded cores`,
    );
    return rows;
  } finally {
    try {
      const dom = await client.domainLookupByName(PREFIX).catch(() => null);
      if (dom) {
        await client.domainDestroy(dom).catch(() => undefined);
        await client.domainUndefine(dom, VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA).catch(() => undefined);
      }
    } finally {
      await client.close();
      cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  }
}
