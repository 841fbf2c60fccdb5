/**
 * Day-2 changes on one real guest through Terraform (issue 20), the guest's boot id as the truth for "no restart".
 * The guest prints its state to the serial console every 3 s (a transient unit a per-boot script starts at the end of
 * every boot):
 * boot id, MemTotal, online CPUs, disk sizes (lsblk), the root partition's size, the root file system's size (df),
 * each NIC's carrier. One guest, two boots (the create and the restart), a sequence of applies:
 *   1. memory 512 → 1024 MiB within max_memory 1024: the plan says live, the guest's MemTotal grows, same boot id;
 *   2. two new virtio disks, a new NIC, NIC 0's link down, the root volume 2 → 3 GiB: all live, the guest sees each
 *      (the disk grows under the running guest; its partition and file system stay as they were), same boot id;
 *   3. the first of the two new disks removed (the middle disk of three): the plan says only that disk is removed,
 *      live; the guest loses it and keeps the other, same boot id;
 *   4. a new instance-id under reprovision = "next-boot": the plan says next-boot, the running guest is left alone
 *      (same boot id, no kernel banner, no runcmd of the new instance, same domain id);
 *   5. memory above max_memory, and vcpu 1 → 2 (within max_vcpu, but TCG cannot hot-plug a vCPU: docs/FACTS.md),
 *      with NIC 0's link up again: the plan says restart and why beforehand, the guest restarts cleanly (power-off
 *      line, then a new boot id; same UUID) with 2 CPUs and a carrier on eth0, cloud-init's growpart/resizefs grow
 *      the root partition and file system to the grown disk, and this boot is the pending instance-id's: its runcmd
 *      prints it before cloud-init's "finished" line, which the apply waited for (this restart carries the
 *      next-boot facts that test/e2e/provision-cycle.int.test.ts once booted a guest of its own for);
 *   then a plan is empty. Apply times of the live memory change and the restart are printed.
 * The firmware path is not under test here: the guest boots directly from the host's kernel, initrd and cmdline (no
 * SeaBIOS disk reads of GRUB, kernel and initrd under TCG).
 * A loaded host makes TCG boots take minutes: the waits are long, and each ends as soon as its condition holds.
 */
import * as fs from 'node:fs';
import { ConsoleCapture } from '../helpers/console-capture';
import { cleanupByPrefix, domainUuid, kernelBootHcl, readConsole, testImage, TestImage, virshRun } from '../helpers/guest';
import { cleanupNetworksByPrefix, isolatedNetworkHcl } from '../helpers/network';
import { teardown } from '../helpers/teardown';
import { plannedChange, TfWorkdir } from '../helpers/terraform';

jest.setTimeout(2_400_000);

const PREFIX = 'vstest-day2-live';
const NAME = `${PREFIX}-vm`;
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
/** The two data disks' sizes: the guest tells them apart by size (its device names follow probe order). */
const DATA1 = 64 * MiB;
const DATA2 = 96 * MiB;

/** One console line of the guest's state. */
interface GuestState {
  boot: string;
  memKiB: number;
  cpus: number;
  disks: Record<string, number>;
  /** The root partition's size (vda1), bytes. */
  partBytes: number;
  /** The root file system's size (df), bytes. */
  rootBytes: number;
  carrier: Record<string, string>;
}

const STATE = /STATE boot=(\S+) mem=(\d+) cpus=(\d+) disks=(\S*) part=(\d+) root=(\d+) nics=(\S*)/;

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
    partBytes: Number(m[5]),
    rootBytes: Number(m[6]),
    carrier: pairs(m[7]),
  };
}

