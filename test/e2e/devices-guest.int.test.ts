/**
 * The devices of issue 22 seen by one real guest, in one boot (issue 22's proof): a TPM 2.0 (swtpm) as /dev/tpm0,
 * a virtiofs share mounted with a host file's content, a virtio RNG as the hardware RNG, the CPU topology in
 * lscpu, a watchdog as /dev/watchdog, and an escape-hatch device (an ICH9 sound card, PCI 8086:293e) on the PCI
 * bus; the VNC display answers `RFB 003.008` on localhost at `display_uri`; then a plan finds no drift. The guest
 * (user-mode networking, restricted) prints what it sees to its serial console from a cloud-config runcmd.
 * Objects are named `vstest-devices-g…`.
 * The firmware path is not under test here: the guest boots directly from the host's kernel, initrd and cmdline
 * (testImage; no SeaBIOS disk reads of GRUB, kernel and initrd under TCG).
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConsoleCapture } from '../helpers/console-capture';
import { imageVolumesHcl, kernelBootHcl, testImage, type TestImage } from '../helpers/guest';
import { teardown } from '../helpers/teardown';
import { TfWorkdir } from '../helpers/terraform';

jest.setTimeout(1_200_000);

const PREFIX = 'vstest-devices-g';
const NAME = `${PREFIX}-vm`;
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;

let img: TestImage;
let tf: TfWorkdir;
let capture: ConsoleCapture;
let share: string;
const secret = `hello from the host ${process.pid}`;

/** What the guest prints, one `VSDEV key=value` line each (no `${` or `%{`: the text goes through HCL). */
const REPORT = [
  'mkdir -p /mnt/share && mount -t virtiofs share /mnt/share',
  'echo "VSDEV tpm0=$(test -c /dev/tpm0 && echo yes || echo no)" > /dev/ttyS0',
  'echo "VSDEV share=$(cat /mnt/share/hello.txt)" > /dev/ttyS0',
  'echo "VSDEV rng=$(cat /sys/class/misc/hw_random/rng_current)" > /dev/ttyS0',
  'echo "VSDEV watchdog=$(test -c /dev/watchdog && echo yes || echo no)" > /dev/ttyS0',
  `echo "VSDEV lscpu=$(lscpu | grep -E '^(Socket|Core|Thread)' | tr -s ' ' | tr '\\n' ';')" > /dev/ttyS0`,
  'echo "VSDEV sound=$(cat /sys/bus/pci/devices/*/device | grep -c 0x293e)" > /dev/ttyS0',
  'echo "VSDEV done" > /dev/ttyS0',
];

const CLOUD_CONFIG = JSON.stringify({ runcmd: REPORT.map((line) => ['sh', '-c', line]) });

function config(): string {
  return `
${imageVolumesHcl(img, `${PREFIX}-base.qcow2`, { root: `${PREFIX}-root.qcow2` })}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}-seed.iso"
  hostname     = "devices"
  cloud_config = ${JSON.stringify(CLOUD_CONFIG)}
}
resource "virtseed_domain" "vm" {
  name     = "${NAME}"
  memory   = 768
  vcpu     = 2
  wait_for = "cloud-init"
  cpu_topology {
    sockets = 1
    cores   = 2
    threads = 1
  }
${kernelBootHcl(img)}  disk { volume_id = virtseed_volume.root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  network_interface { user = true }
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
`;
}

/** The first 12 bytes a server sends on `port` of 127.0.0.1 (VNC's version greeting). */
function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let got = '';
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no greeting on port ${port} within 20 s`))), 20_000);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (got.length >= 12) {
        clearTimeout(timer);
        socket.destroy();
        resolve(got.slice(0, 12));
      }
    });
    socket.on('error', (e) => (clearTimeout(timer), reject(e)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The guest's `VSDEV` lines as key → value, once it printed `VSDEV done`; fails with the console after `timeoutMs`. */
async function report(timeoutMs = 600_000): Promise<Record<string, string>> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const lines = capture.lines().map((l) => l.text);
    if (lines.some((l) => l.trim() === 'VSDEV done'))
      return Object.fromEntries(
        lines
          .map((l) => /^VSDEV (\w+)=(.*)$/.exec(l.trim()))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => [m[1], m[2]]),
      );
    await sleep(2000);
  }
  throw new Error(
    `the guest never printed VSDEV done; console:\n${capture
      .lines()
      .slice(-60)
      .map((l) => l.text)
      .join('\n')}`,
  );
}

let seen: Record<string, string>;

beforeAll(() => {
  img = testImage();
  teardown({ tf: undefined, prefix: PREFIX });
  share = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-devices-share-'));
  fs.writeFileSync(path.join(share, 'hello.txt'), `${secret}\n`);
  fs.rmSync(LOG, { force: true });
  capture = new ConsoleCapture(LOG);
  tf = new TfWorkdir('devices-guest');
  tf.write(config());
  tf.init();
});

afterAll(() => {
  teardown({
    tf,
    prefix: PREFIX,
    destroy: true,
    also: () => {
      capture?.dispose();
      if (share) fs.rmSync(share, { recursive: true, force: true });
    },
  });
});

test('GIVEN a guest with a TPM, a virtiofs share, an RNG, a topology, a watchdog, VNC and an extra sound card WHEN applied THEN it boots and reports', async () => {
  const t0 = Date.now();
  tf.apply();
  seen = await report();
  console.log(`devices guest: applied and reported in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${JSON.stringify(seen)}`);
});

test('GIVEN the guest WHEN it looks THEN /dev/tpm0 is there (swtpm TPM 2.0)', () => {
  expect(seen.tpm0).toBe('yes');
});

test("GIVEN the guest WHEN it mounts the virtiofs share THEN it reads the host file's content", () => {
  expect(seen.share).toBe(secret);
});

test('GIVEN the guest WHEN it asks for its hardware RNG THEN it is the virtio RNG', () => {
  expect(seen.rng).toMatch(/^virtio_rng/);
});

test('GIVEN cpu_topology 1 socket × 2 cores × 1 thread WHEN lscpu runs in the guest THEN it shows that topology', () => {
  expect(seen.lscpu).toMatch(/Thread\(s\) per core: 1;.*Core\(s\) per socket: 2;.*Socket\(s\): 1;/);
});

test('GIVEN the watchdog WHEN the guest looks THEN /dev/watchdog is there', () => {
  expect(seen.watchdog).toBe('yes');
});

test('GIVEN the escape-hatch sound card WHEN the guest lists its PCI devices THEN the ICH9 HDA (8086:293e) is there', () => {
  expect(seen.sound).toBe('1');
});

test('GIVEN the VNC display WHEN its display_uri is dialled THEN it answers RFB 003.008 on localhost', async () => {
  const uri = (tf.resource('virtseed_domain.vm') as { graphics: { display_uri: string }[] }).graphics[0].display_uri;
  expect(uri).toMatch(/^vnc:\/\/127\.0\.0\.1:\d+$/);
  expect(await greeting(Number(uri.split(':').pop()))).toBe('RFB 003.008\n');
});

test('GIVEN the running guest WHEN planned again THEN no drift (the escape hatch included)', () => {
  const plan = tf.plan();
  if (plan.code !== 0) throw new Error(`the plan is not empty (exit ${plan.code}):\n${plan.out}`);
});
