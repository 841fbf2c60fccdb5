/**
 * Issue 21's proof on real guests, through Terraform: a BIOS and a UEFI guest side by side (each booting the test
 * image's own GRUB), `snapshot_before = "disruptive"`, `reprovision = "reboot"`, `wait_for = "cloud-init"`.
 *   1. Created with cloud-config ONE: write_files puts the marker `one` in /root and a per-boot script that prints
 *      `VSTEST-MARKER <marker> IID <instance-id>` to the console at every boot (the image has no ssh or agent). A
 *      virtseed_snapshot of the running BIOS guest holds its memory; deleted with virsh, it is planned again.
 *   2. Cloud-config TWO (a new instance-id) has a bootcmd that writes the marker `two` into the file, prints it on its
 *      instance-id and exits 1: the plan warns for each guest that a snapshot is taken, and `virtseed plan-summary` on
 *      the saved plan says so.
 *   3. The UEFI guest has proven what differs with its firmware (its boot path, its NVRAM file, the plan's word on
 *      its snapshot): removed from the configuration, it is destroyed with its NVRAM file and volumes. The revert
 *      is the same for both firmwares from here (the same disk snapshot of a shut-off guest, the same revert and
 *      restart; that a reverted UEFI domain starts is test/ops/snapshots.int.test.ts's), so the BIOS guest alone
 *      carries it, and two boots are saved.
 *   4. TWO applied to the BIOS guest: the apply fails naming cloud-init's bootcmd module and "reverted to snapshot
 *      virtseed-auto-1"; the guest printed `two` on the new instance-id in the failed boot, then `one` on its old
 *      instance-id after the revert (the per-boot printer reads the file from the disk: disk and seed reverted); it
 *      runs; the next plan proposes the same change (the domain's re-provision, no drift, the seed unchanged), and
 *      the memory snapshot taken by hand is kept beside virtseed-auto-1. The failure is bootcmd's, in cloud-init's
 *      init stage, because the wait ends at the first module failure. This failed boot is the suite's proof that a
 *      real cloud-init's failing module ends the wait (the other failure paths print cloud-init's lines from a guest
 *      with no OS, test/helpers/console-printer.ts: a failing runcmd's report on a re-provision is
 *      test/e2e/provision-cycle.int.test.ts's, read from the lines test/guest/provisioning.test.ts has from a real
 *      guest).
 *   5. Destroy leaves no snapshot, seed copy or volume behind.
 * The UEFI guest's boot is also the proof that the test image boots the way cloud images boot under UEFI (formerly
 * its own guest in test/e2e/firmware-boot.int.test.ts): OVMF → GRUB x86_64-efi from the image's ESP → cloud-init
 * finished, with the domain's own NVRAM file while it lives (gone after destroy); the BIOS guest's console shows
 * SeaBIOS → GRUB i386-pc.
 * Four boots, at most two at a time: both guests' first boot, then the BIOS guest's failed boot (cut short at its
 * bootcmd) and its boot after the revert. The guests have no NIC (nothing here needs the network): no boot waits for
 * ifupdown's DHCP before cloud-init's init stage.
 */
import * as fs from 'node:fs';
import { parsePlanJson } from '../../cli/plan-summary/plan-json';
import { summarizePlan } from '../../cli/plan-summary/summarize';
import { ConsoleCapture } from '../helpers/console-capture';
import {
  CLOUD_INIT_FINISHED,
  cleanupByPrefix,
  domainExists,
  imageVolumesHcl,
  testImage,
  TestImage,
  virshRun,
  volumeNames,
} from '../helpers/guest';
import { expectNothingLeft, expectPlanEmpty } from '../helpers/steps';
import { findChange, TfWorkdir, type TfPlanJson, type TfResourceChange } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(3_600_000);

const PREFIX = 'vstest-snap-sb';
const GUESTS = { bios: `${PREFIX}-bios`, efi: `${PREFIX}-efi` } as const;
type Guest = keyof typeof GUESTS;
const MARKER = /VSTEST-MARKER (\S+) IID (\S+)/g;
/** Two guests boot side by side under TCG; on a loaded host a boot has taken 4–5 minutes. */
const APPLY_TIMEOUT_MS = 2_400_000;

let img: TestImage;
let tf: TfWorkdir;
const captures = new Map<Guest, ConsoleCapture>();