/** The loop the guest runs (no `${` or `%{`: the text goes through HCL). */
const LOOP = [
  'while :; do',
  ' b=$(cat /proc/sys/kernel/random/boot_id);',
  " m=$(awk '/MemTotal/ {print $2}' /proc/meminfo);",
  ' c=$(grep -c ^processor /proc/cpuinfo);',
  ' d=$(lsblk -b -d -n -o NAME,SIZE | awk \'$1 ~ /^vd/ {printf "%s:%s,", $1, $2}\');',
  ' p=$(lsblk -b -d -n -o SIZE /dev/vda1);',
  " r=$(df -B1 --output=size / | tail -1 | tr -d ' ');",
  ' n=$(for i in /sys/class/net/eth*; do printf "%s:%s," $(basename $i) $(cat $i/carrier 2>/dev/null || echo x); done);',
  ' echo "STATE boot=$b mem=$m cpus=$c disks=$d part=$p root=$r nics=$n" > /dev/ttyS0;',
  ' sleep 3;',
  'done',
].join('');

/** The runcmd of the second instance-id prints it: seen only when a boot runs that instance. */
const NEXT_MARKER = /VSTEST-NEXT (\S+)/;
const IID1 = 'iid-day2-1';
const IID2 = 'iid-day2-2';
const BANNER = /Linux version \d/;
const CLEAN_POWEROFF = /reboot: Power down/;

/**
 * The cloud-config of instance `iid`: the state loop, the CPU rule, and for IID2 a runcmd printing the instance-id.
 * The loop starts from a per-boot script (cloud-init's final stage, at every boot), not from bootcmd: its dozen
 * processes every 3 s would compete with the boot itself for the TCG guest's one CPU, and the test reads the guest's
 * state only once the apply (which waits for cloud-init) returned.
 */
function cloudConfig(iid: string): string {
  return JSON.stringify({
    write_files: [
      {
        path: '/var/lib/cloud/scripts/per-boot/vstest-state.sh',
        permissions: '0755',
        content: `#!/bin/sh\nsystemd-run --no-block --unit=vstest-state sh -c '${LOOP.replace(/'/g, "'\\''")}'\n`,
      },
      // Hot-added CPUs come up offline in Debian's kernel; this rule onlines them (as cloud images' own rules do).
      {
        path: '/etc/udev/rules.d/80-vstest-cpu-online.rules',
        content: 'SUBSYSTEM=="cpu", ACTION=="add", TEST=="online", ATTR{online}=="0", ATTR{online}="1"\n',
      },
    ],
    ...(iid === IID2 ? { runcmd: ['echo "VSTEST-NEXT $(cat /var/lib/cloud/data/instance-id)" > /dev/ttyS0'] } : {}),
  });
}

interface Step {
  memory: number;
  maxMemory: number;
  vcpu: number;
  maxVcpu: number;
  rootBytes: number;
  /** The data volumes attached, in this order. */
  data: ('data1' | 'data2')[];
  secondNic: boolean;
  link0: 'up' | 'down';
  /** The seed's instance-id and the domain's reprovision policy (IID1 under the default policy until step 4). */
  iid?: typeof IID2;
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
resource "virtseed_volume" "data1" {
  pool     = "default"
  name     = "${PREFIX}-data1.raw"
  format   = "raw"
  capacity = ${DATA1}
}
resource "virtseed_volume" "data2" {
  pool     = "default"
  name     = "${PREFIX}-data2.raw"
  format   = "raw"
  capacity = ${DATA2}
}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}-seed.iso"
  hostname     = "d2"
  instance_id  = "${s.iid ?? IID1}"
  cloud_config = ${JSON.stringify(cloudConfig(s.iid ?? IID1))}
}
resource "virtseed_domain" "vm" {
  name       = "${NAME}"
${kernelBootHcl(img)}  memory     = ${s.memory}
  max_memory = ${s.maxMemory}
  vcpu       = ${s.vcpu}
  max_vcpu   = ${s.maxVcpu}
  wait_for   = "cloud-init"
${s.iid ? '  reprovision = "next-boot"\n' : ''}  wait_timeout     = 1400
  shutdown_timeout = 120
  disk { volume_id = virtseed_volume.root.id }
${s.data.map((d) => `  disk { volume_id = virtseed_volume.${d}.id }\n`).join('')}  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
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
    await sleep(500);
  }
  throw new Error(
    `the guest never showed ${what}; its last state: ${JSON.stringify(last)}\nconsole:\n${capture
      .lines()
      .slice(-30)
      .map((l) => l.text)
      .join('\n')}`,
  );
}

