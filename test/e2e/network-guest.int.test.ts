/**
 * GitHub issue 12: a guest on an isolated libvirt network (no forward mode), through real terraform, a real guest
 * and `qemu+ssh://` to this machine (an sshd on 127.0.0.1 that the test starts and stops):
 * - the domain's NIC names the network by its `virtseed_network.id` (UUID);
 * - `wait_for = "cloud-init"` returns after cloud-init's "finished" line of this boot is on the console, read through
 *   the libvirt stream over ssh;
 * - the guest's DHCP lease is in state (`addresses`, `ip_address`) and a terraform output, and libvirt's lease list
 *   shows the same address for the domain's MAC;
 * - the next plan is empty (the UUID in `network_interface.network` is kept on read, the addresses are stable);
 * - with `qemu_agent = true` the domain has the guest agent channel, and the test image's qemu-guest-agent connects
 *   to it: reads ask the agent too, and its report of the NIC adds nothing beside the lease (`addresses` has the one
 *   address, and the next plan is empty);
 * - secrets given as write-only inputs from ephemeral variables (issue 32) reach the guest: a canary inside the
 *   cloud-config YAML (`user_data_wo`), one in a MIME part (`user_data_part.content_wo`) and one in a file
 *   (`file.content_wo`) are printed on the console by the guest, and the state holds none of them;
 * - the devices of issue 22, seen by the same guest in the same boot (this file took over devices-guest's boot):
 *   a TPM 2.0 (swtpm) as /dev/tpm0, a virtiofs share mounted with a host file's content, a virtio RNG as the
 *   hardware RNG, the CPU topology in lscpu, a watchdog as /dev/watchdog, and an escape-hatch device (an ICH9 sound
 *   card, PCI 8086:293e) on the PCI bus, each printed as a `VSDEV key=value` line from the cloud-config's runcmd; the
 *   VNC display answers `RFB 003.008` on localhost at `display_uri`; the next plan is empty, the escape hatch included.
 * The firmware path is not under test here: the guest boots directly from the host's kernel, initrd and cmdline
 * (testImage; no SeaBIOS disk reads of GRUB, kernel and initrd under TCG).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  CLOUD_INIT_FINISHED,
  cleanupByPrefix,
  imageVolumesHcl,
  kernelBootHcl,
  readConsole,
  testImage,
  TestImage,
  virshRun,
} from '../helpers/guest';
import { cleanupNetworksByPrefix, isolatedNetworkHcl, testSubnetOctet } from '../helpers/network';
import { teardown } from '../helpers/teardown';
import { PROVIDER_BLOCK, stringValue, TfWorkdir } from '../helpers/terraform';
import { serverGreeting } from '../helpers/greeting';
import { startSshd, TestSshd } from '../libvirt/helpers/sshd';

jest.setTimeout(1_800_000);

const PREFIX = 'vstest-ng-';
const NAME = `${PREFIX}vm`;
const NET = `${PREFIX}net`;
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;
const OCTET = testSubnetOctet(NET);

let img: TestImage;
let sshd: TestSshd;
let tf: TfWorkdir;
let applied: { code: number; out: string; consoleAtEnd: string };
let share: string;

/** Canary secrets, each in the shape a user writes it; the guest prints each on its serial console. */
const CANARIES = { yaml: 'CanaryNgYaml-7c31', part: 'CanaryNgPart-2d84', file: 'CanaryNgFile-b9e0' };
/** What the guest prints of its devices, one `VSDEV key=value` line each. */
const DEVICE_REPORT = [
  'mkdir -p /mnt/share && mount -t virtiofs share /mnt/share',
  'echo "VSDEV tpm0=$(test -c /dev/tpm0 && echo yes || echo no)" > /dev/ttyS0',
  'echo "VSDEV share=$(cat /mnt/share/hello.txt)" > /dev/ttyS0',
  'echo "VSDEV rng=$(cat /sys/class/misc/hw_random/rng_current)" > /dev/ttyS0',
  'echo "VSDEV watchdog=$(test -c /dev/watchdog && echo yes || echo no)" > /dev/ttyS0',
  `echo "VSDEV lscpu=$(lscpu | grep -E '^(Socket|Core|Thread)' | tr -s ' ' | tr '\\n' ';')" > /dev/ttyS0`,
  'echo "VSDEV sound=$(cat /sys/bus/pci/devices/*/device | grep -c 0x293e)" > /dev/ttyS0',
  'echo "VSDEV done" > /dev/ttyS0',
];
/** The content of the host file the guest reads through the virtiofs share. */
const SHARED = `hello from the host ${process.pid}`;
const SECRET_ENV = {
  // YAML is a superset of JSON: the runcmd list as JSON needs no YAML quoting of the shell lines.
  TF_VAR_user_data: `#cloud-config\n${JSON.stringify({
    runcmd: [
      `echo "VSTEST_YAML: ${CANARIES.yaml}" > /dev/ttyS0`,
      'echo "VSTEST_FILE: $(cat /etc/vstest-secret)" > /dev/ttyS0',
      ...DEVICE_REPORT,
    ].map((line) => ['sh', '-c', line]),
  })}\n`,
  TF_VAR_part: `#!/bin/sh\necho "VSTEST_PART: ${CANARIES.part}" > /dev/ttyS0\n`,
  TF_VAR_file: `${CANARIES.file}\n`,
};