/**
 * cloud-config of step `marker`: the marker file, the per-boot printer, and (for `two`) a bootcmd that fails. The
 * bootcmd writes `two` into the marker file itself (synced) before it prints it and fails: the failed boot ends there,
 * before write_files, and a disk that was not reverted would print `two` again at the next boot.
 */
function cloudConfig(marker: 'one' | 'two'): string {
  return JSON.stringify({
    write_files: [
      { path: '/root/vstest-marker', content: `${marker}\n` },
      {
        path: '/var/lib/cloud/scripts/per-boot/vstest-marker.sh',
        permissions: '0755',
        content: '#!/bin/sh\necho "VSTEST-MARKER $(cat /root/vstest-marker) IID $(cat /var/lib/cloud/data/instance-id)" > /dev/ttyS0\n',
      },
    ],
    ...(marker === 'two'
      ? {
          bootcmd: [
            [
              'sh',
              '-c',
              'echo two > /root/vstest-marker && sync && echo "VSTEST-MARKER $(cat /root/vstest-marker) IID $INSTANCE_ID" > /dev/ttyS0; exit 1',
            ],
          ],
        }
      : {}),
  });
}

function guestHcl(guest: Guest, marker: 'one' | 'two'): string {
  const name = GUESTS[guest];
  return `
resource "virtseed_volume" "${guest}" {
  pool           = "default"
  name           = "${name}-root.qcow2"
  backing_volume = virtseed_volume.base.id
}
resource "virtseed_cloudinit_seed" "${guest}" {
  pool         = "default"
  name         = "${name}-seed.iso"
  hostname     = "${guest}"
  cloud_config = ${JSON.stringify(cloudConfig(marker))}
}
resource "virtseed_domain" "${guest}" {
  name              = "${name}"
  memory            = 512
  firmware          = "${guest}"
  reprovision       = "reboot"
  wait_for          = "cloud-init"
  wait_timeout      = 1200
  shutdown_timeout  = 120
  snapshot_before   = "disruptive"
  disk { volume_id = virtseed_volume.${guest}.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.${guest}.id
  instance_id       = virtseed_cloudinit_seed.${guest}.instance_id
}`;
}

/** The configuration of step `marker` with `guests` (both until the UEFI guest is removed) and the manual snapshot. */
function config(marker: 'one' | 'two', guests: readonly Guest[] = ['bios', 'efi']): string {
  return `${imageVolumesHcl(img, `${PREFIX}-base.qcow2`)}
${guests.map((g) => guestHcl(g, marker)).join('\n')}
resource "virtseed_snapshot" "manual" {
  domain_id   = virtseed_domain.bios.id
  name        = "manual"
  description = "the running BIOS guest after its first boot"
}`;
}

/** `terraform show -json PLAN` with the drift Terraform found while refreshing. */
interface PlanJson extends TfPlanJson {
  readonly resource_drift?: TfResourceChange[];
}

/** The markers a guest printed since `ms` (epoch ms), in order: [marker, instance-id]. */
function markers(guest: Guest, since = 0): [string, string][] {
  return [...consoleSince(guest, since).matchAll(MARKER)].map((m) => [m[1], m[2]]);
}

/** What a guest printed since `ms` (epoch ms), as one text. */
function consoleSince(guest: Guest, since = 0): string {
  return captures
    .get(guest)!
    .since(since)
    .map((l) => l.text)
    .join('\n');
}

/** The NVRAM file of a running domain, from its live XML (libvirt resolved the firmware at start). */
function nvramPath(domain: string): string | undefined {
  return /<nvram[^>]*>([^<]+)<\/nvram>/.exec(virshRun('dumpxml', domain))?.[1];
}

/** The EFI guest's NVRAM file, read while it runs (test 1): it must be gone after destroy. */
let efiNvram: string | undefined;

function consoleTail(guest: Guest): string {
  return captures
    .get(guest)!
    .lines()
    .slice(-40)
    .map((l) => l.text)
    .join('\n');
}

beforeAll(() => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  for (const [guest, name] of Object.entries(GUESTS) as [Guest, string][]) {
    const log = `/var/log/libvirt/qemu/${name}-console.log`;
    fs.rmSync(log, { force: true });
    captures.set(guest, new ConsoleCapture(log));
  }
  tf = new TfWorkdir('snapshot-before');
  tf.write(config('one'));
  tf.init();
});

