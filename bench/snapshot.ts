/**
 * snapshot_before (issue 21): the time of a re-provision protected by a snapshot beside an unprotected one, and the
 * bytes snapshots add on the host. Real terraform and the real provider (installed into a bench folder), one guest
 * on the project's test image (BIOS, the image's GRUB, 512 MiB, restricted user networking), `reprovision =
 * "reboot"`, `wait_for = "cloud-init"`. After the create, re-provisions alternate between `snapshot_before = "none"`
 * and `"disruptive"` (each a new instance-id: one guest boot); the figure is `terraform apply`'s wall time.
 *
 * Bytes: the root disk's allocation on the host (st_blocks × 512) grows in each apply by what the boot writes; with
 * a snapshot, also by the clusters that boot rewrites (copy-on-write keeps the snapshot's), so "growth, protected"
 * minus "growth, unprotected" is what the snapshot added by the end of the apply; plus the seed copies (the booted
 * seed and the snapshot's, each the size of the seed ISO). A snapshot with memory (virtseed_snapshot of the running
 * guest) is measured the same way. No goal (issue 21 asks for the figures). Objects are named `vsbench-snap-*`.
 *
 * A guest's boot under TCG on a shared host varies by minutes, which hides the snapshot's own cost in the wall
 * times; so the provider's INFO log (TF_LOG_PATH, timestamped by Terraform) also gives the two steps the
 * protection adds: from the decision to stop the guest until its start (the snapshot is taken in between; the
 * unprotected apply stops and defines there too), and the upkeep after the wait (old snapshots deleted, the booted
 * seed copied).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, virsh } from './private/command';
import { formatGoalTable, median, type GoalRow } from './private/rows';
import { testImage } from './boot';

const ROOT = join(__dirname, '..', '..');
const PREFIX = 'vsbench-snap';
const POOL_DIR = '/var/lib/libvirt/images';
const ROOT_DISK = join(POOL_DIR, `${PREFIX}-root.qcow2`);

function config(image: string, step: number, policy: 'none' | 'disruptive', memorySnapshot: boolean): object {
  return {
    terraform: { required_providers: { virtseed: { source: 'virtseed/virtseed', version: '0.1.0' } } },
    provider: { virtseed: { uri: 'qemu:///system' } },
    resource: {
      virtseed_volume: {
        base: { pool: 'default', name: `${PREFIX}-base.qcow2`, source: image },
        root: { pool: 'default', name: `${PREFIX}-root.qcow2`, backing_volume: '${virtseed_volume.base.id}' },
      },
      virtseed_cloudinit_seed: {
        seed: {
          pool: 'default',
          name: `${PREFIX}-seed.iso`,
          hostname: 'snap',
          cloud_config: JSON.stringify({ runcmd: [`echo step ${step}`] }),
        },
      },
      virtseed_domain: {
        vm: {
          name: `${PREFIX}-vm`,
          memory: 512,
          reprovision: 'reboot',
          wait_for: 'cloud-init',
          wait_timeout: 1800,
          shutdown_timeout: 120,
          snapshot_before: policy,
          disk: [{ volume_id: '${virtseed_volume.root.id}' }],
          cloudinit_seed_id: '${virtseed_cloudinit_seed.seed.id}',
          instance_id: '${virtseed_cloudinit_seed.seed.instance_id}',
          network_interface: [{ user: true }],
        },
      },
      ...(memorySnapshot ? { virtseed_snapshot: { mem: { domain_id: '${virtseed_domain.vm.id}', name: 'mem' } } } : {}),
    },
  };
}

/** Milliseconds since the epoch of the first line of `log` (Terraform's TF_LOG_PATH format) that contains `text`. */
function loggedAt(log: string, text: string): number {
  const line = log.split('\n').find((l) => l.includes(text));
  const stamp = line ? /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d))/.exec(line)?.[1] : undefined;
  if (!stamp) throw new Error(`no log line with "${text}" in the provider log`);
  return Date.parse(stamp.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
}

/** Seconds of the protection's own steps in one apply's log: stop → start, and the upkeep. */
function protectionSteps(log: string, policy: 'none' | 'disruptive'): { stopToStart: number; upkeep: number } {
  const stop = loggedAt(log, policy === 'none' ? ': restarting (' : ': shutting down for the snapshot');
  const start = loggedAt(log, ': starting and waiting for cloud-init');
  const upkeep =
    policy === 'none' ? 0 : (loggedAt(log, 'automatic snapshots tidied') - loggedAt(log, 'tidying automatic snapshots')) / 1000;
  return { stopToStart: (start - stop) / 1000, upkeep };
}

/** Bytes allocated on the host for a file. */
function allocated(path: string): number {
  return statSync(path).blocks * 512;
}

