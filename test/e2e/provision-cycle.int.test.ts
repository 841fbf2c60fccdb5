/**
 * One real BIOS guest (NoCloud seed, an isolated libvirt network: no forward mode) through real Terraform, carried
 * through its provisioning life and its day-2 changes (issue 20) in sequence. Two boots, each one a boot under test
 * (direct kernel boot: the firmware path is not under test here; SeaBIOS → GRUB i386-pc is proved by
 * test/e2e/snapshot-before.int.test.ts's BIOS guest, OVMF → GRUB x86_64-efi by its UEFI guest):
 *   1. created: the apply returns only after cloud-init's "finished" line of this boot is on the console (after the
 *      runcmd marker, on this instance-id); the guest prints one CPU, its 2 GiB root disk and a carrier on eth0;
 *   (a) user-data edited with a fixed instance_id: the seed is updated in place, the guest is not rebooted;
 *   (b) instance_id changed under reprovision = "reboot": the plan says the guest is re-provisioned by reboot, from
 *      which instance-id to which (planned only: the restart that carries it out is the one of step 2, the same
 *      stop, start and wait of the apply, and a re-provision by reboot that boots a real guest is snapshot-before's);
 *   (c) a re-provision whose runcmd fails, on a second domain with no OS (test/helpers/console-printer.ts: its first
 *      boot prints cloud-init's "finished" line, every later boot the runcmd's marker and cloud-init's scripts-user
 *      failure as the test image's cloud-init prints them, and no "finished" line): the apply fails at the failure line
 *      with a diagnostic naming cloud-init's module and message, the domain stays in state (the next plan is empty).
 *      What is under test is how the provider reads and reports the line on a re-provision, not cloud-init: that a
 *      real cloud-init's failing module ends the wait is snapshot-before's BIOS guest (its failing bootcmd), and the
 *      real guest's runcmd failure lines are test/guest/provisioning.test.ts's;
 *   then, on the running guest of boot 1, the day-2 changes (no boot of their own):
 *   (d) memory 512 → 1024 MiB within max_memory 1024: the plan says live, the guest's MemTotal grows, same boot id;
 *   (e) two new virtio disks, a new NIC, NIC 0's link down, the root volume 2 → 3 GiB: all live, the guest sees each
 *      (the disk grows under the running guest; its partition and file system stay as they were), same boot id;
 *   (f) the first of the two new disks removed (the middle disk of three): the plan says only that disk is removed,
 *      live; the guest loses it and keeps the other, same boot id;
 *   (g) a new instance-id under reprovision = "next-boot": the plan says next-boot, the running guest is left alone
 *      (same boot id, no kernel banner, no runcmd of the new instance, same domain id);
 *   2. memory above max_memory, and vcpu 1 → 2 (within max_vcpu, but TCG cannot hot-plug a vCPU: docs/FACTS.md),
 *      with NIC 0's link up again: the plan says restart and why beforehand, the guest restarts cleanly (power-off
 *      line, then a new boot id and a new domain id; same UUID) with 2 CPUs and a carrier on eth0, cloud-init's
 *      growpart/resizefs grow the root partition and file system to the grown disk, and this boot is the pending
 *      instance-id's: cloud-init runs again on the same disk (the runcmd prints the file boot 1 wrote) and prints the
 *      new instance-id before its "finished" line, which the apply waited for (only this boot's: the line of boot 1
 *      on the same console never counted).
 * After every apply a plan shows no changes. Apply times of the create, the live memory change and the restart are
 * printed.
 *
 * The guest's bootcmd prints its boot id once per boot, and a per-boot script (cloud-init's final stage, before the
 * runcmd) starts a loop printing its state every 3 s: boot id, MemTotal, online CPUs, disk sizes (sysfs), the root
 * partition's size, the root file system's size (statfs), each NIC's carrier. The boot id is the truth for "not
 * rebooted". "Before apply returned" is checked on the console log file itself, read the moment terraform exits
 * (QEMU writes the log before the pty data reaches libvirt's stream; the log is appended to at every domain start,
 * `append='on'`, so what is matched there is what only the boot under test prints). A timestamping `tail -F` child
 * (ConsoleCapture) follows the log and tells when cloud-init's own "finished" line appeared relative to the apply
 * (within its 0.1 s poll).
 * A plan a step checks is saved and applied as is (no second plan inside the apply).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findChange, plannedChange, TfWorkdir } from '../helpers/terraform';
import { ConsoleCapture, StampedLine } from '../helpers/console-capture';
import { CLOUD_INIT_LINES, printerBootMarked, printerVolumeHcl, writePrinterImage } from '../helpers/console-printer';
import {
  CLOUD_INIT_FINISHED,
  cleanupByPrefix,
  domainUuid,
  kernelBootHcl,
  readConsole,
  testImage,
  TestImage,
  virshRun,
} from '../helpers/guest';
import { cleanupNetworksByPrefix, isolatedNetworkHcl } from '../helpers/network';
import { expectPlanEmpty } from '../helpers/steps';
import { teardown } from '../helpers/teardown';

jest.setTimeout(2_400_000);

const PREFIX = 'vstest-cycle-';
const NAME = `${PREFIX}vm`;
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;
/** The domain with no OS whose re-provision fails (c). */
const PRINTER = `${PREFIX}printer`;
const PRINTER_LOG = `/var/log/libvirt/qemu/${PRINTER}-console.log`;
/** The printer's wait bounds silence only: it prints within a second of each start, then nothing. */
const PRINTER_WAIT_TIMEOUT_S = 30;
/** The test image's cloud-init (22.4) when a runcmd exits non-zero, as test/guest/provisioning.test.ts has it from a
 *  real guest (its time stamps shortened to fit the boot sector). */
