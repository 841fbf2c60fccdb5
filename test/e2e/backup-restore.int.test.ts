/**
 * GitHub issue 37 "Backups and recovery as code", end to end on a real guest (TCG, two boots: the first boot and the
 * boot after the restore):
 * - the guest (with `qemu_agent = true`; the test image runs qemu-guest-agent) writes data-a (cloud-init runcmd);
 *   `virtseed backup create` takes a full backup, frozen through the guest agent: its manifest says
 *   `consistency: "filesystem"`;
 * - the guest writes data-b (a command run through the guest agent, guest-exec); the next backup is an incremental
 *   on the full one, frozen too, its disk file smaller than the full one's;
 * - a domain without an agent channel (QEMU with an empty qcow2 disk and no OS: a second to start, no boot) gets a
 *   backup whose manifest says `consistency: "crash"` and why;
 * - terraform destroys the guest and its disks (a domain with backup checkpoints is undefined with them);
 * - a plan for a `virtseed_volume` with `restore_from` the incremental names the chain (full + incremental), the
 *   bytes it reads and the instance-id, and leaves the seed (its `instance_id` from `restore_instance_id`) as it is;
 * - applied, a new domain boots from the restored volume: its console shows data-a and data-b, the instance-id
 *   cloud-init reads from the seed and the one recorded on the restored disk (the same), and the per-instance
 *   runcmd does not run again;
 * - `virtseed backup verify` passes on the backups, and exits 1 naming the file once a byte of it is corrupted.
 * The guest has no NIC: nothing here needs the network, and its boots do not wait for a DHCP lease. The firmware path
 * is not under test either: both boots are direct kernel boots of the test image (kernel, initrd and cmdline from the
 * host; the root file system on the guest's disk, the restored one for the second boot), with no SeaBIOS disk reads
 * of GRUB, kernel and initrd under TCG.
 * Each waiting step has its own short bound; the figures (backup sizes, job and restore times) are printed.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { expectOk, poll, runCommand, virshOk, type CommandResult } from '../helpers/command';
import {
  cleanupByPrefix,
  imageVolumesHcl,
  kernelBootHcl,
  readConsole,
  testImage,
  waitForConsole,
  waitForGuestAgent,
  type TestImage,
} from '../helpers/guest';
import { findChange, plannedChange, TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

const PREFIX = 'vstest-bkr';
const FIRST = `${PREFIX}-vm`;
const RESTORED = `${PREFIX}-restored`;
const NO_AGENT = `${PREFIX}-noagent`;
const IID = 'vstest-bkr-iid-1';
const BIN = path.resolve(__dirname, '..', '..', 'bin', 'virtseed');

jest.setTimeout(1_200_000);

/** The virtseed CLI of this checkout (bin/virtseed, the bundle `npm run build` made); bounded by 300 s. */
const virtseed = (...args: string[]): CommandResult => runCommand(BIN, args, 300_000);

/** Runs `sh -c script` in the guest through the guest agent (guest-exec) and waits (≤ 60 s) for it to exit 0. */
async function guestExec(domain: string, script: string): Promise<void> {
  const started = virshOk(
    'qemu-agent-command',
    domain,
    JSON.stringify({ execute: 'guest-exec', arguments: { path: '/bin/sh', arg: ['-c', script], 'capture-output': true } }),
  );
  const pid = (JSON.parse(started) as { return: { pid: number } }).return.pid;
  let status = '';
  const done = await poll(
    `guest-exec of ${JSON.stringify(script)} in ${domain} did not exit`,
    60,
    () => {
      status = virshOk('qemu-agent-command', domain, JSON.stringify({ execute: 'guest-exec-status', arguments: { pid } }));
      const r = (JSON.parse(status) as { return: { exited: boolean; exitcode?: number } }).return;
      return r.exited ? r : undefined;
    },
    () => status,
  );
  if (done.exitcode !== 0) throw new Error(`guest-exec of ${JSON.stringify(script)} in ${domain}: ${status}`);
}

const cloudConfig = {
  write_files: [
    {
      // Every boot (cloud-init's scripts-per-boot, in its final stage): the data files and the instance-ids cloud-init
      // has for this boot (from the seed) and for the boot before (recorded on the disk).
      path: '/var/lib/cloud/scripts/per-boot/vstest-data.sh',
      permissions: '0755',
      content:
        '#!/bin/sh\necho "VSTEST-DATA $(cat /root/data-a 2>/dev/null) $(cat /root/data-b 2>/dev/null) IID $(cat /var/lib/cloud/data/instance-id) PREVIOUS $(cat /var/lib/cloud/data/previous-instance-id)" > /dev/ttyS0\n',
    },
  ],
  runcmd: ['echo data-a > /root/data-a && sync', 'echo VSTEST-PER-INSTANCE-RAN > /dev/ttyS0'],
};

