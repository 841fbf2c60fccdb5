/**
 * One real BIOS guest (NoCloud seed, QEMU user networking with restrict=on, `wait_for = "cloud-init"`) through real
 * Terraform, carried through a guest's provisioning life in sequence — three boots, each one a boot under test:
 *   1. created: it boots through the image's own GRUB (i386-pc, SeaBIOS: no OVMF), and the apply returns only after
 *      cloud-init's "finished" line of this boot is on the console (after the runcmd marker, on this instance-id);
 *   (a) user-data edited with a fixed instance_id: the seed is updated in place, the guest is not rebooted;
 *   2. instance_id changed, reprovision = "reboot": the plan says so, the guest restarts cleanly, cloud-init runs
 *      again on the same disk, and the apply returns after cloud-init finished on the NEW instance-id;
 *   3. a re-provision whose runcmd fails: the apply fails at cloud-init's failure line with a diagnostic naming
 *      cloud-init's module and message (cloud-init goes on and finishes afterwards), the domain stays in state (the
 *      next plan is empty).
 * After every apply a second plan shows no changes. The next-boot policy (nothing happens to the running guest, and
 * the pending instance-id is seen at the next restart: same UUID, clean power-off) rides on the restart that
 * test/e2e/day2-live.int.test.ts makes anyway (a fourth boot saved here).
 *
 * The guest's bootcmd starts a transient unit printing its boot id to the console every 2 s: the truth for "not
 * rebooted". "Before apply returned" is checked on the console log file itself, read the moment terraform exits
 * (QEMU writes the log before the pty data reaches libvirt's stream; libvirt truncates the log at every domain
 * start, so it holds this boot only). A timestamping `tail -F` child (ConsoleCapture) follows the log through the
 * truncations and tells when cloud-init's own "finished" line appeared relative to the apply (within its 0.1 s poll).
 * A plan a step checks is saved and applied as is (no second plan inside the apply).
 * The UEFI, direct-kernel and ConfigDrive boots are test/e2e/firmware-boot.int.test.ts.
 */
import { findChange, plannedChange, TfWorkdir } from '../helpers/terraform';
import { ConsoleCapture, StampedLine } from '../helpers/console-capture';
import {
  CLOUD_INIT_FINISHED,
  cleanupByPrefix,
  domainUuid,
  imageVolumesHcl,
  readConsole,
  testImage,
  TestImage,
  virshRun,
} from '../helpers/guest';
import { expectPlanEmpty } from '../helpers/steps';
import { teardown } from '../helpers/teardown';

jest.setTimeout(1_800_000);

const PREFIX = 'vstest-cycle-';
const NAME = `${PREFIX}vm`;
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;
const BOOTID = /BOOTID ([0-9a-f-]{36})/g;
const BANNER = /Linux version \d/;
const CLEAN_POWEROFF = /reboot: Power down/;
/** Under TCG on a loaded host a boot has taken 4–5 minutes; a stuck boot still fails the apply within this. */
const WAIT_TIMEOUT_S = 900;
const APPLY_TIMEOUT_MS = 1_200_000;

let img: TestImage;
let tf: TfWorkdir;
let capture: ConsoleCapture;

interface Step {
  iid: string;
  runcmd: string[];
}

/** bootcmd runs at every boot: a transient systemd unit prints the boot id to the console every 2 s. --no-block and
 *  DefaultDependencies=no: cloud-init.service runs before sysinit.target, which a default transient unit waits for. */
const BOOTCMD = [
  'systemd-run --no-block -p DefaultDependencies=no --unit=vstest-bootid sh -c \'while :; do echo "BOOTID $(cat /proc/sys/kernel/random/boot_id)" > /dev/ttyS0; sleep 2; done\'',
];

/** The guest prints the instance-id cloud-init is on, from its runcmd. */
const PRINT_IID = 'echo "VSTEST-IID $(cat /var/lib/cloud/data/instance-id)" > /dev/ttyS0';

function config(s: Step): string {
  const cloudConfig = JSON.stringify({ bootcmd: BOOTCMD, runcmd: s.runcmd });
  return `
${imageVolumesHcl(img, `${PREFIX}base.qcow2`, { root: `${PREFIX}root.qcow2` })}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}seed.iso"
  hostname     = "cycle"
  instance_id  = "${s.iid}"
  cloud_config = ${JSON.stringify(cloudConfig)}
}
resource "virtseed_domain" "vm" {
  name     = "${NAME}"
  memory   = 512
  firmware = "bios"
  shutdown_timeout = 90
  wait_for         = "cloud-init"
  wait_timeout     = ${WAIT_TIMEOUT_S}
  disk { volume_id = virtseed_volume.root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  network_interface { user = true }
}
`;
}

