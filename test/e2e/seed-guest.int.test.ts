/**
 * GitHub issue 4 "Complete cloud-init seeds", end to end: real guests booted through real terraform prove from
 * their serial consoles that what `virtseed_cloudinit_seed` declares is what cloud-init 22.4 does.
 * - NoCloud guest: user `alice` with an ssh key, `file` blocks (mode 0600, owner, defer), `environment`
 *   (/etc/cloud/environment), a static IPv4 `network` (v2, matched by MAC) on QEMU user networking, explicit
 *   instance-id and public_keys.
 * - ConfigDrive guest: hostname, a runcmd marker and the derived instance-id; and issue 27.3's case, Virtlet's
 *   overwrite switch (`merge_overwrite`) with the user's write_files beside generated environment, files and mounts:
 *   the plan warns of the generated inputs dropped, and the guest finishes cloud-init with no error and only the
 *   user's files (its disk read at the end, once the guest agent froze its file systems and the guest was powered
 *   off: no shutdown under TCG); its cloud-config's deprecated `apt_update` makes cloud-init log a
 *   warning of several lines, which the apply shows whole (issue 27.6). Its domain also carries two facts
 *   whose firmware and seed paths are free here: it boots directly from the host's kernel, initrd and cmdline (the
 *   same disk boots without its boot loader), and it has `wait_for = "cloud-init"`, so the apply returns only after
 *   cloud-init's "finished" line from DataSourceConfigDrive is on its console (the log read the moment terraform
 *   exits; a timestamping `tail -F` child, ConsoleCapture, tells when that line appeared relative to the apply).
 * The NoCloud guest boots directly from the host's kernel too (its firmware path is not under test: no SeaBIOS disk
 * reads of GRUB, kernel and initrd under TCG).
 * Both guests boot in ONE apply (512 MiB each, restricted user networking: they never reach the real network).
 * Each fact is printed by runcmd to /dev/ttyS0 as `VSM-<key>: <line>` and read from the domain's console log.
 */
