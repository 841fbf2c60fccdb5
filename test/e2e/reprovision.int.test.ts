/**
 * Re-provisioning with real Terraform and one real guest (GitHub issue 5), in sequence on the same domain:
 *   (a) user-data edit with a fixed instance_id → seed updated in place, guest not rebooted;
 *   (b) instance_id change with reprovision = "reboot" → clean restart, cloud-init runs again, same disk;
 *   next-boot policy → nothing happens to the running guest;
 *   memory/vcpu change → same UUID, clean restart (and the pending next-boot instance-id is seen then);
 *   after every apply a second plan shows no changes.
 *
 * The console log is truncated by libvirt at every domain start (append='off'), so a `tail -F` child copies it
 * into one capture file for the whole test: offsets into the capture stay monotonic across restarts.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findChange, plannedChange, TfWorkdir } from '../helpers/terraform';
import {
  CLOUD_INIT_FINISHED,
  cleanupByPrefix,
  imageVolumesHcl,
  consoleSize,
  domainUuid,
  readConsole,
  testImage,
  TestImage,
  virshRun,
  waitForConsole,
} from '../helpers/guest';
import { teardown } from '../helpers/teardown';

jest.setTimeout(1_800_000);

const PREFIX = 'vstest-rp';
const NAME = `${PREFIX}-vm`;
const BOOTID = /BOOTID ([0-9a-f-]{36})/g;
const BANNER = /Linux version \d/;
const CLEAN_POWEROFF = /reboot: Power down/;

let img: TestImage;
let tf: TfWorkdir;
let tail: ChildProcess | undefined;
let capture: string;

interface Step {
  iid: string;
  runcmd: string[];
  reprovision?: string;
  memory?: number;
  vcpu?: number;
}

/** bootcmd runs at every boot: a transient systemd unit prints the boot id to the console every 5 s. --no-block and
 *  DefaultDependencies=no: cloud-init.service runs before sysinit.target, which a default transient unit waits for. */
const BOOTCMD = [
  'systemd-run --no-block -p DefaultDependencies=no --unit=vstest-bootid sh -c \'while :; do echo "BOOTID $(cat /proc/sys/kernel/random/boot_id)" > /dev/ttyS0; sleep 5; done\'',
];

function config(s: Step): string {
  const cloudConfig = JSON.stringify({ bootcmd: BOOTCMD, runcmd: s.runcmd });
  return `
${imageVolumesHcl(img, `${PREFIX}-base.qcow2`, { root: `${PREFIX}-root.qcow2` })}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}-seed.iso"
  hostname     = "rp"
  instance_id  = "${s.iid}"
  cloud_config = ${JSON.stringify(cloudConfig)}
}
resource "virtseed_domain" "vm" {
  name   = "${NAME}"
  memory = ${s.memory ?? 512}
${s.vcpu ? `  vcpu   = ${s.vcpu}\n` : ''}${s.reprovision ? `  reprovision = "${s.reprovision}"\n` : ''}  shutdown_timeout = 90
  disk { volume_id = virtseed_volume.root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  network_interface { user = true }
}
`;
}

function domid(): string {
  return virshRun('domid', NAME).trim();
}

function bootIds(text: string): string[] {
  return [...text.matchAll(BOOTID)].map((m) => m[1]);
}