const RUNCMD_FAILED_LINE =
  '[   44.2] cloud-init[402]: 2026-11-23 01:00:33,101 - cc_scripts_user.py[WARNING]: Failed to run module scripts-user (scripts in /var/lib/cloud/instance/scripts)\r\n';
/** A boot id, from the bootcmd's line or a state line. */
const BOOTID = /(?:BOOTID |STATE boot=)([0-9a-f-]{36})/g;
const BANNER = /Linux version \d/;
const CLEAN_POWEROFF = /reboot: Power down/;
/** Under TCG on a loaded host a boot has taken 4–5 minutes; a stuck boot still fails the apply within this. */
const WAIT_TIMEOUT_S = 900;
const APPLY_TIMEOUT_MS = 1_200_000;
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
/** The two data disks' sizes: the guest tells them apart by size (its device names follow probe order). */
const DATA1 = 64 * MiB;
const DATA2 = 96 * MiB;

let img: TestImage;
let tf: TfWorkdir;
/** The printer's disk image (in the workdir), uploaded into its volume. */
let printerFile: string;
let capture: ConsoleCapture;

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

/**
 * The loop the guest runs, in bash (no `${` or `%{`: the text goes through HCL). It reads /proc and /sys with the
 * shell's own `read` and arithmetic, and starts no process in a round but when the root partition's size changed
 * (stat, for the root file system's size: at the loop's first round, and after a grown partition); it waits with
 * `read -t 3` on a pipe nobody writes to instead of sleep. Under TCG each process costs the guest's one CPU about
 * 0.1 host CPU s: reading through cat, awk, grep, lsblk, df and subshells (about twenty a round) kept a third of a
 * host core busy while the guest waited between steps; stat and sleep in every round kept 5–7 %, this loop 1.7 %,
 * and a guest left alone costs 1 % (docs/performance.md, "Idle guests under TCG"). Sizes are bytes (/sys's sizes
 * are 512-byte sectors; the root file system's is its block count × fundamental block size, as df computes it). It
 * sets each NIC up that is down (the seed configures none: no DHCP wait in the boot; a hot-added NIC comes up down)
 * and reads its carrier (readable only while the NIC is up; `x` else).
 */
const LOOP = [
  'exec 9<> <(:);',
  'while :; do',
  ' read b < /proc/sys/kernel/random/boot_id;',
  ' while read k v u; do [ "$k" = MemTotal: ] && m=$v && break; done < /proc/meminfo;',
  ' c=0; while read k u; do [ "$k" = processor ] && c=$((c+1)); done < /proc/cpuinfo;',
  ' cd /sys/block; d=; for i in vd*; do read s < $i/size; d="$d$i:$((s*512)),"; done;',
  ' read p < /sys/block/vda/vda1/size; p=$((p*512));',
  ' [ "$p" = "$q" ] || { set -- $(stat -f -c "%b %S" /); r=$(($1*$2)); q=$p; };',
  ' cd /sys/class/net; n=; for i in eth*; do read f < $i/flags;',
  ' case $f in *[13579bdf]) ;; *) ip link set dev $i up;; esac;',
  ' read k < $i/carrier 2>/dev/null || k=x; n="$n$i:$k,"; done;',
  ' echo "STATE boot=$b mem=$m cpus=$c disks=$d part=$p root=$r nics=$n" > /dev/ttyS0;',
  ' read -t 3 -u 9;',
  'done',
].join('');