/** Waits until the guest printed `n` state lines at or after `sinceMs` (at most a minute). */
async function stateLines(sinceMs: number, n: number): Promise<void> {
  const end = Date.now() + 60_000;
  while (capture.since(sinceMs).filter((l) => STATE.test(l.text)).length < n) {
    if (Date.now() > end) throw new Error(`the guest printed fewer than ${n} state lines in a minute; console:\n${lastConsole()}`);
    await sleep(500);
  }
}

/** The captured console's last 30 lines. */
function lastConsole(): string {
  return capture
    .lines()
    .slice(-30)
    .map((l) => l.text)
    .join('\n');
}

/** One saved plan of the written configuration (`terraform plan -out`, applied by timedApply): its output with every
 *  run of white space as one space (Terraform wraps warning text), and the domain's planned change_impact and
 *  change_impacts (`terraform show -json` of the saved plan), with its reprovision_action when `reprovision` is
 *  asked. */
function planStep(reprovision = false): { text: string; domain: Record<string, unknown> } {
  const { out, json } = tf.planSaved();
  const after = plannedChange(json, 'virtseed_domain.vm').after;
  return {
    text: out.replace(/\s+/g, ' '),
    domain: {
      change_impact: after?.change_impact,
      change_impacts: after?.change_impacts,
      ...(reprovision ? { reprovision_action: after?.reprovision_action } : {}),
    },
  };
}

/** `terraform apply` of the saved plan (planStep), or with `auto` of the written configuration, timed (a restart
 *  waits for cloud-init of a TCG boot: up to 25 minutes on a loaded host). */
function timedApply(auto = false): { out: string; seconds: number } {
  const t0 = Date.now();
  const out = tf.ok(auto ? ['apply', '-auto-approve', '-input=false'] : ['apply', '-input=false', 'tfplan'], 1_500_000);
  return { out, seconds: (Date.now() - t0) / 1000 };
}

const STEP0: Step = {
  memory: 512,
  maxMemory: 1024,
  vcpu: 1,
  maxVcpu: 2,
  rootBytes: 2 * GiB,
  data: [],
  secondNic: false,
  link0: 'up',
};
/** After step 2: two data disks, a second NIC, NIC 0's link down, the root volume grown. */
const STEP2: Step = { ...STEP0, memory: 1024, rootBytes: 3 * GiB, data: ['data1', 'data2'], secondNic: true, link0: 'down' };
/** After step 3: the 96 MiB disk only. */
const STEP3: Step = { ...STEP2, data: ['data2'] };
/** The guest's disk sizes, smallest first (its device names follow probe order, not libvirt's targets). */
const sizes = (s: GuestState) => Object.values(s.disks).sort((a, b) => a - b);
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
  const applied = timedApply(true);
  boot0 = await stateWhere(t0, (s) => s.cpus === 1, 'its first state');
  expect(boot0.disks.vda).toBe(2 * GiB);
  expect(boot0.carrier.eth0).toBe('1');
  console.log(`create: apply ${applied.seconds.toFixed(1)} s; boot id ${boot0.boot}`);
});

test('GIVEN memory within max_memory WHEN planned and applied THEN the plan says live and the guest has more memory, same boot id', async () => {
  tf.write(config({ ...STEP0, memory: 1024 }));
  const plan = planStep();
  expect(plan.text).toMatch(/Domain vstest-day2-live-vm changes live \(no restart\)/);
  expect(plan.text).toContain('memory 512 → 1024 MiB (live: within max_memory 1024)');
  expect(plan.domain).toEqual({ change_impact: 'live', change_impacts: { memory: 'live: within max_memory 1024' } });
  const t0 = Date.now();
  const applied = timedApply();
  liveSeconds = applied.seconds;
  const after = await stateWhere(t0, (s) => s.memKiB > boot0.memKiB + 400 * 1024, 'MemTotal grown by ~512 MiB');
  expect(after.boot).toBe(boot0.boot);
  console.log(
    `live memory change: apply ${applied.seconds.toFixed(1)} s; MemTotal ${boot0.memKiB} → ${after.memKiB} kB, boot id ${after.boot}`,
  );
});

