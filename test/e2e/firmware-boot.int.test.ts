/**
 * The test image boots the way cloud images boot under UEFI, through real Terraform and real guests (NoCloud seed,
 * QEMU user networking with restrict=on):
 *   - UEFI: OVMF → GRUB x86_64-efi (\EFI\BOOT\BOOTX64.EFI on the image's ESP) → cloud-init finished, with the
 *     domain's NVRAM file present while it lives and gone after it is destroyed;
 *   - UEFI secure boot (Microsoft's keys enrolled): OVMF refuses the image's unsigned GRUB, so secure boot is on
 *     (firmware only: no system boots).
 * The UEFI guest is first applied with `running = false` (volumes, seed, domain defined), then started by a second
 * apply with `wait_for = "cloud-init"`, whose duration is the boot time printed (domain start → cloud-init finished,
 * plus about a second of Terraform). GRUB's own line on the console tells which boot path ran. The other boot paths
 * are proved by guests booted for other facts: BIOS (SeaBIOS → GRUB i386-pc) by test/e2e/provision-cycle.int.test.ts,
 * direct kernel boot (kernel, initrd and cmdline from the host) by test/e2e/seed-guest.int.test.ts's ConfigDrive guest.
 */
import * as fs from 'node:fs';
import {
  cleanupByPrefix,
  imageVolumesHcl,
  domainExists,
  readConsole,
  testImage,
  TestImage,
  virshRun,
  waitForConsole,
} from '../helpers/guest';
import { TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(1_800_000);

const PREFIX = 'vstest-fwboot-';

type Boot = 'efi' | 'secureboot';

let img: TestImage;
let tf: TfWorkdir;

const name = (boot: Boot) => `${PREFIX}${boot}`;
const consoleLog = (boot: Boot) => `/var/log/libvirt/qemu/${name(boot)}-console.log`;

/** The base volume, and for `boot` a root overlay, a seed and the domain. */
function config(boot: Boot | undefined, running: boolean): string {
  if (!boot) return imageVolumesHcl(img, `${PREFIX}base.qcow2`);
  return `${imageVolumesHcl(img, `${PREFIX}base.qcow2`, { root: `${name(boot)}-root.qcow2` })}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${name(boot)}-seed.iso"
  hostname     = "fwboot-${boot}"
  instance_id  = "iid-fwboot-${boot}"
  cloud_config = <<-EOT
    {"runcmd": ["echo VSTEST-FWBOOT-${boot} > /dev/ttyS0"]}
  EOT
}
resource "virtseed_domain" "vm" {
  name     = "${name(boot)}"
  memory   = 512
  firmware = "efi"
${boot === 'secureboot' ? '  secure_boot = true\n' : ''}  disk { volume_id = virtseed_volume.root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  running           = ${running}
  wait_for          = "${boot === 'secureboot' ? 'none' : 'cloud-init'}"
  wait_timeout      = 900
  network_interface { user = true }
}
`;
}

function apply(label: string): { out: string; seconds: number } {
  const started = Date.now();
  const r = tf.run(['apply', '-auto-approve', '-input=false'], 1_200_000);
  const seconds = (Date.now() - started) / 1000;
  if (r.code !== 0) throw new Error(`terraform apply (${label}) exited ${r.code}:\n${r.out}`);
  return { out: r.out, seconds };
}

/** Defines the guest stopped, then starts it and waits for cloud-init; returns the console and the start apply's time. */
function bootGuest(boot: Boot): { console: string; seconds: number } {
  tf.write(config(boot, false));
  apply(`${boot}: define`);
  tf.write(config(boot, true));
  const { seconds } = apply(`${boot}: start, wait for cloud-init`);
  const text = readConsole(consoleLog(boot));
  const uptime = /finished at .* Up ([\d.]+) seconds/.exec(text)?.[1] ?? '?';
  console.log(
    `firmware-boot ${boot}: domain start → cloud-init finished ${seconds.toFixed(1)} s (apply); guest uptime at finish ${uptime} s`,
  );
  return { console: text, seconds };
}

/** The NVRAM file of a running domain, from its live XML (libvirt resolved the firmware at start). */
function nvramPath(domain: string): string | undefined {
  return /<nvram[^>]*>([^<]+)<\/nvram>/.exec(virshRun('dumpxml', domain))?.[1];
}

beforeAll(() => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('fwboot');
  tf.write(config(undefined, false));
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX }));

test('GIVEN firmware = "efi" WHEN started with wait_for = "cloud-init" THEN OVMF boots GRUB (x86_64-efi) from the ESP, cloud-init finishes, and the domain has its own NVRAM until it is destroyed', () => {
  const { console: text } = bootGuest('efi');
  expect(text).toMatch(/virtseed-image: GRUB \(efi\) loading \/boot\/vmlinuz-/);
  expect(text).toMatch(/VSTEST-FWBOOT-efi[\s\S]*Cloud-init v\. \S+ finished at/);
  expect(tf.resource('virtseed_domain.vm')).toMatchObject({ firmware: 'efi', secure_boot: false });
  const nvram = nvramPath(name('efi'));
  expect(nvram).toBe(`/var/lib/libvirt/qemu/nvram/${name('efi')}_VARS.fd`);
  expect(fs.existsSync(nvram as string)).toBe(true);
  expect(tf.plan().code).toBe(0);

  tf.write(config(undefined, false));
  apply('efi: remove the guest');
  expect(domainExists(name('efi'))).toBe(false);
  expect(fs.existsSync(nvram as string)).toBe(false);
});

test("GIVEN secure_boot = true WHEN the guest starts THEN OVMF runs with enrolled keys and refuses the image's unsigned GRUB", async () => {
  tf.write(config('secureboot', true));
  apply('secureboot: start');
  const live = virshRun('dumpxml', name('secureboot'));
  expect(live).toMatch(/<loader readonly='yes' secure='yes' type='pflash'>\/usr\/share\/OVMF\/OVMF_CODE_4M\.ms\.fd<\/loader>/);
  expect(live).toMatch(/<nvram template='\/usr\/share\/OVMF\/OVMF_VARS_4M\.ms\.fd'>/);
  const text = await waitForConsole(consoleLog('secureboot'), /BdsDxe: failed to load Boot\d+ .*: Access Denied/, 300_000);
  expect(text).not.toMatch(/virtseed-image: GRUB/);
  expect(tf.resource('virtseed_domain.vm')).toMatchObject({ firmware: 'efi', secure_boot: true });
});