import { ConsoleCapture } from '../helpers/console-capture';
import {
  CLOUD_INIT_FINISHED,
  cleanupByPrefix,
  imageVolumesHcl,
  kernelBootHcl,
  readConsole,
  testImage,
  TestImage,
  waitForConsole,
} from '../helpers/guest';
import { cloudInitErrors, readGuestFiles } from '../helpers/guest-disk';
import { TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';
import { ENVIRONMENT_PATH, MOUNT_SCRIPT_PATH } from '../../src/seed';

const PREFIX = 'vstest-sg-';
const MAC = '52:54:00:aa:bb:01';
const ALICE_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAliceKeyForVirtseedE2eTest0000000000000000 alice@vstest';
const META_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMetaKeyForVirtseedE2eTest00000000000000000 meta@vstest';
const NOCLOUD_IID = 'vstest-sg-nocloud-1';
const CD_LOG = `/var/log/libvirt/qemu/${PREFIX}cd-console.log`;
const RESULT_JSON = '/var/lib/cloud/data/result.json';

/** A runcmd entry printing `cmd`'s output (stdout+stderr), line by line, as `VSM-<key>: <line>` on the console. */
const fact = (key: string, cmd: string) => `(${cmd}) 2>&1 | sed 's/^/VSM-${key}: /' > /dev/ttyS0`;

const nocloudConfig = {
  users: [{ name: 'alice', shell: '/bin/bash', ssh_authorized_keys: [ALICE_KEY] }],
  runcmd: [
    fact('ID', 'id alice'),
    fact('AKEYS', 'cat /home/alice/.ssh/authorized_keys'),
    fact('RKEYS', 'cat /root/.ssh/authorized_keys'),
    fact('STAT', "stat -c '%a %U %G' /etc/app.conf"),
    fact('APPCONF', 'cat /etc/app.conf'),
    fact('STAT2', "stat -c '%a %U' /etc/app-root.conf"),
    fact('ENV', 'cat /etc/cloud/environment'),
    fact('ADDR', 'ip -4 addr show eth0'),
    fact('ROUTE', 'ip -4 route'),
    fact('ENI', 'cat /etc/network/interfaces.d/50-cloud-init'),
    fact('HOST', 'hostname'),
    fact('IID', 'cat /var/lib/cloud/data/instance-id'),
    'echo VSM-DONE > /dev/ttyS0',
  ],
};

const configdriveConfig = {
  // Deprecated in cloud-init 22.4 and harmless: the warning of several lines the apply must show (issue 27.6).
  apt_update: false,
  write_files: [{ path: '/etc/mine', content: 'mine' }],
  runcmd: [
    fact('HOST', 'hostname'),
    fact('IID', 'cat /var/lib/cloud/data/instance-id'),
    fact('DS', 'cat /run/cloud-init/.ds-identify.result; cloud-init query platform'),
    'echo VSM-CD-MARKER > /dev/ttyS0',
  ],
};

/** HCL heredoc of a JSON value (cloud_config accepts JSON; no `${` or `%{` may appear). */
function heredoc(value: unknown): string {
  const json = JSON.stringify(value, null, 2);
  if (/[$%]\{/.test(json)) throw new Error('template sequence in heredoc');
  return `<<-EOT\n${json}\nEOT`;
}

function hcl(img: TestImage): string {
  return `
${imageVolumesHcl(img, `${PREFIX}base.qcow2`, { root_nc: `${PREFIX}nc-root.qcow2`, root_cd: `${PREFIX}cd-root.qcow2` })}
resource "virtseed_cloudinit_seed" "nc" {
  pool         = "default"
  name         = "${PREFIX}nc-seed.iso"
  instance_id  = "${NOCLOUD_IID}"
  hostname     = "ncguest"
  public_keys  = ["${META_KEY}"]
  cloud_config = ${heredoc(nocloudConfig)}
  environment  = { APP_MODE = "production", GREETING = "hello world" }
  file {
    path        = "/etc/app.conf"
    content     = "secret=42\\n"
    permissions = "0600"
    owner       = "alice:alice"
    defer       = true
  }
  file {
    path        = "/etc/app-root.conf"
    content     = "mode=root\\n"
    permissions = "0640"
  }
  network {
    version = 2
    interface {
      mac         = "${MAC}"
      addresses   = ["10.0.2.15/24"]
      gateway4    = "10.0.2.2"
      nameservers = ["10.0.2.3"]
    }
  }
}
resource "virtseed_cloudinit_seed" "cd" {
  pool         = "default"
  name         = "${PREFIX}cd-seed.iso"
  format       = "configdrive"
  hostname     = "cdguest"
  cloud_config = ${heredoc(configdriveConfig)}
  # Issue 27.3: the user's write_files displace the generated environment, file and mount (vdb does not exist:
  # its mount script must not run).
  merge_overwrite = true
  environment     = { APP_ENV = "test" }
  file {
    path    = "/etc/app.conf"
    content = "port=8080\\n"
  }
  mount {
    device      = "vdb"
    mount_point = "/data"
  }
}
resource "virtseed_domain" "nc" {
  name   = "${PREFIX}nc"
  memory = 512
${kernelBootHcl(img)}  disk { volume_id = virtseed_volume.root_nc.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.nc.id
  instance_id       = virtseed_cloudinit_seed.nc.instance_id
  network_interface {
    user = true
    mac  = "${MAC}"
  }
}
resource "virtseed_domain" "cd" {
  name   = "${PREFIX}cd"
  memory = 512
${kernelBootHcl(img)}  wait_for     = "cloud-init"
  wait_timeout = 900
  # The agent freezes its file systems before its disk is read at the end (instead of a shutdown under TCG).
  qemu_agent   = true
  disk { volume_id = virtseed_volume.root_cd.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.cd.id
  instance_id       = virtseed_cloudinit_seed.cd.instance_id
  network_interface { user = true }
}
`;
}

/** The lines printed under `VSM-<key>:` (in order, prefix removed); a line may follow getty's prompt on the same
 *  console line (`... login: VSM-...`), as both write to ttyS0 at once. */
function facts(consoleText: string, key: string): string[] {
  const re = new RegExp(`(?:^|login: )VSM-${key}: ?(.*)$`, 'gm');
  return [...consoleText.matchAll(re)].map((m) => m[1].trimEnd());
}

jest.setTimeout(900_000);

let img: TestImage;
let tf: TfWorkdir;
let capture: ConsoleCapture;
let nc: { text: string; seconds: number };
let cd: { text: string; seconds: number };
let cdInstanceId: string;
/** The apply: when it started and ended (epoch ms), its output, and the ConfigDrive guest's console log as terraform
 *  exited. */
let applied: { startMs: number; endMs: number; out: string; cdAtEnd: string };

beforeAll(async () => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  capture = new ConsoleCapture(CD_LOG);
  tf = new TfWorkdir('seed-guest');
  tf.write(hcl(img));
  tf.init();
  const start = Date.now();
  const r = tf.run(['apply', '-auto-approve', '-input=false'], 1_200_000);
  applied = { startMs: start, endMs: Date.now(), out: r.out, cdAtEnd: readConsole(CD_LOG) };
  if (r.code !== 0)
    throw new Error(
      `terraform apply exited ${r.code}:\n${r.out}\nconfigdrive console:\n${applied.cdAtEnd.split('\n').slice(-40).join('\n')}`,
    );
  const applySeconds = (applied.endMs - start) / 1000;
  const ncLog = tf.resource('virtseed_domain.nc').console_log as string;
  const cdLog = tf.resource('virtseed_domain.cd').console_log as string;
  cdInstanceId = tf.resource('virtseed_cloudinit_seed.cd').instance_id as string;
  const timed = async (log: string) => {
    const text = await waitForConsole(log, CLOUD_INIT_FINISHED, 600_000);
    return { text: readConsole(log) || text, seconds: (Date.now() - start) / 1000 };
  };
  [nc, cd] = await Promise.all([timed(ncLog), timed(cdLog)]);
  // Visible in the jest output: the wall time of the whole proof.
  console.log(
    `seed-guest: apply ${applySeconds.toFixed(1)} s; apply start → cloud-init finished: nocloud ${nc.seconds.toFixed(1)} s, configdrive ${cd.seconds.toFixed(1)} s`,
  );
});

afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true, also: () => capture?.dispose() }));

