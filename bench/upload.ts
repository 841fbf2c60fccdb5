/**
 * Volume upload rows (issue #13), all into the `default` pool, objects named `vsbench-…` and deleted at the end:
 * - Dense throughput: a 1 GiB file of pseudo-random bytes uploaded into a raw volume the way `virtseed_volume` does
 *   it (uploadSource: zero-block detection on, sparse stream) against `virsh vol-upload` of the same file into the
 *   same volume. Alternating runs, medians. Goal: ours ≥ 95% of virsh.
 * - Sparse allocation: a 4 GiB raw file holding 100 MiB of data, uploaded by createVolumeFromSource (what
 *   `virtseed_volume` runs) against `virsh vol-create-as --allocation 0` + `virsh vol-upload --sparse`; the
 *   volumes' allocation after the upload. Goal: ours ≤ 1.1× virsh's.
 * - Sharing: `cdktf synth` of 5 VirtualMachines (defined, not started) on one 64 MiB image, applied by real
 *   terraform and the provider (installed into the bench folder); bytes uploaded (summed from the provider's INFO
 *   progress lines) against the image's size. Goal: ≤ 1× (one upload).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { App, TerraformStack } from 'cdktf';
import { BaseImage, bindings, NetworkAttachment, VirtualMachine } from '../constructs';
import { createVolumeFromSource, uploadSource } from '../provider/src/resources/private/upload';
import { connect } from '../src/libvirt';
import { BENCH_URI as URI, run as runCommand, virsh } from './private/command';
import { alternate, formatGoalTable, GoalRow } from './private/rows';

const POOL = 'default';
const VOLUME = 'vsbench-upload';
const MiB = 1024 * 1024;

/** Writes `size` bytes of xorshift output (incompressible, no zero runs) to `file`. */
function writeDenseFile(file: string, size: number): void {
  const chunk = Buffer.allocUnsafe(8 * MiB);
  const words = new Uint32Array(chunk.buffer, chunk.byteOffset, chunk.length >>> 2);
  let x = 0x2545f491;
  const fd = openSync(file, 'w');
  try {
    for (let done = 0; done < size; done += chunk.length) {
      for (let i = 0; i < words.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        words[i] = x >>> 0;
      }
      writeSync(fd, chunk, 0, Math.min(chunk.length, size - done));
    }
    fsyncSync(fd); // no writeback of the file competing with the first measured runs
  } finally {
    closeSync(fd);
  }
}