/** The configuration at each stage: the first guest; only its seed (guest and disks destroyed); restored. */
function config(img: TestImage, stage: 'first' | 'gone' | 'restored', backupDir = ''): string {
  const seed = (instanceId: string) => `
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}-seed.iso"
  instance_id  = ${instanceId}
  hostname     = "bkr"
  cloud_config = ${JSON.stringify(JSON.stringify(cloudConfig))}
}`;
  const domain = (name: string, volume: string) => `
resource "virtseed_domain" "vm" {
  name              = "${name}"
  memory            = 512
  qemu_agent        = true
  wait_for          = "cloud-init"
  wait_timeout      = 900
  shutdown_timeout  = 30
${kernelBootHcl(img)}  disk { volume_id = ${volume}.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
}`;
  if (stage === 'first')
    return `${imageVolumesHcl(img, `${PREFIX}-base.qcow2`, { root: `${PREFIX}-root.qcow2` })}${seed(`"${IID}"`)}${domain(FIRST, 'virtseed_volume.root')}`;
  if (stage === 'gone') return seed(`"${IID}"`);
  return `
resource "virtseed_volume" "restored" {
  pool         = "default"
  name         = "${PREFIX}-restored.qcow2"
  restore_from = "${backupDir}"
}${seed('virtseed_volume.restored.restore_instance_id')}${domain(RESTORED, 'virtseed_volume.restored')}`;
}

/** terraform apply, bounded for a TCG boot on a loaded machine (and by the consoles' silence, helpers/terraform). */
const apply = (t: TfWorkdir) => t.ok(['apply', '-auto-approve', '-input=false'], 1_100_000);

const consoleOf = (name: string) => `/var/log/libvirt/qemu/${name}-console.log`;

type Manifest = {
  id: string;
  kind: string;
  parent: string | null;
  consistency: string;
  consistencyNote?: string;
  jobSeconds: number;
  files: { name: string; role: string; bytes: number }[];
};
const diskBytes = (m: Manifest) => m.files.filter((f) => f.role === 'disk').reduce((n, f) => n + f.bytes, 0);