test('GIVEN two disks, a NIC, a link state and a larger root volume WHEN applied THEN each is live and the guest sees it, same boot id', async () => {
  tf.write(config(STEP2));
  const { text: plan, domain } = planStep();
  expect(domain).toEqual({
    change_impact: 'live',
    change_impacts: {
      'disk[1]': 'live: bus = "virtio"',
      'disk[2]': 'live: bus = "virtio"',
      'network_interface[0].link_state': 'live',
      'network_interface[1]': 'live: user = false',
    },
  });
  expect(plan).toContain('disk[1] (target vdb) added (live: bus = "virtio")');
  expect(plan).toContain('disk[2] (target vdc) added (live: bus = "virtio")');
  expect(plan).toMatch(/network_interface\[1\] \(mac [0-9a-f:]{17}\) added \(live: user = false\)/);
  expect(plan).toContain('network_interface[0].link_state up → down (live)');
  const t0 = Date.now();
  const applied = timedApply();
  const after = await stateWhere(
    t0,
    (s) =>
      sizes(s).join() === [DATA1, DATA2, 3 * GiB].join() &&
      s.disks.vda === 3 * GiB &&
      s.carrier.eth1 !== undefined &&
      s.carrier.eth0 === '0',
    'disks of 64 MiB and 96 MiB, vda of 3 GiB, eth1, and no carrier on eth0',
  );
  expect(after.boot).toBe(boot0.boot);
  // The disk grew under the running guest; its partition and file system are the guest's and grow at the next boot.
  expect(after.partBytes).toBeLessThan(2 * GiB);
  console.log(`live devices: apply ${applied.seconds.toFixed(1)} s; ${JSON.stringify(after)}`);
});

test('GIVEN three disks WHEN the middle one is removed THEN the plan removes only that one, live, and the guest keeps the others, same boot id', async () => {
  tf.write(config(STEP3));
  const { text: plan, domain } = planStep();
  expect(domain).toEqual({ change_impact: 'live', change_impacts: { 'disk[1]': 'live: bus = "virtio"' } });
  expect(plan).toContain('vstest-day2-live-vm: disk[1] (target vdb) removed (live: bus = "virtio")');
  const t0 = Date.now();
  const applied = timedApply();
  const after = await stateWhere(t0, (s) => sizes(s).join() === [DATA2, 3 * GiB].join(), 'only the 96 MiB data disk and vda');
  expect(after.boot).toBe(boot0.boot);
  console.log(`live detach of the middle disk: apply ${applied.seconds.toFixed(1)} s; ${JSON.stringify(after)}`);
});

test('GIVEN reprovision = "next-boot" WHEN the instance-id changes THEN the plan says next-boot and the running guest is left alone', async () => {
  tf.write(config({ ...STEP3, iid: IID2 }));
  const dom = plannedChange(tf.planJson(), 'virtseed_domain.vm');
  expect(dom.actions).toEqual(['update']);
  expect([dom.after?.reprovision_action, dom.after?.previous_instance_id, dom.after?.instance_id]).toEqual(['next-boot', IID1, IID2]);
  const domid = virshRun('domid', NAME).trim();
  const t0 = Date.now();
  tf.ok(['apply', '-input=false', 'tfplan']);
  // Three state periods after the apply returned (the loop prints every 3 s).
  await stateLines(Date.now(), 3);
  const states = capture
    .since(t0)
    .map((l) => parseState(l.text))
    .filter((st): st is GuestState => st !== undefined);
  expect(states.length).toBeGreaterThanOrEqual(1);
  expect(new Set(states.map((st) => st.boot))).toEqual(new Set([boot0.boot]));
  const text = capture
    .since(t0)
    .map((l) => l.text)
    .join('\n');
  expect(text).not.toMatch(BANNER);
  expect(text).not.toMatch(NEXT_MARKER);
  expect(virshRun('domid', NAME).trim()).toBe(domid);
  const again = tf.plan();
  if (again.code !== 0) throw new Error(`the plan after the next-boot apply is not empty (exit ${again.code}):\n${again.out}`);
});