/** Asserts that a fresh plan has nothing to do (exit code 0). */
function expectNoChanges(): void {
  const r = tf.plan();
  if (r.code !== 0) throw new Error(`second plan is not empty (exit ${r.code}):\n${r.out}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  fs.rmSync(`/var/log/libvirt/qemu/${NAME}-console.log`, { force: true });
  tf = new TfWorkdir('reprovision');
  capture = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-console-')), 'console.txt');
  const out = fs.openSync(capture, 'w');
  // -F follows the log through libvirt's truncation at every start; --sleep-interval keeps the capture fresh.
  tail = spawn('tail', ['-F', '-n', '+1', '--sleep-interval=0.2', `/var/log/libvirt/qemu/${NAME}-console.log`], {
    stdio: ['ignore', out, 'ignore'],
  });
  fs.closeSync(out);
  tf.write(
    config({
      iid: 'iid-fixed-1',
      runcmd: ['echo "first $(cat /proc/sys/kernel/random/boot_id)" > /var/lib/vstest-first', 'echo "MARK-M1" > /dev/ttyS0'],
    }),
  );
  tf.init();
});

afterAll(() =>
  teardown({
    tf,
    prefix: PREFIX,
    destroy: true,
    also: () => {
      if (tail?.pid) process.kill(tail.pid);
      if (capture) fs.rmSync(path.dirname(capture), { recursive: true, force: true });
    },
  }),
);

let firstBootId: string;
let firstDomid: string;
let uuid: string;

test('GIVEN a new guest WHEN applied THEN it boots, cloud-init finishes and a second plan is empty', async () => {
  tf.apply();
  const text = await waitForConsole(capture, /MARK-M1[\s\S]*BOOTID [0-9a-f-]{36}/);
  await waitForConsole(capture, CLOUD_INIT_FINISHED);
  firstBootId = bootIds(text).pop() as string;
  firstDomid = domid();
  uuid = domainUuid(NAME);
  expect(tf.resource('virtseed_domain.vm').uuid).toBe(uuid);
  expectNoChanges();
});

test('(a) GIVEN a fixed instance_id WHEN user-data changes THEN the seed is updated in place and the guest is not rebooted', async () => {
  tf.write(config({ iid: 'iid-fixed-1', runcmd: ['echo "MARK-M2-NEVER-RUNS" > /dev/ttyS0'] }));
  const plan = tf.planJson();
  expect(plannedChange(plan, 'virtseed_cloudinit_seed.seed').actions).toEqual(['update']);
  expect(findChange(plan, 'virtseed_domain.vm')?.actions ?? ['no-op']).toEqual(['no-op']);
  const seedPathBefore = tf.resource('virtseed_cloudinit_seed.seed').path;
  const from = consoleSize(capture);
  tf.apply();
  expect(tf.resource('virtseed_cloudinit_seed.seed').path).toBe(seedPathBefore);
  await sleep(12_000); // two BOOTID periods
  const after = readConsole(capture, from);
  console.log(
    `(a) console after the seed update:\n${after
      .split('\n')
      .filter((l) => /BOOTID|MARK|Linux version/.test(l))
      .join('\n')}`,
  );
  expect(bootIds(after).length).toBeGreaterThanOrEqual(1);
  expect(new Set(bootIds(after))).toEqual(new Set([firstBootId]));
  expect(after).not.toMatch(BANNER);
  expect(after).not.toMatch(/MARK-M2/);
  expect(domid()).toBe(firstDomid);
  expectNoChanges();
});

test('(b) GIVEN reprovision = "reboot" WHEN instance_id changes THEN the plan says so, the guest restarts cleanly and cloud-init runs again on the same disk', async () => {
  tf.write(
    config({ iid: 'iid-fixed-2', runcmd: ['echo "FIRST-FILE $(cat /var/lib/vstest-first)" > /dev/ttyS0', 'echo "MARK-M3" > /dev/ttyS0'] }),
  );
  const human = tf.run(['plan', '-input=false']);
  expect(human.out).toMatch(/Warning: Guest vstest-rp-vm will be re-provisioned \(reboot\)/);
  expect(human.out).toContain('iid-fixed-1 → iid-fixed-2');
  const plan = tf.planJson();
  const dom = plannedChange(plan, 'virtseed_domain.vm');
  expect(dom.actions).toEqual(['update']);
  expect(dom.after?.reprovision_action).toBe('reboot');
  expect(dom.after?.previous_instance_id).toBe('iid-fixed-1');
  expect(dom.after?.instance_id).toBe('iid-fixed-2');
  const from = consoleSize(capture);
  tf.ok(['apply', '-input=false', 'tfplan']);
  const text = await waitForConsole(capture, /MARK-M3[\s\S]*Cloud-init v\. \S+ finished at/, 420_000, from);
  console.log(
    `(b) console after the re-provision:\n${text
      .split('\n')
      .filter((l) => /BOOTID|MARK|FIRST-FILE|Linux version|Power down/.test(l))
      .join('\n')}`,
  );
  const powerOff = text.search(CLEAN_POWEROFF);
  expect(powerOff).toBeGreaterThanOrEqual(0);
  expect(text.search(BANNER)).toBeGreaterThan(powerOff);
  expect(text).toMatch(new RegExp(`FIRST-FILE first ${firstBootId}`));
  const newIds = new Set(bootIds(text.slice(text.search(BANNER))));
  expect(newIds.size).toBe(1);
  expect(newIds.has(firstBootId)).toBe(false);
  expect(domainUuid(NAME)).toBe(uuid);
  expect(domid()).not.toBe(firstDomid);
  const state = tf.resource('virtseed_domain.vm');
  expect(state.instance_id).toBe('iid-fixed-2');
  expectNoChanges();
  firstBootId = [...newIds][0];
  firstDomid = domid();
});

test('GIVEN reprovision = "next-boot" WHEN instance_id changes THEN the running guest is left alone', async () => {
  tf.write(config({ iid: 'iid-fixed-3', reprovision: 'next-boot', runcmd: ['echo "MARK-M4" > /dev/ttyS0'] }));
  const plan = tf.planJson();
  const dom = plannedChange(plan, 'virtseed_domain.vm');
  expect(dom.actions).toEqual(['update']);
  expect(dom.after?.reprovision_action).toBe('next-boot');
  expect(dom.after?.previous_instance_id).toBe('iid-fixed-2');
  const from = consoleSize(capture);
  tf.ok(['apply', '-input=false', 'tfplan']);
  await sleep(12_000);
  const after = readConsole(capture, from);
  expect(new Set(bootIds(after))).toEqual(new Set([firstBootId]));
  expect(after).not.toMatch(BANNER);
  expect(after).not.toMatch(/MARK-M4/);
  expect(domid()).toBe(firstDomid);
  expectNoChanges();
});

test('GIVEN a running guest WHEN memory and vcpu change THEN the domain is updated in place (same UUID) with a clean restart', async () => {
  tf.write(config({ iid: 'iid-fixed-3', reprovision: 'next-boot', memory: 640, vcpu: 2, runcmd: ['echo "MARK-M4" > /dev/ttyS0'] }));
  const plan = tf.planJson();
  const dom = plannedChange(plan, 'virtseed_domain.vm');
  expect(dom.actions).toEqual(['update']);
  expect(dom.after?.reprovision_action).toBe('none');
  const from = consoleSize(capture);
  tf.ok(['apply', '-input=false', 'tfplan']);
  // The pending next-boot instance-id (iid-fixed-3) is seen by this boot: runcmd prints MARK-M4.
  const text = await waitForConsole(capture, /MARK-M4[\s\S]*BOOTID [0-9a-f-]{36}/, 420_000, from);
  const powerOff = text.search(CLEAN_POWEROFF);
  expect(powerOff).toBeGreaterThanOrEqual(0);
  expect(text.search(BANNER)).toBeGreaterThan(powerOff);
  expect(domainUuid(NAME)).toBe(uuid);
  const info = virshRun('dominfo', NAME);
  expect(info).toMatch(/CPU\(s\):\s+2/);
  expect(info).toMatch(/Max memory:\s+655360 KiB/);
  expect(info).toMatch(/State:\s+running/);
  expectNoChanges();
});