afterAll(() =>
  teardown({
    tf,
    prefix: PREFIX,
    destroy: true,
    also: () => captures.forEach((c) => c.dispose()),
  }),
);

const iid: Partial<Record<Guest, string>> = {};

test('GIVEN cloud-config ONE WHEN both guests are created THEN each printed marker one on its instance-id and the BIOS guest has a memory snapshot', () => {
  tf.ok(['apply', '-auto-approve', '-input=false'], APPLY_TIMEOUT_MS);
  for (const guest of Object.keys(GUESTS) as Guest[]) {
    iid[guest] = tf.resource(`virtseed_domain.${guest}`).instance_id as string;
    expect({ guest, markers: markers(guest) }).toEqual({ guest, markers: [['one', iid[guest]]] });
  }
  const manual = tf.resource('virtseed_snapshot.manual');
  expect([manual.state, manual.memory, manual.instance_id]).toEqual(['running', true, iid.bios]);
  expectPlanEmpty(tf, 'the create');
});

test('GIVEN firmware = "efi" and "bios" WHEN the guests were created THEN OVMF booted GRUB (x86_64-efi) from the ESP and SeaBIOS GRUB (i386-pc), cloud-init finished, and the UEFI domain has its own NVRAM', () => {
  const efi = consoleSince('efi');
  expect(efi).toMatch(/virtseed-image: GRUB \(efi\) loading \/boot\/vmlinuz-/);
  expect(efi).toMatch(new RegExp(`VSTEST-MARKER one[\\s\\S]*${CLOUD_INIT_FINISHED.source}`));
  expect(efi).not.toMatch(/GRUB \(pc\)/);
  const bios = consoleSince('bios');
  expect(bios).toMatch(/virtseed-image: GRUB \(pc\) loading \/boot\/vmlinuz-/);
  expect(bios).not.toMatch(/BdsDxe|GRUB \(efi\)/);
  expect(tf.resource('virtseed_domain.efi')).toMatchObject({ firmware: 'efi', secure_boot: false });
  expect(tf.resource('virtseed_domain.bios')).toMatchObject({ firmware: 'bios' });
  efiNvram = nvramPath(GUESTS.efi);
  expect(efiNvram).toBe(`/var/lib/libvirt/qemu/nvram/${GUESTS.efi}_VARS.fd`);
  expect(fs.existsSync(efiNvram as string)).toBe(true);
});

test('GIVEN the memory snapshot deleted with virsh WHEN planned THEN it is planned again, and the apply takes it again', () => {
  virshRun('snapshot-delete', GUESTS.bios, 'manual');
  const plan = tf.planJson() as PlanJson;
  expect(findChange(plan, 'virtseed_snapshot.manual')?.actions).toEqual(['create']);
  expect(findChange(plan, 'virtseed_domain.bios')?.actions).toEqual(['no-op']);
  tf.ok(['apply', '-input=false', 'tfplan']);
  expect(virshRun('snapshot-list', GUESTS.bios, '--name').trim()).toBe('manual');
});

let failed: { code: number; out: string };
let appliedAt = 0;
/** The saved plan of TWO for both guests (test 4), read again by plan-summary (test 5). */
let planTwo: PlanJson;

test('GIVEN cloud-config TWO whose bootcmd fails WHEN planned THEN the plan says a snapshot is taken before the re-provision', () => {
  tf.write(config('two'));
  const saved = tf.planSaved();
  planTwo = saved.json as PlanJson;
  const text = saved.out.replace(/\s+/g, ' '); // terraform wraps warning details
  for (const name of Object.values(GUESTS)) {
    expect(text).toContain(`Warning: A snapshot of ${name} is taken before this apply`);
  }
  expect(text).toContain('If wait_for = "cloud-init" then fails, the guest is reverted to it and started again');
});

test('GIVEN the same change as a saved plan WHEN virtseed plan-summary reads its JSON THEN each guest says a disk snapshot is taken', () => {
  const summary = summarizePlan(parsePlanJson(JSON.stringify(planTwo)));
  for (const guest of Object.keys(GUESTS) as Guest[]) {
    expect(summary.resources.find((r) => r.address === `virtseed_domain.${guest}`)?.snapshot).toEqual({
      taken: true,
      policy: 'disruptive',
      kind: 'disk',
      note: 'the apply restarts the guest: its disks are snapshotted while it is shut down',
    });
  }
});

