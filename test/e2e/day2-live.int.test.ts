/**
 * Day-2 changes on one real guest through Terraform (issue 20), the guest's boot id as the truth for "no restart".
 * The guest prints its state to the serial console every 3 s (a transient unit its bootcmd starts at every boot):
 * boot id, MemTotal, online CPUs, disk sizes (lsblk), the root file system's size (df), each NIC's carrier.
 *   1. memory 512 → 1024 MiB within max_memory 1024: the plan says live, the guest's MemTotal grows, same boot id;
 *   2. a new virtio disk, a new NIC, NIC 0's link down, the root volume 2 → 3 GiB: all live, the guest sees each,
 *      same boot id;
 *   3. memory above max_memory, and vcpu 1 → 2 (within max_vcpu, but TCG cannot hot-plug a vCPU): the plan says
 *      restart and why beforehand, the guest restarts cleanly (new boot id) with 2 CPUs, and cloud-init's
 *      growpart/resizefs grow the root file system to the grown disk;
 *   then a plan is empty. Apply times of the live memory change and the restart are printed.
 */
import * as fs from 'node:fs';
import { ConsoleCapture } from '../helpers/console-capture';
import { cleanupByPrefix, testImage, TestImage } from '../helpers/guest';
import { cleanupNetworksByPrefix, isolatedNetworkHcl } from '../helpers/network';
import { teardown } from '../helpers/teardown';
import { plannedChange, TfWorkdir } from '../helpers/terraform';

jest.setTimeout(2_400_000);

const PREFIX = 'vstest-core-d2';
const NAME = `${PREFIX}-vm`;
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;
const GiB = 1024 ** 3;

/** One console line of the guest's state. */
interface GuestState {
  boot: string;
  memKiB: number;
  cpus: number;
  disks: Record<string, number>;
  rootBytes: number;
  carrier: Record<string, string>;
}

const STATE = /STATE boot=(\S+) mem=(\d+) cpus=(\d+) disks=(\S*) root=(\d+) nics=(\S*)/;

function parseState(line: string): GuestState | undefined {
  const m = STATE.exec(line);
  if (!m) return undefined;
  const pairs = (s: string) =>
    Object.fromEntries(
      s
        .split(',')
        .filter(Boolean)
        .map((p) => p.split(':') as [string, string]),
    );
  return {
    boot: m[1],
    memKiB: Number(m[2]),
    cpus: Number(m[3]),
    disks: Object.fromEntries(Object.entries(pairs(m[4])).map(([k, v]) => [k, Number(v)])),
    rootBytes: Number(m[5]),
    carrier: pairs(m[6]),
  };
}

/** The loop the guest runs (no `${` or `%{`: the text goes through HCL). */
const LOOP = [
  'while :; do',
  ' b=$(cat /proc/sys/kernel/random/boot_id);',
  " m=$(awk '/MemTotal/ {print $2}' /proc/meminfo);",
  ' c=$(grep -c ^processor /proc/cpuinfo);',
  ' d=$(lsblk -b -d -n -o NAME,SIZE | awk \'$1 ~ /^vd/ {printf "%s:%s,", $1, $2}\');',
  " r=$(df -B1 --output=size / | tail -1 | tr -d ' ');",
  ' n=$(for i in /sys/class/net/eth*; do printf "%s:%s," $(basename $i) $(cat $i/carrier 2>/dev/null || echo x); done);',
  ' echo "STATE boot=$b mem=$m cpus=$c disks=$d root=$r nics=$n" > /dev/ttyS0;',
  ' sleep 3;',
  'done',
].join('');

const CLOUD_CONFIG = JSON.stringify({
  bootcmd: [`systemd-run --no-block -p DefaultDependencies=no --unit=vstest-state sh -c '${LOOP.replace(/'/g, "'\\''")}'`],
  // Hot-added CPUs come up offline in Debian's kernel; this rule onlines them (as cloud images' own rules do).
  write_files: [
    {
      path: '/etc/udev/rules.d/80-vstest-cpu-online.rules',
      content: 'SUBSYSTEM=="cpu", ACTION=="add", TEST=="online", ATTR{online}=="0", ATTR{online}="1"\n',
    },
  ],
});

interface Step {
  memory: number;
  maxMemory: number;
  vcpu: number;
  maxVcpu: number;
  rootBytes: number;
  dataDisk: boolean;
  secondNic: boolean;
  link0: 'up' | 'down';
}

let img: TestImage;
let tf: TfWorkdir;
let capture: ConsoleCapture;

