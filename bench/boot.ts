/**
 * Boot time of the project's test image to cloud-init finished, by boot path: BIOS (SeaBIOS → the image's GRUB
 * from its BIOS boot partition) and UEFI (OVMF → the image's GRUB from its ESP), beside direct kernel boot of the
 * same disk (the anchor: no firmware boot loader at all). Each boot: a qcow2 overlay on the image and a NoCloud seed
 * ISO (`buildSeedIso`) as files in the `default` pool's directory, a domain rendered by `renderDomainXml` (512 MiB,
 * one vCPU, restricted user networking, the domain type the provider would pick), started with `virsh start`; the
 * figure is the time from the start to cloud-init's "finished" line on the serial console log. Alternating runs,
 * medians. No goal (issue 13 asks for the figures). Objects are named `vsbench-boot-*` and removed after each boot.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createHostProbe } from '../provider/src/host-probe';
import { renderDomainXml, type DomainSpec } from '../src/domain';
import { buildSeedIso } from '../src/seed';
import { BENCH_URI as URI, virsh } from './private/command';
import { alternate, formatGoalTable, GoalRow } from './private/rows';

const HOST = createHostProbe();

const ROOT = join(__dirname, '..', '..');
const DIR = '/var/lib/libvirt/images';
const NAME = 'vsbench-boot';
/** Where virtlogd writes the serial console (as for the provider's domains). */
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;
const FINISHED = /Cloud-init v\. \S+ finished at/;

type Boot = 'bios' | 'efi' | 'kernel';

interface Image {
  readonly image: string;
  readonly kernel: string;
  readonly initrd: string;
  readonly cmdline: string;
}

/** $VIRTSEED_TEST_IMAGE_DIR, else scripts/build-test-image.sh (which builds or reuses the cached image). */
export function testImage(): Image {
  const dir =
    process.env.VIRTSEED_TEST_IMAGE_DIR ??
    execFileSync('bash', [join(ROOT, 'scripts', 'build-test-image.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
      .trim()
      .split('\n')
      .pop()!;
  const env = readFileSync(join(dir, 'image.env'), 'utf8');
  const get = (key: string) => new RegExp(`^${key}='?([^'\\n]*)'?$`, 'm').exec(env)?.[1] ?? '';
  return { image: get('IMAGE'), kernel: get('KERNEL'), initrd: get('INITRD'), cmdline: get('CMDLINE') };
}

function cleanup(): void {
  virsh(['destroy', NAME], [0, 1]);
  virsh(['undefine', NAME, '--nvram'], [0, 1]);
  for (const file of ['root.qcow2', 'seed.iso']) rmSync(join(DIR, `${NAME}-${file}`), { force: true });
  rmSync(LOG, { force: true });
}

/** One boot: seconds from `virsh start` to cloud-init's finished line. */
async function bootSeconds(img: Image, boot: Boot): Promise<number> {
  cleanup();
  const root = join(DIR, `${NAME}-root.qcow2`);
  const seed = join(DIR, `${NAME}-seed.iso`);
  execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', '-F', 'qcow2', '-b', img.image, root]);
  writeFileSync(seed, buildSeedIso({ hostname: 'vsbench-boot', instance_id: `iid-vsbench-boot-${boot}` }).iso);
  const spec: DomainSpec = {
    name: NAME,
    type: HOST.domainType(URI),
    memoryMiB: 512,
    vcpu: 1,
    ...(boot === 'efi' ? { firmware: 'efi' as const } : {}),
    ...(boot === 'kernel' ? { os: { kernel: img.kernel, initrd: img.initrd, cmdline: img.cmdline } } : {}),
    disks: [
      { source: { file: root }, target: 'vda', bus: 'virtio', device: 'disk', format: 'qcow2' },
      { source: { file: seed }, target: 'sda', bus: 'sata', device: 'cdrom', format: 'raw', readonly: true },
    ],
    interfaces: [{ type: 'user', restrict: true }],
    serialLogFile: LOG,
  };
  const work = mkdtempSync(join(tmpdir(), 'virtseed-bench-boot-'));
  const xml = join(work, 'domain.xml');
  writeFileSync(xml, renderDomainXml(spec));
  try {
    virsh(['define', xml]);
    const start = performance.now();
    virsh(['start', NAME]);
    for (;;) {
      if (existsSync(LOG) && FINISHED.test(readFileSync(LOG, 'utf8'))) return (performance.now() - start) / 1000;
      if (performance.now() - start > 900_000)
        throw new Error(`${boot}: cloud-init did not finish within 900 s; console:\n${readFileSync(LOG, 'utf8').slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    cleanup();
  }
}

export async function runBootBench(runs = 3, log: (line: string) => void = console.log): Promise<GoalRow[]> {
  const img = testImage();
  const [bios, efi, kernel] = await alternate(runs, [
    () => bootSeconds(img, 'bios'),
    () => bootSeconds(img, 'efi'),
    () => bootSeconds(img, 'kernel'),
  ]);
  const note = `median of ${runs}, ${HOST.domainType(URI) === 'kvm' ? 'KVM' : 'TCG'}`;
  const rows: GoalRow[] = [
    {
      name: 'boot to cloud-init finished: BIOS, GRUB from the image',
      unit: 's',
      ours: bios,
      anchorName: 'direct kernel boot',
      anchor: kernel,
      note,
    },
    {
      name: 'boot to cloud-init finished: UEFI (OVMF), GRUB from the ESP',
      unit: 's',
      ours: efi,
      anchorName: 'direct kernel boot',
      anchor: kernel,
      note,
    },
  ];
  for (const line of formatGoalTable(rows)) log(line);
  return rows;
}