test('GIVEN memory above max_memory and a vCPU under TCG WHEN planned THEN the plan says restart and why; WHEN applied THEN the guest restarts cleanly and its root partition and file system grew', async () => {
  const before = await stateWhere(0, () => true, 'a state');
  // NIC 0's link goes up with the restart: with no carrier the new boot's DHCP waits ~2 minutes (networking.service).
  tf.write(config({ ...STEP3, iid: IID2, memory: 1536, maxMemory: 1536, vcpu: 2, link0: 'up' }));
  const { text: plan, domain } = planStep(true);
  expect(plan).toMatch(/Domain vstest-day2-live-vm restarts/);
  expect(plan).toContain('memory 1024 → 1536 MiB (restart: above max_memory 1024)');
  expect(plan).toContain('vcpu 1 → 2 (restart: type = "qemu")');
  expect(plan).toContain('network_interface[0].link_state down → up (live)');
  // The pending instance-id is already applied (step 4): this restart is no re-provision of its own.
  expect(domain).toEqual({
    change_impact: 'restart',
    change_impacts: {
      memory: 'restart: above max_memory 1024',
      max_memory: 'restart',
      vcpu: 'restart: type = "qemu"',
      'network_interface[0].link_state': 'live',
    },
    reprovision_action: 'none',
  });
  const uuid = domainUuid(NAME);
  const t0 = Date.now();
  const applied = timedApply();
  expect(applied.out).toMatch(/Domain vstest-day2-live-vm was restarted/);
  // The log holds the new boot only (libvirt truncates it at every start): at apply end cloud-init had finished there,
  // after the runcmd of the pending instance-id.
  expect(readConsole(LOG)).toMatch(new RegExp(`VSTEST-NEXT ${IID2}[\\s\\S]*Cloud-init v\\. \\S+ finished at`));
  // The state loop starts at the end of the boot, after cloud-init's growpart and resizefs: still, wait for the grown root.
  const after = await stateWhere(
    t0,
    (s) => s.boot !== boot0.boot && s.cpus === 2 && s.rootBytes > before.rootBytes + 0.5 * GiB,
    'a new boot with 2 CPUs and the root file system grown',
    1_500_000,
  );
  expect(after.memKiB).toBeGreaterThan(before.memKiB + 400 * 1024);
  expect(sizes(after)).toEqual([DATA2, 3 * GiB]);
  // growpart takes the partition to the end of the 3 GiB disk (the image's BIOS boot and EFI partitions come first).
  expect(after.partBytes).toBeGreaterThan(3 * GiB - 200 * MiB);
  expect(after.carrier.eth1).toBeDefined();
  expect(after.carrier.eth0).toBe('1');
  // A clean restart: the old boot powered off, then a new kernel booted the pending instance-id; the same domain.
  const text = capture
    .since(t0)
    .map((l) => l.text)
    .join('\n');
  const powerOff = text.search(CLEAN_POWEROFF);
  expect(powerOff).toBeGreaterThanOrEqual(0);
  expect(text.search(BANNER)).toBeGreaterThan(powerOff);
  expect(NEXT_MARKER.exec(text.slice(text.search(BANNER)))?.[1]).toBe(IID2);
  expect(domainUuid(NAME)).toBe(uuid);
  const info = virshRun('dominfo', NAME);
  expect(info).toMatch(/CPU\(s\):\s+2/);
  expect(info).toMatch(/Max memory:\s+1572864 KiB/);
  expect(info).toMatch(/State:\s+running/);
  console.log(
    `restart: apply ${applied.seconds.toFixed(1)} s (live memory change: ${liveSeconds.toFixed(1)} s); root partition ${before.partBytes} → ${after.partBytes} bytes, root fs ${before.rootBytes} → ${after.rootBytes} bytes; boot id ${boot0.boot} → ${after.boot}`,
  );
  const again = tf.plan();
  if (again.code !== 0) throw new Error(`the plan after the restart is not empty (exit ${again.code}):\n${again.out}`);
});