function config(s: Step): string {
  return `
${isolatedNetworkHcl('net', `${PREFIX}-net`)}
resource "virtseed_volume" "base" {
  pool   = "default"
  name   = "${PREFIX}-base.qcow2"
  source = "${img.image}"
}
resource "virtseed_volume" "root" {
  pool           = "default"
  name           = "${PREFIX}-root.qcow2"
  backing_volume = virtseed_volume.base.id
  capacity       = ${s.rootBytes}
}
resource "virtseed_volume" "data" {
  pool     = "default"
  name     = "${PREFIX}-data.raw"
  format   = "raw"
  capacity = ${64 * 1024 * 1024}
}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}-seed.iso"
  hostname     = "d2"
  cloud_config = ${JSON.stringify(CLOUD_CONFIG)}
}
resource "virtseed_domain" "vm" {
  name       = "${NAME}"
  memory     = ${s.memory}
  max_memory = ${s.maxMemory}
  vcpu       = ${s.vcpu}
  max_vcpu   = ${s.maxVcpu}
  wait_for   = "cloud-init"
  wait_timeout     = 1400
  shutdown_timeout = 120
  disk { volume_id = virtseed_volume.root.id }
${s.dataDisk ? '  disk { volume_id = virtseed_volume.data.id }\n' : ''}  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  network_interface {
    network    = virtseed_network.net.id
    link_state = "${s.link0}"
  }
${s.secondNic ? '  network_interface { network = virtseed_network.net.id }\n' : ''}}
`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The guest's latest state line printed at or after `sinceMs` that satisfies `ok`; fails after `timeoutMs`. */
async function stateWhere(sinceMs: number, ok: (s: GuestState) => boolean, what: string, timeoutMs = 300_000): Promise<GuestState> {
  const end = Date.now() + timeoutMs;
  let last: GuestState | undefined;
  while (Date.now() < end) {
    const states = capture
      .since(sinceMs)
      .map((l) => parseState(l.text))
      .filter((s): s is GuestState => s !== undefined);
    last = states[states.length - 1] ?? last;
    const hit = [...states].reverse().find(ok);
    if (hit) return hit;
    await sleep(2000);
  }
  throw new Error(
    `the guest never showed ${what}; its last state: ${JSON.stringify(last)}\nconsole:\n${capture
      .lines()
      .slice(-30)
      .map((l) => l.text)
      .join('\n')}`,
  );
}

/** `terraform plan`'s output with every run of white space as one space (Terraform wraps warning text). */
function planText(): string {
  return tf.plan().out.replace(/\s+/g, ' ');
}

/** `terraform apply`, timed (a restart waits for cloud-init of a TCG boot: up to 25 minutes on a loaded host). */
function timedApply(): { out: string; seconds: number } {
  const t0 = Date.now();
  const out = tf.ok(['apply', '-auto-approve', '-input=false'], 1_500_000);
  return { out, seconds: (Date.now() - t0) / 1000 };
}

/** The domain's planned change_impact and change_impacts (`terraform show -json` of a saved plan). */
function domainChange(): { change_impact: unknown; change_impacts: unknown } {
  const after = plannedChange(tf.planJson(), 'virtseed_domain.vm').after;
  return { change_impact: after?.change_impact, change_impacts: after?.change_impacts };
}

const STEP0: Step = {
  memory: 512,
  maxMemory: 1024,
  vcpu: 1,
  maxVcpu: 2,
  rootBytes: 2 * GiB,
  dataDisk: false,
  secondNic: false,
  link0: 'up',
};
let boot0: GuestState;
let liveSeconds = 0;

beforeAll(() => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  cleanupNetworksByPrefix(PREFIX);
  fs.rmSync(LOG, { force: true });
  capture = new ConsoleCapture(LOG);
  tf = new TfWorkdir('day2-live');
  tf.write(config(STEP0));
  tf.init();
});

afterAll(() => {
  teardown({
    tf,
    prefix: PREFIX,
    destroy: true,
    also: () => {
      capture?.dispose();
      cleanupNetworksByPrefix(PREFIX);
    },
  });
});

test('GIVEN a guest with room to grow (max_memory 1024, max_vcpu 2) WHEN created THEN it runs and prints its state', async () => {
  const t0 = Date.now();
  timedApply();
  boot0 = await stateWhere(t0, (s) => s.cpus === 1, 'its first state');
  expect(boot0.disks.vda).toBe(2 * GiB);
  expect(boot0.carrier.eth0).toBe('1');
});

