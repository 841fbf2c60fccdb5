/**
 * Host CPU of a test image's boot, phase by phase (docs/performance.md, "The test image's boot under TCG"): each
 * image given boots once, all at the same moment (so they share the machine's load), in the e2e tests' domain shape
 * (direct kernel boot from image.env, a qcow2 overlay, a NoCloud seed on a SATA cdrom, a restricted user NIC, 512
 * MiB, one vCPU). The QEMU process's utime + stime is read from /proc every 0.5 s with the console log's size, so
 * a console line's byte offset gives the host CPU at which it was printed; a phase is the CPU between two marker
 * lines. Also the PIDs that printed cloud-init's stage banners (one PID for all stages: cloud-init ≥ 24.3's single
 * process) and the 1-minute load average over the boots.
 *
 * Usage (a boot experiment: through the boot slot): `bash /work/wt/boot-slot.sh npx tsx bench/boot-phases.ts
 * [--dhcp4-only] [--deprecated-key] IMAGE_DIR...` (directories with image.env, as scripts/build-test-image.sh prints). Objects are named
 * `vsbench-phases-PID-N-*` (this process's id, so two runs can share the machine) and removed after the boots. Prints a Markdown table.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHostProbe } from '../provider/src/host-probe';
import { renderDomainXml, type DomainSpec } from '../src/domain';
import { buildSeedIso } from '../src/seed';
import { BENCH_URI as URI, virsh } from './private/command';

const DIR = '/var/lib/libvirt/images';
const TICKS = 100; // USER_HZ
const FINISHED = /Cloud-init v\. \S+ finished at/;
/**
 * `--dhcp4-only`: the seed carries a network-config (DHCPv4 on eth0) instead of leaving cloud-init to its fallback,
 * which from cloud-init 24.x on asks for DHCPv6 too: ifupdown's `inet6 dhcp` then waits on a network with no DHCPv6
 * server (QEMU's restricted user networking) until networking.service's 5-minute timeout.
 */
/**
 * `--deprecated-key`: the seed's cloud-config sets `apt_update: false` (deprecated since cloud-init 22.2), so the
 * console shows how this cloud-init prints a deprecation (22.4 at WARNING, ≥ 23.4 at its DEPRECATED level).
 */
const DEPRECATED_KEY = process.argv.includes('--deprecated-key');
const DHCP4_ONLY = process.argv.includes('--dhcp4-only')
  ? 'version: 2\nethernets:\n  eth0:\n    match: {name: eth0}\n    dhcp4: true\n'
  : undefined;

/** Phase ends, in boot order: the first console line matching each. */
const MARKS: readonly { readonly name: string; readonly re: RegExp }[] = [
  { name: 'firmware + loader', re: /Linux version/ },
  { name: 'kernel (unpacks the initramfs)', re: /Run \/init/ },
  { name: 'initramfs', re: /systemd\[1\]: systemd \d+/ },
  { name: 'systemd → cloud-init local stage', re: /running 'init-local'/ },
  { name: 'local → init stage', re: /running 'init'/ },
  { name: 'init → final stage', re: /running 'modules:final'/ },
  { name: 'final → finished', re: FINISHED },
];

interface Image {
  readonly dir: string;
  readonly image: string;
  readonly kernel: string;
  readonly initrd: string;
  readonly cmdline: string;
}

function readImage(dir: string): Image {
  const env = readFileSync(join(dir, 'image.env'), 'utf8');
  const get = (key: string) => new RegExp(`^${key}='?([^'\\n]*)'?$`, 'm').exec(env)?.[1] ?? '';
  return { dir, image: get('IMAGE'), kernel: get('KERNEL'), initrd: get('INITRD'), cmdline: get('CMDLINE') };
}

interface Boot {
  readonly name: string;
  readonly log: string;
  readonly samples: { cpu: number; bytes: number; ms: number }[];
  pid?: number;
  doneMs?: number;
}

const names = (i: number) => {
  const name = `vsbench-phases-${process.pid}-${i}`;
  return {
    name,
    root: join(DIR, `${name}-root.qcow2`),
    seed: join(DIR, `${name}-seed.iso`),
    log: `/var/log/libvirt/qemu/${name}-console.log`,
  };
};

function cleanup(i: number): void {
  const n = names(i);
  virsh(['destroy', n.name], [0, 1]);
  virsh(['undefine', n.name], [0, 1]);
  for (const f of [n.root, n.seed, n.log]) rmSync(f, { force: true });
}

function qemuCpu(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime (fields 14, 15)
  } catch {
    return undefined;
  }
}

/** CPU at the moment the console log had `offset` bytes: the first sample at or past it. */
function cpuAt(boot: Boot, offset: number): number | undefined {
  return boot.samples.find((s) => s.bytes >= offset)?.cpu;
}