interface Timed {
  readonly code: number;
  readonly out: string;
  readonly startMs: number;
  readonly endMs: number;
  /** The console log file as it was when terraform exited. */
  readonly consoleAtEnd: string;
}

/** `terraform apply` of the written configuration (or of a saved plan), timed, with the console at its end. */
function timedApply(saved = false): Timed {
  const startMs = Date.now();
  const r = tf.run(saved ? ['apply', '-input=false', 'tfplan'] : ['apply', '-auto-approve', '-input=false'], APPLY_TIMEOUT_MS);
  const endMs = Date.now();
  return { ...r, startMs, endMs, consoleAtEnd: readConsole(LOG) };
}

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
      `apply start → apply end ${((r.endMs - r.startMs) / 1000).toFixed(1)} s; overhead ${((r.endMs - finished.ms) / 1000).toFixed(2)} s`,
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The tail's poll interval, and a little more. */
const settle = () => sleep(300);

/** The boot ids the guest printed since `ms`, once it printed `n` (waiting up to a minute). */
async function bootIdsSince(ms: number, n: number): Promise<string[]> {
  const end = Date.now() + 60_000;
  for (;;) {
    const ids = bootIds(textSince(ms));
    if (ids.length >= n) return ids;
    if (Date.now() > end) throw new Error(`fewer than ${n} BOOTID lines on the console since the apply; console:\n${consoleTail()}`);
    await sleep(300);
  }
}

/** The boot id the guest prints now: the last one captured since `ms`, waiting for one (up to a minute). */
async function currentBootId(ms: number): Promise<string> {
  const ids = await bootIdsSince(ms, 1);
  return ids[ids.length - 1];
}

/** Waits (at most 120 s) for cloud-init's "finished" line on the console since `ms`; throws with the console's tail. */
async function finishedSince(ms: number): Promise<void> {
  const end = Date.now() + 120_000;
  while (!/Cloud-init v\. \S+ finished at/.test(textSince(ms))) {
    if (Date.now() > end) throw new Error(`no cloud-init "finished" line on the console since the apply; console:\n${consoleTail()}`);
    await sleep(1000);
  }
}

beforeAll(() => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  capture = new ConsoleCapture(LOG);
  tf = new TfWorkdir('provision-cycle');
  tf.write(
    config({
      iid: 'iid-cycle-1',
      runcmd: [PRINT_IID, 'echo "first $(cat /proc/sys/kernel/random/boot_id)" > /var/lib/vstest-first', 'echo VSTEST-M1 > /dev/ttyS0'],
    }),
  );
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true, also: () => capture?.dispose() }));

let bootId: string;
let lastDomid: string;
let uuid: string;
let created: Timed;

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
  lastDomid = domid();
  uuid = domainUuid(NAME);
  expect(vm.uuid).toBe(uuid);
  expectPlanEmpty(tf);
});

test('GIVEN the test image and firmware = "bios" WHEN the guest was created THEN it booted through its own GRUB (i386-pc), not OVMF', () => {
  expect(created.consoleAtEnd).toMatch(/virtseed-image: GRUB \(pc\) loading \/boot\/vmlinuz-/);
  expect(created.consoleAtEnd).not.toMatch(/BdsDxe|GRUB \(efi\)/);
  expect(tf.resource('virtseed_domain.vm')).toMatchObject({ firmware: 'bios' });
});

test('(a) GIVEN a fixed instance_id WHEN user-data changes THEN the seed is updated in place and the guest is not rebooted', async () => {
  tf.write(config({ iid: 'iid-cycle-1', runcmd: ['echo "VSTEST-M2-NEVER-RUNS" > /dev/ttyS0'] }));
  const plan = tf.planSaved().json;
  expect(plannedChange(plan, 'virtseed_cloudinit_seed.seed').actions).toEqual(['update']);
  expect(findChange(plan, 'virtseed_domain.vm')?.actions ?? ['no-op']).toEqual(['no-op']);
  const seedPathBefore = tf.resource('virtseed_cloudinit_seed.seed').path;
  const t0 = Date.now();
  tf.ok(['apply', '-input=false', 'tfplan']);
  expect(tf.resource('virtseed_cloudinit_seed.seed').path).toBe(seedPathBefore);
  // Two BOOTID periods after the apply returned.
  await bootIdsSince(Date.now(), 2);
  const after = textSince(t0);
  expect(new Set(bootIds(after))).toEqual(new Set([bootId]));
  expect(after).not.toMatch(BANNER);
  expect(after).not.toMatch(/VSTEST-M2/);
  expect(domid()).toBe(lastDomid);
  expectPlanEmpty(tf);
});