function config(uri: string): string {
  return `${PROVIDER_BLOCK.replace('provider "virtseed" {}', `provider "virtseed" {\n  uri = "${uri}"\n}`)}
${isolatedNetworkHcl('net', NET)}
${imageVolumesHcl(img, `${PREFIX}base.qcow2`, { root: `${PREFIX}root.qcow2` })}
variable "user_data" {
  type      = string
  ephemeral = true
}
variable "part" {
  type      = string
  ephemeral = true
}
variable "file" {
  type      = string
  ephemeral = true
}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}seed.iso"
  hostname     = "netguest"
  instance_id  = "iid-${PREFIX}1"
  user_data_wo = var.user_data
  file {
    path        = "/etc/vstest-secret"
    permissions = "0600"
    content_wo  = var.file
  }
  user_data_part {
    content_type = "text/x-shellscript"
    filename     = "secret-part.sh"
    content_wo   = var.part
  }
}
resource "virtseed_domain" "vm" {
  name   = "${NAME}"
  memory = 768
  vcpu   = 2
  cpu_topology {
    sockets = 1
    cores   = 2
    threads = 1
  }
${kernelBootHcl(img)}  disk { volume_id = virtseed_volume.root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  wait_for          = "cloud-init"
  wait_timeout      = 900
  qemu_agent        = true
  network_interface { network = virtseed_network.net.id }
  graphics { type = "vnc" }
  tpm {}
  filesystem {
    source = "${share}"
    target = "share"
  }
  rng {}
  watchdog {}
  xml {
    devices = "<sound model='ich9'/>"
  }
}
output "ip_address" {
  value = virtseed_domain.vm.ip_address
}
`;
}

beforeAll(async () => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  cleanupNetworksByPrefix(PREFIX);
  share = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-ng-share-'));
  fs.writeFileSync(path.join(share, 'hello.txt'), `${SHARED}\n`);
  sshd = await startSshd();
  tf = new TfWorkdir('network-guest', SECRET_ENV);
  const uri = `qemu+ssh://root@127.0.0.1:${sshd.port}/system?keyfile=${sshd.clientKey}&known_hosts=${sshd.knownHosts}`;
  fs.writeFileSync(path.join(tf.dir, 'main.tf'), config(uri));
  tf.init();
  const r = tf.run(['apply', '-auto-approve', '-input=false'], 1_500_000);
  applied = { ...r, consoleAtEnd: readConsole(LOG) };
});

afterAll(async () => {
  try {
    teardown({ tf, prefix: PREFIX });
  } finally {
    cleanupNetworksByPrefix(PREFIX); // after the domains that use the network
    await sshd?.stop();
    if (share) fs.rmSync(share, { recursive: true, force: true });
  }
});

test('GIVEN wait_for = "cloud-init" over qemu+ssh WHEN applied THEN it succeeds after cloud-init finished this boot', () => {
  expect({ code: applied.code, out: applied.out }).toEqual({ code: 0, out: expect.stringContaining('Apply complete!') });
  expect(applied.consoleAtEnd).toMatch(CLOUD_INIT_FINISHED);
});