function phases(boot: Boot): { rows: (number | undefined)[]; total?: number; pids: string; wall?: number } {
  const text = existsSync(boot.log) ? readFileSync(boot.log, 'latin1') : '';
  const at: (number | undefined)[] = MARKS.map(({ re }) => {
    const m = re.exec(text);
    return m ? cpuAt(boot, m.index + m[0].length) : undefined;
  });
  const rows = at.map((cpu, i) => (cpu === undefined ? undefined : cpu - (i === 0 ? 0 : (at[i - 1] ?? NaN))));
  const pids = [...text.matchAll(/cloud-init\[(\d+)\]: Cloud-init v\. \S+ (?:running '([^']+)'|finished)/g)]
    .map((m) => `${m[2] ?? 'finished'}:${m[1]}`)
    .join(' ');
  const start = boot.samples[0]?.ms;
  return {
    rows,
    total: at[at.length - 1],
    pids,
    wall: boot.doneMs !== undefined && start !== undefined ? (boot.doneMs - start) / 1000 : undefined,
  };
}

async function main(dirs: string[]): Promise<void> {
  if (!dirs.length) throw new Error('usage: boot-phases.ts IMAGE_DIR...');
  const host = createHostProbe();
  const images = dirs.map(readImage);
  const work = mkdtempSync(join(tmpdir(), 'virtseed-boot-phases-'));
  const boots: Boot[] = [];
  const loads: number[] = [];
  try {
    images.forEach((img, i) => {
      cleanup(i);
      const n = names(i);
      execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', '-F', 'qcow2', '-b', img.image, n.root]);
      writeFileSync(
        n.seed,
        buildSeedIso({
          hostname: `phases${i}`,
          instance_id: `iid-vsbench-phases-${i}`,
          ...(DHCP4_ONLY ? { network_config: DHCP4_ONLY } : {}),
          ...(DEPRECATED_KEY ? { cloud_config: { apt_update: false } } : {}),
        }).iso,
      );
      const spec: DomainSpec = {
        name: n.name,
        type: host.domainType(URI),
        memoryMiB: 512,
        vcpu: 1,
        os: { kernel: img.kernel, initrd: img.initrd, cmdline: img.cmdline },
        disks: [
          { source: { file: n.root }, target: 'vda', bus: 'virtio', device: 'disk', format: 'qcow2' },
          { source: { file: n.seed }, target: 'sda', bus: 'sata', device: 'cdrom', format: 'raw', readonly: true },
        ],
        interfaces: [{ type: 'user', restrict: true }],
        serialLogFile: n.log,
      };
      writeFileSync(join(work, `${i}.xml`), renderDomainXml(spec));
      virsh(['define', join(work, `${i}.xml`)]);
      boots.push({ name: n.name, log: n.log, samples: [] });
    });
    for (const b of boots) virsh(['start', b.name]);
    for (const b of boots) b.pid = Number(readFileSync(`/run/libvirt/qemu/${b.name}.pid`, 'utf8').trim());
    const deadline = Date.now() + 1_800_000;
    let tick = 0;
    while (boots.some((b) => b.doneMs === undefined) && Date.now() < deadline) {
      for (const b of boots) {
        if (b.doneMs !== undefined) continue;
        const cpu = qemuCpu(b.pid!);
        const bytes = existsSync(b.log) ? Number(execFileSync('stat', ['-c', '%s', b.log], { encoding: 'utf8' })) : 0;
        if (cpu !== undefined) b.samples.push({ cpu, bytes, ms: Date.now() });
        if (bytes && FINISHED.test(readFileSync(b.log, 'latin1'))) b.doneMs = Date.now();
      }
      if (tick++ % 20 === 0) loads.push(loadavg()[0]);
      await new Promise((r) => setTimeout(r, 500));
    }
    const results = boots.map(phases);
    const head = `| phase (host CPU s) | ${images.map((img) => img.dir.split('/').pop()).join(' | ')} |`;
    console.log(head);
    console.log(`|---|${images.map(() => '--:').join('|')}|`);
    MARKS.forEach((m, i) => console.log(`| ${m.name} | ${results.map((r) => r.rows[i]?.toFixed(1) ?? '-').join(' | ')} |`));
    console.log(`| total | ${results.map((r) => r.total?.toFixed(1) ?? '-').join(' | ')} |`);
    console.log(`| wall to finished (s) | ${results.map((r) => r.wall?.toFixed(0) ?? '-').join(' | ')} |`);
    console.log(`load (1-min) during the boots: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
    results.forEach((r, i) => console.log(`${images[i].dir}: cloud-init banners (stage:pid) ${r.pids}`));
  } finally {
    images.forEach((_, i) => cleanup(i));
    rmSync(work, { recursive: true, force: true });
  }
}

main(process.argv.slice(2).filter((a) => !a.startsWith('--'))).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