/** bootcmd runs at every boot (cloud-init's first stages): the boot id, once. */
const BOOTCMD = ['echo "BOOTID $(cat /proc/sys/kernel/random/boot_id)" > /dev/ttyS0'];

/** The guest prints the instance-id cloud-init is on, from its runcmd. */
const PRINT_IID = 'echo "VSTEST-IID $(cat /var/lib/cloud/data/instance-id)" > /dev/ttyS0';

/**
 * The cloud-config with `runcmd`: the boot id line, the state loop and the CPU rule. The loop starts from a per-boot
 * script (cloud-init's final stage, at every boot, before the runcmd), not from bootcmd: its reads every 3 s would
 * compete with the boot itself for the TCG guest's one CPU.
 */
function cloudConfig(runcmd: string[]): string {
  return JSON.stringify({
    bootcmd: BOOTCMD,
    write_files: [
      {
        path: '/var/lib/cloud/scripts/per-boot/vstest-state.sh',
        permissions: '0755',
        content: `#!/bin/sh\nsystemd-run --no-block --unit=vstest-state bash -c '${LOOP.replace(/'/g, "'\\''")}'\n`,
      },
      // Hot-added CPUs come up offline in Debian's kernel; this rule onlines them (as cloud images' own rules do).
      {
        path: '/etc/udev/rules.d/80-vstest-cpu-online.rules',
        content: 'SUBSYSTEM=="cpu", ACTION=="add", TEST=="online", ATTR{online}=="0", ATTR{online}="1"\n',
      },
    ],
    runcmd,
  });
}

interface Step {
  iid: string;
  runcmd: string[];
  memory: number;
  maxMemory: number;
  vcpu: number;
  maxVcpu: number;
  rootBytes: number;
  /** The data volumes attached, in this order. */
  data: ('data1' | 'data2')[];
  secondNic: boolean;
  link0: 'up' | 'down';
  /** reprovision = "next-boot" (else the default, "reboot"). */
  nextBoot?: boolean;
  /** The instance-id of the printer domain's seed (c). */
  printerIid: string;
}