function cleanup(): void {
  const name = `${PREFIX}-vm`;
  virsh(['destroy', name], [0, 1]);
  virsh(['undefine', name, '--nvram', '--snapshots-metadata'], [0, 1]);
  virsh(['pool-refresh', 'default'], [0, 1]);
  for (const vol of virsh(['vol-list', 'default'], [0, 1]).split('\n')) {
    const n = vol.trim().split(/\s+/)[0];
    if (n?.startsWith(PREFIX)) virsh(['vol-delete', n, '--pool', 'default'], [0, 1]);
  }
}

export async function runSnapshotBench(runs = 2, log: (line: string) => void = console.log): Promise<GoalRow[]> {
  const img = testImage();
  const base = mkdtempSync(join(tmpdir(), 'virtseed-bench-snap-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TF_CLI_CONFIG_FILE: join(base, 'terraformrc'),
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
  };
  delete env.TF_LOG;
  run('bash', [join(ROOT, 'scripts', 'install-provider.sh')], {
    env: { ...env, VIRTSEED_SKIP_BUILD: '1', VIRTSEED_MIRROR: join(base, 'plugins') },
  });
  const tf = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    run('terraform', [...args, '-input=false', '-no-color'], { cwd: base, env: { ...env, ...extra } });
  const write = (step: number, policy: 'none' | 'disruptive', memory = false) =>
    writeFileSync(join(base, 'main.tf.json'), JSON.stringify(config(img.image, step, policy, memory), null, 1));
  cleanup();
  try {
    write(0, 'none');
    tf(['init']);
    tf(['apply', '-auto-approve']);
    const seconds: Record<'none' | 'disruptive', number[]> = { none: [], disruptive: [] };
    const growth: Record<'none' | 'disruptive', number[]> = { none: [], disruptive: [] };
    const stopToStart: Record<'none' | 'disruptive', number[]> = { none: [], disruptive: [] };
    const upkeep: number[] = [];
    let step = 0;
    for (let i = 0; i < runs; i++) {
      for (const policy of ['none', 'disruptive'] as const) {
        write(++step, policy);
        const before = allocated(ROOT_DISK);
        const logPath = join(base, `apply-${step}.log`);
        seconds[policy].push(tf(['apply', '-auto-approve'], { TF_LOG_PROVIDER: 'INFO', TF_LOG_PATH: logPath }).ms / 1000);
        growth[policy].push(allocated(ROOT_DISK) - before);
        const steps = protectionSteps(readFileSync(logPath, 'utf8'), policy);
        stopToStart[policy].push(steps.stopToStart);
        if (policy === 'disruptive') upkeep.push(steps.upkeep);
      }
    }
    const seed = allocated(join(POOL_DIR, `${PREFIX}-seed.iso`));
    const beforeMemory = allocated(ROOT_DISK);
    write(step, 'none', true);
    tf(['apply', '-auto-approve']);
    const memoryBytes = allocated(ROOT_DISK) - beforeMemory;
    const MiB = 1024 * 1024;
    const note = `median of ${runs}, TCG, one BIOS guest of 512 MiB`;
    const rows: GoalRow[] = [
      {
        name: 'terraform apply of a re-provision (reboot, wait_for cloud-init): snapshot_before = "disruptive"',
        unit: 's',
        ours: median(seconds.disruptive),
        anchorName: 'snapshot_before = "none"',
        anchor: median(seconds.none),
        note,
      },
      {
        name: 'in that apply, from the decision to stop the guest until its start (shutdown, snapshot, define)',
        unit: 's',
        ours: median(stopToStart.disruptive),
        anchorName: 'unprotected (shutdown, define)',
        anchor: median(stopToStart.none),
        note,
      },
      {
        name: 'in that apply, after the wait: older automatic snapshots deleted, the booted seed copied',
        unit: 's',
        ours: median(upkeep),
        anchorName: 'the whole protected apply',
        anchor: median(seconds.disruptive),
        note,
      },
      {
        name: "root disk growth on the host during that apply: with the snapshot (copy-on-write of the boot's writes)",
        unit: 'MiB',
        ours: median(growth.disruptive) / MiB,
        anchorName: 'without',
        anchor: median(growth.none) / MiB,
        note: `${note}; plus 2 seed copies of ${(seed / 1024).toFixed(0)} KiB each`,
      },
      {
        name: 'root disk growth for a snapshot with memory (virtseed_snapshot of the running guest)',
        unit: 'MiB',
        ours: memoryBytes / MiB,
        anchorName: "the guest's memory",
        anchor: 512,
        note: 'one run',
      },
    ];
    for (const line of formatGoalTable(rows)) log(line);
    return rows;
  } finally {
    try {
      write(0, 'none'); // any config of the same resources: destroy plans from the state
      tf(['destroy', '-auto-approve']);
    } catch (err) {
      log(`  destroy failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); removing by name`);
    }
    cleanup();
    rmSync(base, { recursive: true, force: true });
  }
}