test('GIVEN memory within max_memory WHEN planned and applied THEN the plan says live and the guest has more memory, same boot id', async () => {
  const step = { ...STEP0, memory: 1024 };
  tf.write(config(step));
  const plan = planText();
  expect(plan).toMatch(/Domain vstest-core-d2-vm changes live \(no restart\)/);
  expect(plan).toContain('memory 512 → 1024 MiB (live: within max_memory 1024)');
  expect(domainChange()).toEqual({ change_impact: 'live', change_impacts: { memory: 'live: within max_memory 1024' } });
  const t0 = Date.now();
  const applied = timedApply();
  liveSeconds = applied.seconds;
  const after = await stateWhere(t0, (s) => s.memKiB > boot0.memKiB + 400 * 1024, 'MemTotal grown by ~512 MiB');
  expect(after.boot).toBe(boot0.boot);
  console.log(
    `live memory change: apply ${applied.seconds.toFixed(1)} s; MemTotal ${boot0.memKiB} → ${after.memKiB} kB, boot id ${after.boot}`,
  );
});

test('GIVEN a disk, a NIC, a link state and a larger root volume WHEN applied THEN each is live and the guest sees it, same boot id', async () => {
  const step: Step = { ...STEP0, memory: 1024, rootBytes: 3 * GiB, dataDisk: true, secondNic: true, link0: 'down' };
  tf.write(config(step));
  const plan = planText();
  expect(domainChange().change_impact).toBe('live');
  expect(plan).toContain('disk[1] added (live: bus = "virtio")');
  expect(plan).toContain('network_interface[1] added (live: user = false)');
  expect(plan).toContain('network_interface[0].link_state up → down (live)');
  const t0 = Date.now();
  const applied = timedApply();
  const after = await stateWhere(
    t0,
    (s) => s.disks.vdb === 64 * 1024 * 1024 && s.disks.vda === 3 * GiB && s.carrier.eth1 !== undefined && s.carrier.eth0 === '0',
    'vdb of 64 MiB, vda of 3 GiB, eth1, and no carrier on eth0',
  );
  expect(after.boot).toBe(boot0.boot);
  console.log(`live devices: apply ${applied.seconds.toFixed(1)} s; ${JSON.stringify(after)}`);
});

test('GIVEN memory above max_memory and a vCPU under TCG WHEN planned THEN the plan says restart and why; WHEN applied THEN the guest restarts cleanly and its root file system grew', async () => {
  const before = await stateWhere(0, () => true, 'a state');
  const step: Step = {
    ...STEP0,
    memory: 1536,
    maxMemory: 1536,
    vcpu: 2,
    rootBytes: 3 * GiB,
    dataDisk: true,
    secondNic: true,
    link0: 'down',
  };
  tf.write(config(step));
  const plan = planText();
  expect(plan).toMatch(/Domain vstest-core-d2-vm restarts/);
  expect(plan).toContain('memory 1024 → 1536 MiB (restart: above max_memory 1024)');
  expect(plan).toContain('vcpu 1 → 2 (restart: type = "qemu")');
  expect(domainChange()).toEqual({
    change_impact: 'restart',
    change_impacts: { memory: 'restart: above max_memory 1024', max_memory: 'restart', vcpu: 'restart: type = "qemu"' },
  });
  const t0 = Date.now();
  const applied = timedApply();
  expect(applied.out).toMatch(/Domain vstest-core-d2-vm was restarted|shut down cleanly by ACPI|powered off/);
  // cloud-init's growpart and resizefs run after the bootcmd that starts the state loop: wait for the grown root.
  const after = await stateWhere(
    t0,
    (s) => s.boot !== boot0.boot && s.cpus === 2 && s.rootBytes > before.rootBytes + 0.5 * GiB,
    'a new boot with 2 CPUs and the root file system grown',
  );
  expect(after.memKiB).toBeGreaterThan(before.memKiB + 400 * 1024);
  expect(after.disks.vdb).toBe(64 * 1024 * 1024);
  expect(after.carrier.eth1).toBeDefined();
  console.log(
    `restart: apply ${applied.seconds.toFixed(1)} s (live memory change: ${liveSeconds.toFixed(1)} s); root fs ${before.rootBytes} → ${after.rootBytes} bytes; boot id ${boot0.boot} → ${after.boot}`,
  );
  const again = tf.plan();
  if (again.code !== 0) throw new Error(`the plan after the restart is not empty (exit ${again.code}):\n${again.out}`);
});