describe('backup and restore of a real guest (issue 37)', () => {
  let img: TestImage;
  let tf: TfWorkdir | undefined;
  let root: string;
  let fullManifest: Manifest;
  let incManifest: Manifest;
  let restoreApplyS = 0;
  const incDir = () => path.join(root, FIRST, '0002-incremental');

  beforeAll(() => {
    cleanupByPrefix(PREFIX);
    img = testImage();
    // QEMU writes the backups: a folder it may enter (docs/backups.md).
    root = mkdtempSync('/var/tmp/vstest-bkr-');
    chmodSync(root, 0o755);
    tf = new TfWorkdir(PREFIX);
    tf.watchConsoles(consoleOf(FIRST), consoleOf(RESTORED));
  });

  afterAll(() => {
    teardown({ tf, prefix: PREFIX, destroy: true, also: () => rmSync(root, { recursive: true, force: true }) });
  });

  it('GIVEN a guest with the agent that wrote data WHEN backed up THEN a full backup, frozen by the agent (filesystem-consistent)', async () => {
    tf!.write(config(img, 'first'));
    tf!.init();
    apply(tf!); // returns once cloud-init finished: runcmd wrote data-a
    expect(readConsole(consoleOf(FIRST))).toContain('VSTEST-PER-INSTANCE-RAN');
    // qemu-guest-agent starts when its virtio port appears (early in the boot): connected long before cloud-init ends.
    await waitForGuestAgent(FIRST, 60);
    const full = expectOk(virtseed('backup', 'create', '--dir', root, '--json', FIRST));
    fullManifest = JSON.parse(full.stdout) as Manifest;
    expect({
      id: fullManifest.id,
      kind: fullManifest.kind,
      consistency: fullManifest.consistency,
      note: fullManifest.consistencyNote,
    }).toEqual({
      id: '0001-full',
      kind: 'full',
      consistency: 'filesystem',
      note: undefined,
    });
  });

  it('GIVEN more data written after it (through the agent) WHEN backed up again THEN an incremental on the full one, frozen, smaller', async () => {
    await guestExec(FIRST, 'echo data-b > /root/data-b && sync && echo VSTEST-WROTE-B > /dev/ttyS0');
    await waitForConsole(consoleOf(FIRST), /VSTEST-WROTE-B/, 30_000);
    const inc = expectOk(virtseed('backup', 'create', '--dir', root, '--json', FIRST));
    incManifest = JSON.parse(inc.stdout) as Manifest;
    expect([incManifest.id, incManifest.kind, incManifest.parent, incManifest.consistency]).toEqual([
      '0002-incremental',
      'incremental',
      '0001-full',
      'filesystem',
    ]);
    expect(diskBytes(incManifest)).toBeLessThan(diskBytes(fullManifest));
  });

  it('GIVEN a domain without a guest agent channel WHEN backed up THEN its manifest says crash-consistent and why', () => {
    // QEMU with an empty qcow2 disk (version 3, which checkpoints need) and nothing to boot: a backup needs no guest.
    const pool = /<path>([^<]+)<\/path>/.exec(virshOk('pool-dumpxml', 'default'))![1];
    const disk = path.join(pool, `${NO_AGENT}.qcow2`);
    expectOk(runCommand('qemu-img', ['create', '-q', '-f', 'qcow2', disk, '16M'], 60_000));
    virshOk('pool-refresh', 'default');
    const xmlFile = path.join(tf!.dir, 'noagent.xml');
    writeFileSync(
      xmlFile,
      `<domain type='qemu'><name>${NO_AGENT}</name><memory unit='MiB'>64</memory><vcpu>1</vcpu>
  <os><type arch='x86_64' machine='pc'>hvm</type></os>
  <devices><disk type='volume' device='disk'><driver name='qemu' type='qcow2'/><source pool='default' volume='${NO_AGENT}.qcow2'/><target dev='vda' bus='virtio'/></disk></devices></domain>`,
    );
    virshOk('define', xmlFile);
    virshOk('start', NO_AGENT);
    const r = expectOk(virtseed('backup', 'create', '--dir', root, '--json', NO_AGENT));
    const m = JSON.parse(r.stdout) as Manifest;
    expect([m.id, m.consistency, m.consistencyNote]).toEqual(['0001-full', 'crash', 'the domain has no guest agent channel']);
    virshOk('destroy', NO_AGENT);
    virshOk('undefine', NO_AGENT, '--checkpoints-metadata');
    virshOk('vol-delete', '--pool', 'default', `${NO_AGENT}.qcow2`);
  });

  it('GIVEN the guest and its disks destroyed WHEN a volume restores the incremental THEN the plan names the chain, the bytes and the instance-id', () => {
    tf!.write(config(img, 'gone'));
    apply(tf!); // undefines a domain that has the backups' checkpoints
    expect(virshOk('list', '--all', '--name')).not.toContain(FIRST);
    expect(virshOk('vol-list', '--pool', 'default')).not.toMatch(new RegExp(`${PREFIX}-(root|base)\\.qcow2`));
    tf!.write(config(img, 'restored', incDir()));
    const plan = tf!.planJson();
    const change = plannedChange(plan, 'virtseed_volume.restored');
    expect(change.actions).toEqual(['create']);
    expect(change.after).toMatchObject({
      restore_chain: ['0001-full', '0002-incremental'],
      restore_instance_id: IID,
      restore_disk: 'vda',
      format: 'qcow2',
    });
    expect((change.after as { restore_bytes: number }).restore_bytes).toBe(diskBytes(fullManifest) + diskBytes(incManifest));
    // The seed keeps its instance-id: taken from the backup at plan time, it is the one it has.
    expect(findChange(plan, 'virtseed_cloudinit_seed.seed')?.actions ?? ['no-op']).toEqual(['no-op']);
  });

  it('GIVEN that plan WHEN applied THEN the new guest boots with both writes and the same instance-id, and per-instance runcmd does not run again', async () => {
    const started = Date.now();
    apply(tf!);
    restoreApplyS = (Date.now() - started) / 1000;
    // The per-boot script runs before cloud-init's "finished", which the apply waited for.
    const text = await waitForConsole(consoleOf(RESTORED), /VSTEST-DATA .*PREVIOUS \S+/, 30_000);
    expect(/VSTEST-DATA (.*)/.exec(text)?.[1].trim()).toBe(`data-a data-b IID ${IID} PREVIOUS ${IID}`);
    expect(text).not.toContain('VSTEST-PER-INSTANCE-RAN');
  });

  it('GIVEN the backups WHEN verified THEN intact; GIVEN a byte of the incremental corrupted THEN verify exits 1 naming the file', () => {
    expectOk(virtseed('backup', 'verify', '--dir', root, FIRST));
    const file = path.join(incDir(), 'disk-vda.qcow2');
    const bytes = readFileSync(file);
    bytes[Math.floor(bytes.length / 2)] ^= 0x01;
    writeFileSync(file, bytes);
    const bad = virtseed('backup', 'verify', '--dir', root, FIRST);
    expect({ code: bad.code, text: bad.text }).toEqual({
      code: 1,
      text: expect.stringMatching(/0002-incremental\/disk-vda\.qcow2: sha256[^\n]*\n[\s\S]*FAILED: 2 backups checked, 1 files differ/),
    });
    console.log(
      `backup figures: full ${fullManifest.jobSeconds.toFixed(1)} s, disk ${diskBytes(fullManifest)} bytes; incremental ${incManifest.jobSeconds.toFixed(1)} s, disk ${diskBytes(incManifest)} bytes; restore apply (verify, convert, upload, boot to cloud-init finished) ${restoreApplyS.toFixed(0)} s`,
    );
  });
});