describe('NoCloud seed in a real guest', () => {
  test('GIVEN cloud_config users with an ssh key WHEN the guest boots THEN alice exists with that key', () => {
    expect(facts(nc.text, 'ID').join('\n')).toMatch(/^uid=\d+\(alice\) gid=\d+\(alice\)/);
    expect(facts(nc.text, 'AKEYS')).toContain(ALICE_KEY);
  });

  test('GIVEN public_keys WHEN the guest boots THEN cloud-init installs the meta-data key (root, no default user)', () => {
    expect(facts(nc.text, 'RKEYS').join('\n')).toContain(META_KEY);
  });

  test('GIVEN a deferred file block with permissions 0600 and owner alice WHEN the guest boots THEN the file has that mode, owner and content', () => {
    expect(facts(nc.text, 'STAT')).toEqual(['600 alice alice']);
    expect(facts(nc.text, 'APPCONF')).toEqual(['secret=42']);
  });

  test('GIVEN a file block with permissions 0640 and no owner WHEN the guest boots THEN it is root-owned with mode 640', () => {
    expect(facts(nc.text, 'STAT2')).toEqual(['640 root']);
  });

  test('GIVEN an environment map WHEN the guest boots THEN /etc/cloud/environment holds sorted KEY=value lines', () => {
    expect(facts(nc.text, 'ENV')).toEqual(['APP_MODE=production', 'GREETING=hello world']);
  });

  test('GIVEN a static v2 network matched by MAC WHEN the guest boots THEN eth0 has 10.0.2.15/24', () => {
    expect(facts(nc.text, 'ADDR').join('\n')).toMatch(/inet 10\.0\.2\.15\/24 /);
  });

  test('GIVEN gateway4 10.0.2.2 WHEN the guest boots THEN the default route goes via 10.0.2.2', () => {
    expect(facts(nc.text, 'ROUTE').join('\n')).toMatch(/^default via 10\.0\.2\.2 dev eth0\b/m);
  });

  test('GIVEN hostname and an explicit instance_id WHEN the guest boots THEN the guest reports both', () => {
    expect(facts(nc.text, 'HOST')).toEqual(['ncguest']);
    expect(facts(nc.text, 'IID')).toEqual([NOCLOUD_IID]);
    expect(nc.text).toContain('VSM-DONE');
  });
});