test('(b) GIVEN reprovision = "reboot" WHEN instance_id changes THEN the plan says so, the guest restarts cleanly, cloud-init runs again on the same disk, and apply returns after cloud-init finished on the new instance-id', async () => {
  tf.write(
    config({
      iid: 'iid-cycle-2',
      runcmd: [PRINT_IID, 'echo "FIRST-FILE $(cat /var/lib/vstest-first)" > /dev/ttyS0', 'echo VSTEST-M3 > /dev/ttyS0'],
    }),
  );
  const saved = tf.planSaved();
  expect(saved.out).toMatch(/Warning: Guest vstest-cycle-vm will be re-provisioned \(reboot\)/);
  expect(saved.out).toContain('iid-cycle-1 → iid-cycle-2');
  const dom = plannedChange(saved.json, 'virtseed_domain.vm');
  expect(dom.actions).toEqual(['update']);
  expect(dom.after?.reprovision_action).toBe('reboot');
  expect(dom.after?.previous_instance_id).toBe('iid-cycle-1');
  expect(dom.after?.instance_id).toBe('iid-cycle-2');

  const r = timedApply(true);
  expectApplied(r, 'reboot re-provision');
  // The log holds the new boot only; at apply end cloud-init had finished there, after printing the new instance-id.
  expect(r.consoleAtEnd).toMatch(/VSTEST-IID iid-cycle-2[\s\S]*VSTEST-M3[\s\S]*Cloud-init v\. \S+ finished at/);
  await settle();
  const lines = capture.since(r.startMs);
  const fin = finishedLines(lines);
  // Only the new boot's line: the old boot's "finished" line (before this apply) never counted.
  expect(fin).toHaveLength(1);
  expect(printedIids(lines)).toEqual(['iid-cycle-2']);
  report('reprovision (reboot)', r, fin[0]);

  const text = lines.map((l) => l.text).join('\n');
  const powerOff = text.search(CLEAN_POWEROFF);
  expect(powerOff).toBeGreaterThanOrEqual(0);
  expect(text.search(BANNER)).toBeGreaterThan(powerOff);
  // The file the first boot wrote is on the disk the new boot runs from.
  expect(text).toMatch(new RegExp(`FIRST-FILE first ${bootId}`));
  const newIds = new Set(bootIds(text.slice(text.search(BANNER))));
  expect(newIds.size).toBe(1);
  expect(newIds.has(bootId)).toBe(false);
  expect(domainUuid(NAME)).toBe(uuid);
  expect(domid()).not.toBe(lastDomid);
  expect(tf.resource('virtseed_domain.vm').instance_id).toBe('iid-cycle-2');
  expectPlanEmpty(tf);
  lastDomid = domid();
});

test('GIVEN a seed whose runcmd fails WHEN re-provisioned with wait_for = "cloud-init" THEN apply fails with cloud-init\'s module and message, and the domain stays in state', async () => {
  tf.write(config({ iid: 'iid-cycle-3', runcmd: ['echo VSTEST-M4 > /dev/ttyS0', 'exit 3'] }));
  const r = timedApply();
  expect({ code: r.code, out: r.code === 1 ? '' : r.out }).toEqual({ code: 1, out: '' });
  expect(r.out).toMatch(/Error: cloud-init module scripts-user failed on vstest-cycle-vm/);
  expect(r.out).toMatch(/Failed to run module scripts-user/);
  // The apply ends at cloud-init's failure line (after the failing runcmd's marker), not at its "finished" line:
  // cloud-init goes on with its later modules in the guest and finishes afterwards.
  expect(r.consoleAtEnd).toMatch(/VSTEST-M4[\s\S]*Failed to run module scripts-user/);
  await finishedSince(r.startMs);
  expect(tf.resource('virtseed_domain.vm').instance_id).toBe('iid-cycle-3');
  // The domain is in state and up to date: nothing left to do until the seed changes.
  expectPlanEmpty(tf);
  bootId = await currentBootId(r.startMs);
  expect(bootIds(r.consoleAtEnd)).toContain(bootId);
});