test("GIVEN the guest on the isolated network WHEN applied THEN its DHCP lease is in state, in the output and in libvirt's leases", () => {
  const vm = tf.resource('virtseed_domain.vm');
  const net = tf.resource('virtseed_network.net');
  const ip = stringValue(vm, 'ip_address');
  const nics = vm.network_interface as { network: string | null; mac: string }[];
  expect(ip).toMatch(new RegExp(`^10\\.213\\.${OCTET}\\.(1[0-9][0-9])$`));
  expect(vm.addresses).toEqual([ip]);
  expect(nics[0].network).toBe(net.id);
  expect(tf.ok(['output', '-raw', 'ip_address']).trim()).toBe(ip);
  const leases = virshRun('net-dhcp-leases', NET);
  expect(leases).toMatch(new RegExp(`${nics[0].mac}\\s+ipv4\\s+${ip.replace(/\./g, '\\.')}/24`));
});

test('GIVEN qemu_agent = true WHEN applied THEN the running domain has the agent channel, connected (the image runs qemu-guest-agent)', () => {
  expect(tf.resource('virtseed_domain.vm').qemu_agent).toBe(true);
  expect(virshRun('dumpxml', NAME)).toMatch(
    /<channel type='unix'>[\s\S]*<target type='virtio' name='org\.qemu\.guest_agent\.0' state='connected'\/>/,
  );
});

test('GIVEN canaries in write-only inputs WHEN the guest ran cloud-init THEN it printed each, and the state holds none', () => {
  expect(applied.consoleAtEnd).toContain(`VSTEST_YAML: ${CANARIES.yaml}`);
  expect(applied.consoleAtEnd).toContain(`VSTEST_PART: ${CANARIES.part}`);
  expect(applied.consoleAtEnd).toContain(`VSTEST_FILE: ${CANARIES.file}`);
  const state = fs.readFileSync(path.join(tf.dir, 'terraform.tfstate'), 'utf8');
  expect(Object.values(CANARIES).filter((c) => state.includes(c))).toEqual([]);
  expect(applied.out).not.toMatch(/CanaryNg/);
});

/** The value of the guest's `VSDEV key=value` line; fails with the console's VSDEV and error lines without it. */
function deviceValue(key: string): string {
  const lines = applied.consoleAtEnd.split('\n').map((l) => l.trim());
  const found = lines.map((l) => /^VSDEV (\w+)=(.*)$/.exec(l)).find((m) => m?.[1] === key);
  if (!lines.includes('VSDEV done') || !found) {
    const shown = lines.filter((l) => l.includes('VSDEV') || /lscpu|error|fail/i.test(l)).slice(-60);
    throw new Error(`the guest printed no VSDEV ${key}= line (or never VSDEV done); its VSDEV and error lines:\n${shown.join('\n')}`);
  }
  return found[2];
}

test('GIVEN a TPM on the guest WHEN it looks THEN /dev/tpm0 is there (swtpm TPM 2.0)', () => {
  expect(deviceValue('tpm0')).toBe('yes');
});

test("GIVEN a virtiofs share WHEN the guest mounts it THEN it reads the host file's content", () => {
  expect(deviceValue('share')).toBe(SHARED);
});

test('GIVEN an RNG WHEN the guest asks for its hardware RNG THEN it is the virtio RNG', () => {
  expect(deviceValue('rng')).toMatch(/^virtio_rng/);
});

test('GIVEN cpu_topology 1 socket × 2 cores × 1 thread WHEN lscpu runs in the guest THEN it shows that topology', () => {
  expect(deviceValue('lscpu')).toMatch(/Thread\(s\) per core: 1;.*Core\(s\) per socket: 2;.*Socket\(s\): 1;/);
});

test('GIVEN a watchdog WHEN the guest looks THEN /dev/watchdog is there', () => {
  expect(deviceValue('watchdog')).toBe('yes');
});

test('GIVEN the escape-hatch sound card WHEN the guest lists its PCI devices THEN the ICH9 HDA (8086:293e) is there', () => {
  expect(deviceValue('sound')).toBe('1');
});

test('GIVEN the VNC display WHEN its display_uri is dialled THEN it answers RFB 003.008 on localhost', async () => {
  const uri = (tf.resource('virtseed_domain.vm') as { graphics: { display_uri: string }[] }).graphics[0].display_uri;
  expect(uri).toMatch(/^vnc:\/\/127\.0\.0\.1:\d+$/);
  expect(await serverGreeting(Number(uri.split(':').pop()))).toBe('RFB 003.008\n');
});

test('GIVEN the applied guest with its devices WHEN planned again THEN there are no changes (the escape hatch included)', () => {
  const r = tf.plan();
  expect({ code: r.code, out: r.out }).toEqual({ code: 0, out: expect.stringContaining('No changes.') });
});