function config(s: Step): string {
  return `
${isolatedNetworkHcl('net', `${PREFIX}net`)}
resource "virtseed_volume" "base" {
  pool   = "default"
  name   = "${PREFIX}base.qcow2"
  source = "${img.image}"
}
resource "virtseed_volume" "root" {
  pool           = "default"
  name           = "${PREFIX}root.qcow2"
  backing_volume = virtseed_volume.base.id
  capacity       = ${s.rootBytes}
}
resource "virtseed_volume" "data1" {
  pool     = "default"
  name     = "${PREFIX}data1.raw"
  format   = "raw"
  capacity = ${DATA1}
}
resource "virtseed_volume" "data2" {
  pool     = "default"
  name     = "${PREFIX}data2.raw"
  format   = "raw"
  capacity = ${DATA2}
}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}seed.iso"
  hostname     = "cycle"
  instance_id  = "${s.iid}"
  cloud_config = ${JSON.stringify(cloudConfig(s.runcmd))}
  # No interface configured: the guest's boot does not wait for DHCP (its NICs' carriers are what is observed).
  network_config = "version: 2\\nethernets: {}\\n"
}
${printerVolumeHcl('printer', { pool: 'default', name: `${PREFIX}printer.img`, file: printerFile })}
resource "virtseed_cloudinit_seed" "printer" {
  pool        = "default"
  name        = "${PREFIX}printer-seed.iso"
  hostname    = "cycle-printer"
  instance_id = "${s.printerIid}"
}
resource "virtseed_domain" "printer" {
  name              = "${PRINTER}"
  memory            = 64
  disk { volume_id = virtseed_volume.printer.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.printer.id
  instance_id       = virtseed_cloudinit_seed.printer.instance_id
  wait_for          = "cloud-init"
  wait_timeout      = ${PRINTER_WAIT_TIMEOUT_S}
  # No OS answers the power button: a re-provision powers it off at once.
  shutdown_timeout  = 0
}
resource "virtseed_domain" "vm" {
  name       = "${NAME}"
  firmware   = "bios"
${kernelBootHcl(img)}  memory     = ${s.memory}
  max_memory = ${s.maxMemory}
  vcpu       = ${s.vcpu}
  max_vcpu   = ${s.maxVcpu}
  wait_for   = "cloud-init"
${s.nextBoot ? '  reprovision = "next-boot"\n' : ''}  wait_timeout     = ${WAIT_TIMEOUT_S}
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

const STEP0: Step = {
  iid: 'iid-cycle-1',
  runcmd: [PRINT_IID, 'echo "first $(cat /proc/sys/kernel/random/boot_id)" > /var/lib/vstest-first', 'echo VSTEST-M1 > /dev/ttyS0'],
  memory: 512,
  maxMemory: 1024,
  vcpu: 1,
  maxVcpu: 2,
  rootBytes: 2 * GiB,
  data: [],
  secondNic: false,
  link0: 'up',
  printerIid: 'iid-printer-1',
};
/** (a): new user-data under the same instance-id (boot 1's runcmd has run: this one never runs). */
const STEP_A: Step = { ...STEP0, runcmd: ['echo "VSTEST-M2-NEVER-RUNS" > /dev/ttyS0'] };
/** The runcmd of the second instance-id: it prints what boot 1's runcmd wrote on the root disk, and a marker. */
const RUNCMD_2 = [PRINT_IID, 'echo "FIRST-FILE $(cat /var/lib/vstest-first)" > /dev/ttyS0', 'echo VSTEST-M3 > /dev/ttyS0'];
/** (b), planned only: a new instance-id under the default reprovision = "reboot". */
const STEP_B: Step = { ...STEP_A, iid: 'iid-cycle-2', runcmd: RUNCMD_2 };
/** (c): the printer's new instance-id, whose re-provision fails; the guest's steps keep it. */
const STEP_C: Step = { ...STEP_A, printerIid: 'iid-printer-2' };
/** After (e): two data disks, a second NIC, NIC 0's link down, the root volume grown. */
const STEP_E: Step = { ...STEP_C, memory: 1024, rootBytes: 3 * GiB, data: ['data1', 'data2'], secondNic: true, link0: 'down' };
/** After (f): the 96 MiB disk only. */
const STEP_F: Step = { ...STEP_E, data: ['data2'] };
/** (g): a new instance-id, next boot (the restart of step 2 boots it). */
const STEP_G: Step = { ...STEP_F, iid: 'iid-cycle-2', runcmd: RUNCMD_2, nextBoot: true };

interface Timed {
  readonly code: number;
  readonly out: string;
  readonly startMs: number;
  readonly endMs: number;
  /** The console log file as it was when terraform exited. */
  readonly consoleAtEnd: string;
}

/** `terraform apply` of the written configuration (or of the saved plan), timed, with the console at its end. */
function timedApply(saved = false): Timed {
  const startMs = Date.now();
  const r = tf.run(saved ? ['apply', '-input=false', 'tfplan'] : ['apply', '-auto-approve', '-input=false'], APPLY_TIMEOUT_MS);
  const endMs = Date.now();
  return { ...r, startMs, endMs, consoleAtEnd: readConsole(LOG) };
}

const seconds = (r: Timed) => ((r.endMs - r.startMs) / 1000).toFixed(1);

/** Fails with terraform's output and the console's last lines unless the apply succeeded. */
function expectApplied(r: Timed, label: string): void {
  if (r.code !== 0) throw new Error(`apply (${label}) failed:\n${r.out}\nconsole:\n${consoleTail()}`);
}

function consoleTail(): string {
  return capture
    .lines()
    .slice(-40)
    .map((l) => l.text)
    .join('\n');
}

/** The captured console since `ms`, as one text. */
function textSince(ms: number): string {
  return capture
    .since(ms)
    .map((l) => l.text)
    .join('\n');
}

/** The instance-ids the guest printed (`VSTEST-IID <id>`), in order; found anywhere in a line (the serial console
 *  may interleave it with the guest's other output). */
function printedIids(lines: StampedLine[]): string[] {
  return lines.flatMap((l) => [...l.text.matchAll(/VSTEST-IID (\S+)/g)].map((m) => m[1]));
}

function finishedLines(lines: StampedLine[]): StampedLine[] {
  return lines.filter((l) => CLOUD_INIT_FINISHED.test(l.text));
}

function bootIds(text: string): string[] {
  return [...text.matchAll(BOOTID)].map((m) => m[1]);
}

function domid(): string {
  return virshRun('domid', NAME).trim();
}

/** Reports the wait's overhead: apply start → cloud-init's "finished" line vs apply start → apply end. */
function report(label: string, r: Timed, finished: StampedLine): void {
  console.log(
    `provision-cycle ${label}: apply start → cloud-init finished ${((finished.ms - r.startMs) / 1000).toFixed(1)} s; ` +
      `apply start → apply end ${seconds(r)} s; overhead ${((r.endMs - finished.ms) / 1000).toFixed(2)} s`,
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The tail's poll interval, and a little more. */
const settle = () => sleep(300);

/** The boot id the guest printed last since `ms`, waiting for one (up to a minute). */
async function currentBootId(ms: number): Promise<string> {
  const end = Date.now() + 60_000;
  for (;;) {
    const ids = bootIds(textSince(ms));
    if (ids.length) return ids[ids.length - 1];
    if (Date.now() > end) throw new Error(`no boot id on the console since the apply; console:\n${consoleTail()}`);
    await sleep(300);
  }
}

/** The guest's state lines printed at or after `sinceMs`. */
function statesSince(sinceMs: number): GuestState[] {
  return capture
    .since(sinceMs)
    .map((l) => parseState(l.text))
    .filter((s): s is GuestState => s !== undefined);
}

/** The guest's latest state line printed at or after `sinceMs` that satisfies `ok`; fails after `timeoutMs`. */
async function stateWhere(sinceMs: number, ok: (s: GuestState) => boolean, what: string, timeoutMs = 300_000): Promise<GuestState> {
  const end = Date.now() + timeoutMs;
  let last: GuestState | undefined;
  while (Date.now() < end) {
    const states = statesSince(sinceMs);
    last = states[states.length - 1] ?? last;
    const hit = [...states].reverse().find(ok);
    if (hit) return hit;
    await sleep(500);
  }
  throw new Error(`the guest never showed ${what}; its last state: ${JSON.stringify(last)}\nconsole:\n${consoleTail()}`);
}

/** Waits until the guest printed `n` state lines at or after `sinceMs` (at most a minute). */
async function stateLines(sinceMs: number, n: number): Promise<void> {
  const end = Date.now() + 60_000;
  while (statesSince(sinceMs).length < n) {
    if (Date.now() > end) throw new Error(`the guest printed fewer than ${n} state lines in a minute; console:\n${consoleTail()}`);
    await sleep(500);
  }
}

/** One saved plan of the written configuration (`terraform plan -out`, applied by timedApply(true)): its output with
 *  every run of white space as one space (Terraform wraps warning text), and the domain's planned change_impact and
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

/** The guest's disk sizes, smallest first (its device names follow probe order, not libvirt's targets). */
const sizes = (s: GuestState) => Object.values(s.disks).sort((a, b) => a - b);

beforeAll(() => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  cleanupNetworksByPrefix(PREFIX);
  fs.rmSync(LOG, { force: true });
  capture = new ConsoleCapture(LOG);
  tf = new TfWorkdir('provision-cycle');
  printerFile = writePrinterImage(path.join(tf.dir, 'printer.img'), {
    first: CLOUD_INIT_LINES.finished(),
    later: `VSTEST-M4\r\n${RUNCMD_FAILED_LINE}`,
  });
  tf.write(config(STEP0));
  tf.init();
});

afterAll(() =>
  teardown({
    tf,
    prefix: PREFIX,
    destroy: true,
    also: () => {
      capture?.dispose();
      cleanupNetworksByPrefix(PREFIX);
    },
  }),
);

/** The first boot's id (printed by its runcmd into a file on the root disk). */
let bootId: string;
let lastDomid: string;
let uuid: string;
let created: Timed;
/** The state of the boot the day-2 steps run on (boot 1, the create's). */
let liveBoot: GuestState;
let liveSeconds = 0;

test('GIVEN wait_for = "cloud-init" WHEN a new guest is applied THEN apply returns after cloud-init\'s finished line of this boot, and the marker is on the console', async () => {
  created = timedApply();
  expectApplied(created, 'create');
  expect(created.consoleAtEnd).toMatch(/VSTEST-M1[\s\S]*Cloud-init v\. \S+ finished at .*Datasource DataSourceNoCloud/);
  await settle();
  const lines = capture.since(created.startMs);
  const fin = finishedLines(lines);
  expect(fin).toHaveLength(1);
  const marker = lines.find((l) => l.text.includes('VSTEST-M1'));
  expect(marker?.ms).toBeLessThanOrEqual(fin[0].ms);
  expect(printedIids(lines)).toEqual(['iid-cycle-1']);
  report('create', created, fin[0]);
  const vm = tf.resource('virtseed_domain.vm');
  expect(vm.wait_for).toBe('cloud-init');
  bootId = await currentBootId(created.startMs);
  // The guest's state: one CPU, the 2 GiB root disk, a carrier on its NIC.
  const first = await stateWhere(created.startMs, (s) => s.boot === bootId && s.carrier.eth0 === '1', 'a carrier on eth0');
  expect(first.cpus).toBe(1);
  expect(first.disks.vda).toBe(2 * GiB);
  expect(first.carrier.eth0).toBe('1');
  liveBoot = first;
  lastDomid = domid();
  uuid = domainUuid(NAME);
  expect(vm.uuid).toBe(uuid);
  expectPlanEmpty(tf);
});

test('GIVEN kernel, initrd and cmdline under firmware = "bios" WHEN the guest was created THEN SeaBIOS booted the host\'s kernel directly (no GRUB, no OVMF), and the printer domain finished its first boot', () => {
  expect(created.consoleAtEnd).toMatch(BANNER);
  expect(created.consoleAtEnd).not.toMatch(/virtseed-image: GRUB|BdsDxe/);
  expect(tf.resource('virtseed_domain.vm')).toMatchObject({ firmware: 'bios', kernel: img.kernel, initrd: img.initrd });
  // The printer's first boot: cloud-init's "finished" line, on which its wait ended; its disk is marked as booted.
  expect(readConsole(PRINTER_LOG)).toMatch(CLOUD_INIT_FINISHED);
  expect(readConsole(PRINTER_LOG)).not.toMatch(/VSTEST-M4/);
  expect(printerBootMarked(tf.resource('virtseed_volume.printer').id as string)).toBe(true);
  expect(tf.resource('virtseed_domain.printer').instance_id).toBe('iid-printer-1');
});

test('(a) GIVEN a fixed instance_id WHEN user-data changes THEN the seed is updated in place and the guest is not rebooted', async () => {
  tf.write(config(STEP_A));
  const plan = tf.planSaved().json;
  expect(plannedChange(plan, 'virtseed_cloudinit_seed.seed').actions).toEqual(['update']);
  expect(findChange(plan, 'virtseed_domain.vm')?.actions ?? ['no-op']).toEqual(['no-op']);
  const seedPathBefore = tf.resource('virtseed_cloudinit_seed.seed').path;
  const t0 = Date.now();
  expectApplied(timedApply(true), 'user-data in place');
  expect(tf.resource('virtseed_cloudinit_seed.seed').path).toBe(seedPathBefore);
  // Two state periods after the apply returned.
  await stateLines(Date.now(), 2);
  const after = textSince(t0);
  expect(new Set(bootIds(after))).toEqual(new Set([bootId]));
  expect(after).not.toMatch(BANNER);
  expect(after).not.toMatch(/VSTEST-M2/);
  expect(domid()).toBe(lastDomid);
  expectPlanEmpty(tf);
});

test('(b) GIVEN reprovision = "reboot" WHEN instance_id changes THEN the plan says the guest is re-provisioned by reboot, from the old instance-id to the new', () => {
  tf.write(config(STEP_B));
  const saved = tf.planSaved();
  expect(saved.out).toMatch(/Warning: Guest vstest-cycle-vm will be re-provisioned \(reboot\)/);
  expect(saved.out).toContain('iid-cycle-1 → iid-cycle-2');
  const dom = plannedChange(saved.json, 'virtseed_domain.vm');
  expect(dom.actions).toEqual(['update']);
  expect(dom.after?.reprovision_action).toBe('reboot');
  expect(dom.after?.previous_instance_id).toBe('iid-cycle-1');
  expect(dom.after?.instance_id).toBe('iid-cycle-2');
  expect(dom.after?.change_impact).toBe('restart');
  // Planned only: the restart of step 2 carries out the same stop, start and wait (it boots the next-boot
  // instance-id of (g)); the guest is as it was.
  expect(domid()).toBe(lastDomid);
});

test('(c) GIVEN a re-provision whose runcmd fails (a guest with no OS printing cloud-init\'s lines) WHEN applied with wait_for = "cloud-init" THEN apply fails with cloud-init\'s module and message at that line, and the domain stays in state', () => {
  tf.write(config(STEP_C));
  const r = tf.run(['apply', '-auto-approve', '-input=false'], APPLY_TIMEOUT_MS);
  const printed = readConsole(PRINTER_LOG);
  expect({ code: r.code, out: r.code === 1 ? '' : r.out }).toEqual({ code: 1, out: '' });
  expect(r.out).toMatch(/Error: cloud-init module scripts-user failed on vstest-cycle-printer/);
  expect(r.out).toMatch(/Failed to run module scripts-user/);
  // The wait ended at the failure line: the printer prints no "finished" line, and the wait did not run into its
  // silence bound.
  expect(r.out).not.toMatch(/gave up/);
  // The re-provision rebooted it: a later boot of its disk printed the runcmd's marker, then the failure line, and no
  // "finished" line after them (the first boot's is before them in the log).
  const later = printed.slice(printed.indexOf('VSTEST-M4'));
  expect(later).toMatch(/^VSTEST-M4[\s\S]*Failed to run module scripts-user/);
  expect(later).not.toMatch(CLOUD_INIT_FINISHED);
  expect(tf.resource('virtseed_domain.printer').instance_id).toBe('iid-printer-2');
  // The domain is in state and up to date: nothing left to do until the seed changes.
  expectPlanEmpty(tf);
  // The guest was not touched.
  expect(domid()).toBe(lastDomid);
});

test('(d) GIVEN memory within max_memory WHEN planned and applied THEN the plan says live and the guest has more memory, same boot id', async () => {
  tf.write(config({ ...STEP_C, memory: 1024 }));
  const plan = planStep();
  expect(plan.text).toMatch(/Domain vstest-cycle-vm changes live \(no restart\)/);
  expect(plan.text).toContain('memory 512 → 1024 MiB (live: within max_memory 1024)');
  expect(plan.domain).toEqual({ change_impact: 'live', change_impacts: { memory: 'live: within max_memory 1024' } });
  const r = timedApply(true);
  expectApplied(r, 'live memory');
  liveSeconds = (r.endMs - r.startMs) / 1000;
  const after = await stateWhere(r.startMs, (s) => s.memKiB > liveBoot.memKiB + 400 * 1024, 'MemTotal grown by ~512 MiB');
  expect(after.boot).toBe(liveBoot.boot);
  console.log(`live memory change: apply ${seconds(r)} s; MemTotal ${liveBoot.memKiB} → ${after.memKiB} kB, boot id ${after.boot}`);
});

test('(e) GIVEN two disks, a NIC, a link state and a larger root volume WHEN applied THEN each is live and the guest sees it, same boot id', async () => {
  tf.write(config(STEP_E));
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
  const r = timedApply(true);
  expectApplied(r, 'live devices');
  const after = await stateWhere(
    r.startMs,
    (s) =>
      sizes(s).join() === [DATA1, DATA2, 3 * GiB].join() &&
      s.disks.vda === 3 * GiB &&
      s.carrier.eth1 !== undefined &&
      s.carrier.eth0 === '0',
    'disks of 64 MiB and 96 MiB, vda of 3 GiB, eth1, and no carrier on eth0',
  );
  expect(after.boot).toBe(liveBoot.boot);
  // The disk grew under the running guest; its partition and file system are the guest's and grow at the next boot.
  expect(after.partBytes).toBeLessThan(2 * GiB);
  console.log(`live devices: apply ${seconds(r)} s; ${JSON.stringify(after)}`);
});

test('(f) GIVEN three disks WHEN the middle one is removed THEN the plan removes only that one, live, and the guest keeps the others, same boot id', async () => {
  tf.write(config(STEP_F));
  const { text: plan, domain } = planStep();
  expect(domain).toEqual({ change_impact: 'live', change_impacts: { 'disk[1]': 'live: bus = "virtio"' } });
  expect(plan).toContain('vstest-cycle-vm: disk[1] (target vdb) removed (live: bus = "virtio")');
  const r = timedApply(true);
  expectApplied(r, 'live detach');
  const after = await stateWhere(r.startMs, (s) => sizes(s).join() === [DATA2, 3 * GiB].join(), 'only the 96 MiB data disk and vda');
  expect(after.boot).toBe(liveBoot.boot);
  console.log(`live detach of the middle disk: apply ${seconds(r)} s; ${JSON.stringify(after)}`);
});

test('(g) GIVEN reprovision = "next-boot" WHEN the instance-id changes THEN the plan says next-boot and the running guest is left alone', async () => {
  tf.write(config(STEP_G));
  const dom = plannedChange(tf.planSaved().json, 'virtseed_domain.vm');
  expect(dom.actions).toEqual(['update']);
  expect([dom.after?.reprovision_action, dom.after?.previous_instance_id, dom.after?.instance_id]).toEqual([
    'next-boot',
    'iid-cycle-1',
    'iid-cycle-2',
  ]);
  const before = domid();
  const r = timedApply(true);
  expectApplied(r, 'next-boot');
  // Three state periods after the apply returned (the loop prints every 3 s).
  await stateLines(Date.now(), 3);
  const states = statesSince(r.startMs);
  expect(new Set(states.map((st) => st.boot))).toEqual(new Set([liveBoot.boot]));
  const text = textSince(r.startMs);
  expect(text).not.toMatch(BANNER);
  expect(printedIids(capture.since(r.startMs))).toEqual([]);
  expect(domid()).toBe(before);
  expectPlanEmpty(tf);
});

test('GIVEN memory above max_memory and a vCPU under TCG WHEN planned THEN the plan says restart and why; WHEN applied THEN the guest restarts cleanly, cloud-init runs again on the same disk for the pending instance-id, apply returns after its finished line, and the root partition and file system grew', async () => {
  const before = await stateWhere(0, () => true, 'a state');
  // NIC 0's link goes up with the restart.
  tf.write(config({ ...STEP_G, memory: 1536, maxMemory: 1536, vcpu: 2, link0: 'up' }));
  const { text: plan, domain } = planStep(true);
  expect(plan).toMatch(/Domain vstest-cycle-vm restarts/);
  expect(plan).toContain('memory 1024 → 1536 MiB (restart: above max_memory 1024)');
  expect(plan).toContain('vcpu 1 → 2 (restart: type = "qemu")');
  expect(plan).toContain('network_interface[0].link_state down → up (live)');
  // The pending instance-id is already applied (g): this restart is no re-provision of its own.
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
  const r = timedApply(true);
  expectApplied(r, 'restart');
  expect(r.out).toMatch(/Domain vstest-cycle-vm was restarted/);
  // At apply end cloud-init had finished after the runcmd of the pending instance-id (printed by this boot only).
  expect(r.consoleAtEnd).toMatch(/VSTEST-IID iid-cycle-2[\s\S]*VSTEST-M3[\s\S]*Cloud-init v\. \S+ finished at/);
  await settle();
  const lines = capture.since(r.startMs);
  const fin = finishedLines(lines);
  // Only the new boot's line: boot 1's "finished" line (before this apply, on the same console) never counted.
  expect(fin).toHaveLength(1);
  report('restart (pending instance-id)', r, fin[0]);
  // The state loop starts at the end of the boot (before the runcmd the apply waited for), after cloud-init's growpart
  // and resizefs: still, wait for the grown root.
  const after = await stateWhere(
    r.startMs,
    (s) => s.boot !== liveBoot.boot && s.cpus === 2 && s.rootBytes > before.rootBytes + 0.5 * GiB && s.carrier.eth0 === '1',
    'a new boot with 2 CPUs, the root file system grown and a carrier on eth0',
  );
  expect(after.memKiB).toBeGreaterThan(before.memKiB + 400 * 1024);
  expect(sizes(after)).toEqual([DATA2, 3 * GiB]);
  // growpart takes the partition to the end of the 3 GiB disk (the image's BIOS boot and EFI partitions come first).
  expect(after.partBytes).toBeGreaterThan(3 * GiB - 200 * MiB);
  expect(after.carrier.eth1).toBeDefined();
  expect(after.carrier.eth0).toBe('1');
  // A clean restart: the old boot powered off, then a new kernel booted the pending instance-id; the same domain
  // (UUID), a new QEMU (domain id).
  const text = textSince(r.startMs);
  const powerOff = text.search(CLEAN_POWEROFF);
  expect(powerOff).toBeGreaterThanOrEqual(0);
  expect(text.search(BANNER)).toBeGreaterThan(powerOff);
  expect(printedIids(capture.since(r.startMs))).toEqual(['iid-cycle-2']);
  expect(text.search(/VSTEST-IID iid-cycle-2/)).toBeGreaterThan(text.search(BANNER));
  // cloud-init ran again on the same disk: the file boot 1's runcmd wrote is there.
  expect(text).toMatch(new RegExp(`FIRST-FILE first ${bootId}`));
  const newIds = new Set(bootIds(text.slice(text.search(BANNER))));
  expect(newIds).toEqual(new Set([after.boot]));
  expect(newIds.has(bootId)).toBe(false);
  expect(domainUuid(NAME)).toBe(uuid);
  expect(domid()).not.toBe(lastDomid);
  expect(tf.resource('virtseed_domain.vm').instance_id).toBe('iid-cycle-2');
  const info = virshRun('dominfo', NAME);
  expect(info).toMatch(/CPU\(s\):\s+2/);
  expect(info).toMatch(/Max memory:\s+1572864 KiB/);
  expect(info).toMatch(/State:\s+running/);
  console.log(
    `restart: apply ${seconds(r)} s (live memory change: ${liveSeconds.toFixed(1)} s); root partition ${before.partBytes} → ${after.partBytes} bytes, root fs ${before.rootBytes} → ${after.rootBytes} bytes; boot id ${liveBoot.boot} → ${after.boot}`,
  );
  expectPlanEmpty(tf);
});
