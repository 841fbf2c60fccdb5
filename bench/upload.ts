/**
 * Dense upload throughput: a 1 GiB file of pseudo-random bytes uploaded into a raw volume of the `default` pool by
 * our client exactly as `virtseed_volume` does it (openSource → storageVolUpload over the RPC stream), against
 * `virsh vol-upload` of the same file into the same volume. Alternating runs, medians. Goal: ours ≥ 95% of virsh.
 * The volume is named `vsbench-upload` and deleted at the end.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSource } from '../provider/src/resources/private/image-source';
import { connect } from '../src/libvirt';
import { alternate, formatGoalTable, GoalRow } from './private/rows';

const URI = 'qemu:///system';
const POOL = 'default';
const VOLUME = 'vsbench-upload';
const MiB = 1024 * 1024;

function virsh(args: string[], allow = [0]): string {
  const r = spawnSync('virsh', ['-c', URI, ...args], { encoding: 'utf8' });
  if (!allow.includes(r.status ?? -1)) throw new Error(`virsh ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

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
  } finally {
    closeSync(fd);
  }
}

export async function runUploadBench(sizeMiB = 1024, runs = 3, log: (line: string) => void = console.log): Promise<GoalRow[]> {
  const work = mkdtempSync(join(tmpdir(), 'virtseed-bench-upload-'));
  const file = join(work, 'dense.bin');
  const size = sizeMiB * MiB;
  virsh(['vol-delete', '--pool', POOL, VOLUME], [0, 1]);
  const client = await connect(URI);
  try {
    writeDenseFile(file, size);
    virsh(['vol-create-as', POOL, VOLUME, String(size), '--format', 'raw']);
    const pool = await client.storagePoolLookupByName(POOL);
    const vol = await client.storageVolLookupByName(pool, VOLUME);
    const ours = async () => {
      const start = performance.now();
      await client.storageVolUpload(vol, await openSource(file), 0, size);
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
    const rows: GoalRow[] = [
      { name: `dense upload, ${sizeMiB} MiB file`, unit: 'MiB/s', ours: mbps(oursMs), anchorName: 'virsh vol-upload', anchor: mbps(virshMs), goal: 0.95, lowerIsBetter: false },
    ];
    log(`volume upload throughput (median of ${runs} alternating runs, file in page cache, pool "${POOL}")`);
    for (const line of formatGoalTable(rows)) log(line);
    return rows;
  } finally {
    await client.close();
    virsh(['vol-delete', '--pool', POOL, VOLUME], [0, 1]);
    rmSync(work, { recursive: true, force: true });
  }
}