describe('ConfigDrive seed in a real guest', () => {
  test('GIVEN format configdrive and a hostname WHEN the guest boots THEN cloud-init sets the hostname', () => {
    expect(facts(cd.text, 'HOST')).toEqual(['cdguest']);
  });

  test('GIVEN a derived instance-id WHEN the guest boots THEN the guest sees the instance-id the seed resource stored', () => {
    expect(cdInstanceId).toMatch(/^iid-[0-9a-f]{16}$/);
    expect(facts(cd.text, 'IID')).toEqual([cdInstanceId]);
  });

  test('GIVEN a runcmd marker WHEN the guest boots from the config-2 drive THEN the marker appears', () => {
    expect(cd.text).toContain('VSM-CD-MARKER');
    expect(facts(cd.text, 'DS').join('\n')).toMatch(/configdrive|openstack/i);
  });

  test('GIVEN wait_for = "cloud-init" WHEN the new ConfigDrive guest is applied THEN apply returns after cloud-init\'s finished line of this boot from DataSourceConfigDrive, after the marker', async () => {
    expect(applied.cdAtEnd).toMatch(/VSM-CD-MARKER[\s\S]*Cloud-init v\. \S+ finished at .*Datasource DataSourceConfigDrive/);
    await new Promise((res) => setTimeout(res, 300)); // the tail's poll interval
    const lines = capture.since(applied.startMs);
    const fin = lines.filter((l) => CLOUD_INIT_FINISHED.test(l.text));
    expect(fin).toHaveLength(1);
    const marker = lines.find((l) => l.text.includes('VSM-CD-MARKER'));
    expect(marker?.ms).toBeLessThanOrEqual(fin[0].ms);
    expect(facts(lines.map((l) => l.text).join('\n'), 'IID')).toEqual([cdInstanceId]);
    console.log(
      `seed-guest configdrive: apply start → cloud-init finished ${((fin[0].ms - applied.startMs) / 1000).toFixed(1)} s; apply start → apply end ${((applied.endMs - applied.startMs) / 1000).toFixed(1)} s; overhead ${((applied.endMs - fin[0].ms) / 1000).toFixed(2)} s`,
    );
    expect(tf.resource('virtseed_domain.cd').wait_for).toBe('cloud-init');
  });

  test('GIVEN kernel, initrd and cmdline from the host WHEN the guest boots THEN the same disk boots without its boot loader and cloud-init finishes', () => {
    expect(cd.text).not.toMatch(/virtseed-image: GRUB/);
    expect(cd.text).toMatch(new RegExp(`Command line: ${img.cmdline.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(cd.text).toMatch(/VSM-CD-MARKER[\s\S]*Cloud-init v\. \S+ finished at/);
  });

  test("GIVEN merge_overwrite with the user's write_files beside environment, file and mount WHEN applied THEN the apply warns of the generated inputs dropped, and shows cloud-init's deprecation warning whole", () => {
    expect(applied.out).toMatch(/Warning: Generated inputs dropped by merge_overwrite/);
    // cloud-init's deprecation warning reaches the apply with the line naming the key.
    expect(applied.out.replace(/\s+/g, ' ')).toMatch(
      /Warning: cloud-init reported a problem on vstest-sg-cd .*Deprecated cloud-config provided: apt_update: /,
    );
  });

  // Last: the guest agent freezes the guest's file systems (writing out what they hold), the guest is powered off
  // and its disk read.
  test("GIVEN the ConfigDrive guest provisioned under merge_overwrite WHEN its disk is read THEN cloud-init finished without errors and only the user's files were written", async () => {
    const files = await readGuestFiles(
      `${PREFIX}cd`,
      [RESULT_JSON, '/etc/mine', ENVIRONMENT_PATH, MOUNT_SCRIPT_PATH, '/etc/app.conf'],
      'freeze',
    );
    expect({ errors: cloudInitErrors(files[RESULT_JSON]), result: files[RESULT_JSON] }).toEqual({ errors: [], result: expect.any(String) });
    expect(files).toMatchObject({ '/etc/mine': 'mine', [ENVIRONMENT_PATH]: null, [MOUNT_SCRIPT_PATH]: null, '/etc/app.conf': null });
  });
});
