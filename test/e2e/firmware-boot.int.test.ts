/**
 * UEFI secure boot through real Terraform and a real guest (Microsoft's keys enrolled): OVMF refuses the test
 * image's unsigned GRUB, so secure boot is on (firmware only: no system boots).
 * The other boot paths are proved by guests booted for other facts: UEFI (OVMF → GRUB x86_64-efi from the image's
 * ESP → cloud-init finished, the domain's own NVRAM file while it lives and gone after destroy) by
 * test/e2e/snapshot-before.int.test.ts's UEFI guest, BIOS (SeaBIOS → GRUB i386-pc) by snapshot-before's BIOS guest,
 * direct kernel boot (kernel, initrd and cmdline from the host) by test/e2e/seed-guest.int.test.ts's ConfigDrive
 * guest and test/e2e/provision-cycle.int.test.ts's guest.
 */
import { cleanupByPrefix, imageVolumesHcl, testImage, TestImage, virshRun, waitForConsole } from '../helpers/guest';
import { TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(1_800_000);

const PREFIX = 'vstest-fwboot-';
const NAME = `${PREFIX}secureboot`;
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;

let img: TestImage;
let tf: TfWorkdir;

/** The base volume, and with `guest` a root overlay, a seed and the secure-boot domain. */
function config(guest: boolean): string {
  if (!guest) return imageVolumesHcl(img, `${PREFIX}base.qcow2`);
  return `${imageVolumesHcl(img, `${PREFIX}base.qcow2`, { root: `${NAME}-root.qcow2` })}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${NAME}-seed.iso"
  hostname     = "fwboot-secureboot"
  instance_id  = "iid-fwboot-secureboot"
}
resource "virtseed_domain" "vm" {
  name        = "${NAME}"
  memory      = 512
  firmware    = "efi"
  secure_boot = true
  disk { volume_id = virtseed_volume.root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  wait_for          = "none"
  network_interface { user = true }
}
`;
}

beforeAll(() => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('fwboot');
  tf.write(config(false));
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX }));

test("GIVEN secure_boot = true WHEN the guest starts THEN OVMF runs with enrolled keys and refuses the image's unsigned GRUB", async () => {
  tf.write(config(true));
  const r = tf.run(['apply', '-auto-approve', '-input=false'], 1_200_000);
  if (r.code !== 0) throw new Error(`terraform apply (secureboot: start) exited ${r.code}:\n${r.out}`);
  const live = virshRun('dumpxml', NAME);
  expect(live).toMatch(/<loader readonly='yes' secure='yes' type='pflash'>\/usr\/share\/OVMF\/OVMF_CODE_4M\.ms\.fd<\/loader>/);
  expect(live).toMatch(/<nvram template='\/usr\/share\/OVMF\/OVMF_VARS_4M\.ms\.fd'>/);
  const text = await waitForConsole(LOG, /BdsDxe: failed to load Boot\d+ .*: Access Denied/, 300_000);
  expect(text).not.toMatch(/virtseed-image: GRUB/);
  expect(tf.resource('virtseed_domain.vm')).toMatchObject({ firmware: 'efi', secure_boot: true });
});