test('GIVEN the UEFI guest removed from the configuration WHEN applied THEN it is destroyed with its NVRAM file and volumes, and the BIOS guest is left as it is', () => {
  tf.write(config('one', ['bios']));
  const plan = tf.planJson() as PlanJson;
  const acted = (plan.resource_changes ?? []).filter((c) => !c.change.actions.every((a) => a === 'no-op' || a === 'read'));
  expect(acted.map((c) => [c.address, c.change.actions.join()]).sort()).toEqual([
    ['virtseed_cloudinit_seed.efi', 'delete'],
    ['virtseed_domain.efi', 'delete'],
    ['virtseed_volume.efi', 'delete'],
  ]);
  tf.ok(['apply', '-input=false', 'tfplan']);
  expect(domainExists(GUESTS.efi)).toBe(false);
  expect(volumeNames(GUESTS.efi)).toEqual([]);
  expect(efiNvram).toBeDefined();
  expect(fs.existsSync(efiNvram as string)).toBe(false);
  expect(virshRun('domstate', GUESTS.bios).trim()).toBe('running');
});

test('GIVEN cloud-config TWO WHEN applied to the BIOS guest THEN the apply fails naming the bootcmd module and the revert to virtseed-auto-1', () => {
  tf.write(config('two', ['bios']));
  appliedAt = Date.now();
  failed = tf.run(['apply', '-auto-approve', '-input=false'], APPLY_TIMEOUT_MS);
  console.log(`failed apply (exit ${failed.code}), its errors:\n${failed.out.slice(failed.out.indexOf('Error:')).slice(0, 4000)}`);
  expect(failed.code).toBe(1);
  expect(failed.out).toContain(`cloud-init module bootcmd failed on ${GUESTS.bios} (reverted to snapshot virtseed-auto-1)`);
  expect(failed.out).toMatch(/Reverted to snapshot virtseed-auto-1, taken before this apply/);
});

/** The plan after the failed apply (test 7), read by tests 7 and 8. */
let planAgain: PlanJson;

test('GIVEN the failed apply WHEN the BIOS guest console is read THEN it booted two on the new instance-id, then one on its old instance-id', () => {
  const seen = markers('bios', appliedAt);
  planAgain = tf.planJson() as PlanJson;
  const newIid = findChange(planAgain, 'virtseed_domain.bios')?.after?.instance_id as string;
  if (seen.length !== 2) throw new Error(`bios: markers since the apply ${JSON.stringify(seen)}\n${failed.out}\n${consoleTail('bios')}`);
  expect(seen).toEqual([
    ['two', newIid],
    ['one', iid.bios],
  ]);
  expect(newIid).not.toBe(iid.bios);
  expect(virshRun('domstate', GUESTS.bios).trim()).toBe('running');
});

test('GIVEN the reverted guest WHEN planned again THEN the same re-provision is proposed, without drift, the seed unchanged, the manual snapshot kept', () => {
  const dom = findChange(planAgain, 'virtseed_domain.bios');
  expect(dom?.actions).toEqual(['update']);
  expect(dom?.before?.instance_id).toBe(iid.bios);
  expect(dom?.after?.reprovision_action).toBe('reboot');
  expect(findChange(planAgain, 'virtseed_cloudinit_seed.bios')?.actions).toEqual(['no-op']);
  expect(findChange(planAgain, 'virtseed_snapshot.manual')?.actions).toEqual(['no-op']);
  // The root volume's allocation grows while the guest runs (drift of a computed attribute, not of the guest).
  expect((planAgain.resource_drift ?? []).filter((d) => !d.address.startsWith('virtseed_volume.')).map((d) => d.address)).toEqual([]);
  expect(virshRun('snapshot-list', GUESTS.bios, '--name').split('\n').filter(Boolean).sort()).toEqual(['manual', 'virtseed-auto-1']);
});

test('GIVEN the guest with snapshots and seed copies WHEN destroyed THEN nothing of the test is left on the host', () => {
  tf.destroy();
  expect(volumeNames(PREFIX)).toEqual([]);
  expectNothingLeft(PREFIX);
});