export async function runUploadBench(sizeMiB = 1024, runs = 5, log: (line: string) => void = console.log): Promise<GoalRow[]> {
  const work = mkdtempSync(join(tmpdir(), 'virtseed-bench-upload-'));
  const client = await connect(URI);
  const rows: GoalRow[] = [];
  // Each row on its own: one that fails (a missing tool) is reported and does not hide the others.
  const row = async (name: string, measure: () => Promise<GoalRow> | GoalRow) => {
    try {
      rows.push(await measure());
    } catch (err) {
      log(`upload bench row "${name}" failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    }
  };
  try {
    await row('dense upload', () => denseRow(client, work, sizeMiB, runs));
    await row('sparse allocation', () => sparseRow(client, work));
    await row('5 VMs on one image', () => shareRow(work));
    log(`volume uploads (throughput: median of ${runs} alternating runs, file in page cache; pool "${POOL}")`);
    for (const line of formatGoalTable(rows)) log(line);
    return rows;
  } finally {
    await client.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Dense throughput: ours (as virtseed_volume uploads: zero detection on) vs virsh vol-upload, same file and volume. */
async function denseRow(client: Awaited<ReturnType<typeof connect>>, work: string, sizeMiB: number, runs: number): Promise<GoalRow> {
  const file = join(work, 'dense.bin');
  const size = sizeMiB * MiB;
  virsh(['vol-delete', '--pool', POOL, VOLUME], [0, 1]);
  try {
    writeDenseFile(file, size);
    virsh(['vol-create-as', POOL, VOLUME, String(size), '--format', 'raw']);
    const pool = await client.storagePoolLookupByName(POOL);
    const vol = await client.storageVolLookupByName(pool, VOLUME);
    const ours = async () => {
      const start = performance.now();
      await uploadSource(client, vol, file, { length: size, sparse: true, log: { info: () => undefined }, label: VOLUME });
      return performance.now() - start;
    };
    const theirs = () => {
      const start = performance.now();
      virsh(['vol-upload', '--pool', POOL, VOLUME, file]);
      return performance.now() - start;
    };
    await ours(); // warm the page cache and both code paths
    theirs();
    const [oursMs, virshMs] = await alternate(runs, [ours, theirs]);
    const mbps = (ms: number) => size / MiB / (ms / 1000);
    return {
      name: `dense upload, ${sizeMiB} MiB file`,
      unit: 'MiB/s',
      ours: mbps(oursMs),
      anchorName: 'virsh vol-upload',
      anchor: mbps(virshMs),
      goal: 0.95,
      lowerIsBetter: false,
    };
  } finally {
    virsh(['vol-delete', '--pool', POOL, VOLUME], [0, 1]);
    rmSync(file, { force: true });
  }
}

const SPARSE_OURS = 'vsbench-sparse-ours.img';
const SPARSE_VIRSH = 'vsbench-sparse-virsh.img';

/** A sparse file of `size` bytes holding `dataMiB` MiB of pseudo-random data in 1 MiB pieces, evenly spread. */
function writeSparseFile(file: string, size: number, dataMiB: number): void {
  const fd = openSync(file, 'w');
  try {
    ftruncateSync(fd, size);
    const piece = Buffer.alloc(MiB);
    let x = 0x9e3779b9;
    const step = Math.floor(size / dataMiB / MiB) * MiB;
    for (let i = 0; i < dataMiB; i++) {
      for (let j = 0; j < piece.length; j += 4) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        piece.writeUInt32LE(x >>> 0, j);
      }
      writeSync(fd, piece, 0, piece.length, i * step);
    }
  } finally {
    closeSync(fd);
  }
}

function allocation(name: string): number {
  const out = virsh(['vol-info', '--bytes', '--pool', POOL, name]);
  const m = /Allocation:\s+(\d+)/.exec(out);
  if (!m) throw new Error(`virsh vol-info ${name}: no allocation in:\n${out}`);
  return Number(m[1]);
}

/** Allocation after uploading a 4 GiB raw file with 100 MiB of data: ours vs virsh vol-upload --sparse. */
async function sparseRow(client: Awaited<ReturnType<typeof connect>>, work: string): Promise<GoalRow> {
  const file = join(work, 'sparse.raw');
  const size = 4096 * MiB;
  writeSparseFile(file, size, 100);
  for (const name of [SPARSE_OURS, SPARSE_VIRSH]) virsh(['vol-delete', '--pool', POOL, name], [0, 1]);
  try {
    const pool = await client.storagePoolLookupByName(POOL);
    await createVolumeFromSource(client, pool, { name: SPARSE_OURS, source: file }, { log: { info: () => undefined } });
    virsh(['vol-create-as', POOL, SPARSE_VIRSH, String(size), '--format', 'raw', '--allocation', '0']);
    virsh(['vol-upload', '--sparse', '--pool', POOL, SPARSE_VIRSH, file]);
    return {
      name: '4 GiB sparse raw, 100 MiB data: allocation',
      unit: 'MiB',
      ours: allocation(SPARSE_OURS) / MiB,
      anchorName: 'virsh vol-upload --sparse',
      anchor: allocation(SPARSE_VIRSH) / MiB,
      goal: 1.1,
    };
  } finally {
    for (const name of [SPARSE_OURS, SPARSE_VIRSH]) virsh(['vol-delete', '--pool', POOL, name], [0, 1]);
    rmSync(file, { force: true });
  }
}

const SHARE_PREFIX = 'vsbench-share-';
const ROOT = join(__dirname, '..', '..');

/** `cmd args` in `cwd`: its stdout and stderr (the provider's INFO lines come on stderr). */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const r = runCommand(cmd, args, { cwd, env });
  return `${r.stdout}${r.stderr}`;
}

/** Bytes uploaded per volume, from the provider's `volume POOL/NAME: uploaded N ...` INFO lines (last = largest). */
export function uploadedBytes(log: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of log.matchAll(/volume (\S+): uploaded (\d+)/g)) out.set(m[1], Math.max(out.get(m[1]) ?? 0, Number(m[2])));
  return out;
}

/** Removes what an interrupted run of the sharing row left: domains and volumes named vsbench-share-*. */
function cleanupShare(): void {
  for (const name of virsh(['list', '--all', '--name'])
    .split('\n')
    .map((l) => l.trim())
    .filter((n) => n.startsWith(SHARE_PREFIX))) {
    virsh(['undefine', name], [0, 1]);
  }
  for (const line of virsh(['vol-list', POOL]).split('\n').slice(2)) {
    const name = line.trim().split(/\s+/)[0];
    if (name?.startsWith(SHARE_PREFIX)) virsh(['vol-delete', '--pool', POOL, name], [0, 1]);
  }
}

/** 5 VirtualMachines on one image through cdktf synth + terraform apply: bytes uploaded vs the image's size. */
function shareRow(work: string): GoalRow {
  const image = join(work, 'share.raw');
  const imageSize = 64 * MiB;
  writeDenseFile(image, imageSize);
  const outdir = join(work, 'cdktf.out');
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'share');
  new bindings.provider.VirtseedProvider(stack, 'virtseed', { uri: URI });
  const baseImage = BaseImage.fromFile(image, { volumeName: `${SHARE_PREFIX}base` });
  for (let i = 1; i <= 5; i++)
    new VirtualMachine(stack, `vm${i}`, {
      name: `${SHARE_PREFIX}${i}`,
      baseImage,
      running: false,
      memoryMiB: 64,
      networks: [NetworkAttachment.userMode()],
    });
  app.synth();
  const dir = join(outdir, 'stacks', 'share');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TF_CLI_CONFIG_FILE: join(work, 'terraformrc'),
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    TF_LOG_PROVIDER: 'INFO',
  };
  delete env.TF_LOG;
  run('bash', [join(ROOT, 'scripts', 'install-provider.sh')], ROOT, {
    ...env,
    VIRTSEED_SKIP_BUILD: '1',
    VIRTSEED_MIRROR: join(work, 'plugins'),
  });
  cleanupShare();
  try {
    run('terraform', ['init', '-input=false', '-no-color'], dir, env);
    const applied = run('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], dir, env);
    const perVolume = uploadedBytes(applied);
    const total = [...perVolume.values()].reduce((a, b) => a + b, 0);
    return {
      name: `deploy of 5 VMs on one image: bytes uploaded (${perVolume.size} upload${perVolume.size === 1 ? '' : 's'})`,
      unit: 'MiB',
      ours: total / MiB,
      anchorName: 'the image once',
      anchor: imageSize / MiB,
      goal: 1,
    };
  } finally {
    spawnSync('terraform', ['destroy', '-auto-approve', '-input=false', '-no-color'], { cwd: dir, env, encoding: 'utf8' });
    cleanupShare();
  }
}
