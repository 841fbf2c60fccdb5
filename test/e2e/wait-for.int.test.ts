/**
 * `wait_for = "cloud-init"` with real Terraform and one real guest (NoCloud seed, QEMU user networking with
 * restrict=on), in sequence on the same domain:
 *   1. a new guest: apply returns only after cloud-init's "finished" line of this boot is on the console;
 *   2. a re-provision by reboot: apply returns after cloud-init finished on the NEW instance-id;
 *   3. a re-provision whose runcmd fails: apply fails with a diagnostic naming cloud-init's module and message, the
 *      domain stays in state (the next plan is empty);
 *   4. a new guest from a ConfigDrive seed: apply returns after cloud-init finished from DataSourceConfigDrive.
 * "Before apply returned" is checked on the console log file itself, read the moment terraform exits (QEMU writes
 * the log before the pty data reaches libvirt's stream; libvirt truncates the log at every domain start, so it holds
 * this boot only). A timestamping `tail -F` child (ConsoleCapture) measures when cloud-init's own "finished" line
 * appeared relative to the apply (within its 0.1 s poll).
 */
import { CLOUD_INIT_FINISHED, cleanupByPrefix, imageVolumesHcl, readConsole, testImage, TestImage } from '../helpers/guest';
import { ConsoleCapture, StampedLine } from '../helpers/console-capture';
import { TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(1_800_000);

const PREFIX = 'vstest-wait-';
const NAME = `${PREFIX}vm`;
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;

let img: TestImage;
let tf: TfWorkdir;
let capture: ConsoleCapture;

/** HCL heredoc of a JSON value (cloud_config accepts JSON; no `${` or `%{` may appear). */
function heredoc(value: unknown): string {
  const json = JSON.stringify(value, null, 2);
  if (/[$%]\{/.test(json)) throw new Error('template sequence in heredoc');
  return `<<-EOT\n${json}\nEOT`;
}

function config(iid: string, runcmd: string[], format = 'nocloud'): string {
  return `
${imageVolumesHcl(img, `${PREFIX}base.qcow2`, { root: `${PREFIX}root.qcow2` })}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}seed.iso"
  hostname     = "waitguest"
  instance_id  = "${iid}"
  format       = "${format}"
  cloud_config = ${heredoc({ runcmd })}
}
resource "virtseed_domain" "vm" {
  name   = "${NAME}"
  memory = 512
  disk { volume_id = virtseed_volume.root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  shutdown_timeout  = 90
  wait_for          = "cloud-init"
  wait_timeout      = 900
  network_interface { user = true }
}
`;
}

/** The guest prints the instance-id cloud-init is on, from its runcmd. */
const PRINT_IID = 'echo "VSTEST-IID $(cat /var/lib/cloud/data/instance-id)" > /dev/ttyS0';

interface Timed {
  readonly code: number;
  readonly out: string;
  readonly startMs: number;
  readonly endMs: number;
  /** The console log file as it was when terraform exited. */
  readonly consoleAtEnd: string;
}

function timedApply(): Timed {
  const startMs = Date.now();
  const r = tf.run(['apply', '-auto-approve', '-input=false'], 1_200_000);
  const endMs = Date.now();
  return { ...r, startMs, endMs, consoleAtEnd: readConsole(LOG) };
}

/** The instance-ids the guest printed (`VSTEST-IID <id>`), in order. The serial console may interleave the line with
 *  the guest's other output, so it is found anywhere in a line. */
function printedIids(lines: StampedLine[]): string[] {
  return lines.flatMap((l) => [...l.text.matchAll(/VSTEST-IID (\S+)/g)].map((m) => m[1]));
}

function finishedLines(lines: StampedLine[]): StampedLine[] {
  return lines.filter((l) => CLOUD_INIT_FINISHED.test(l.text));
}

/** Reports the wait's overhead: apply start → cloud-init's "finished" line vs apply start → apply end. */
function report(label: string, r: Timed, finished: StampedLine): void {
  console.log(
    `wait-for ${label}: apply start → cloud-init finished ${((finished.ms - r.startMs) / 1000).toFixed(1)} s; ` +
      `apply start → apply end ${((r.endMs - r.startMs) / 1000).toFixed(1)} s; overhead ${((r.endMs - finished.ms) / 1000).toFixed(2)} s`,
  );
}

beforeAll(() => {
  img = testImage();
  cleanupByPrefix(PREFIX);
  capture = new ConsoleCapture(LOG);
  tf = new TfWorkdir('wait-for');
  tf.write(config('iid-wait-1', [PRINT_IID, 'echo VSTEST-M1 > /dev/ttyS0']));
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true, also: () => capture?.dispose() }));

test('GIVEN wait_for = "cloud-init" WHEN a new guest is applied THEN apply returns after cloud-init\'s finished line of this boot, and the marker is on the console', async () => {
  const r = timedApply();
  if (r.code !== 0)
    throw new Error(
      `apply failed:\n${r.out}\nconsole:\n${capture
        .lines()
        .slice(-40)
        .map((l) => l.text)
        .join('\n')}`,
    );
  expect(r.consoleAtEnd).toMatch(/VSTEST-M1[\s\S]*Cloud-init v\. \S+ finished at .*Datasource DataSourceNoCloud/);
  await new Promise((res) => setTimeout(res, 300)); // the tail's poll interval
  const lines = capture.since(r.startMs);
  const fin = finishedLines(lines);
  expect(fin).toHaveLength(1);
  const marker = lines.find((l) => l.text.includes('VSTEST-M1'));
  expect(marker?.ms).toBeLessThanOrEqual(fin[0].ms);
  expect(printedIids(lines)).toEqual(['iid-wait-1']);
  report('nocloud create', r, fin[0]);
  expect(tf.resource('virtseed_domain.vm').wait_for).toBe('cloud-init');
  expect(tf.plan().code).toBe(0);
});

test('GIVEN wait_for = "cloud-init" and reprovision = "reboot" WHEN the instance-id changes THEN apply returns after cloud-init finished on the new instance-id', async () => {
  tf.write(config('iid-wait-2', [PRINT_IID, 'echo VSTEST-M2 > /dev/ttyS0']));
  const r = timedApply();
  if (r.code !== 0) throw new Error(`apply failed:\n${r.out}`);
  // The log holds the new boot only; at apply end cloud-init had finished there, after printing the new instance-id.
  expect(r.consoleAtEnd).toMatch(/VSTEST-IID iid-wait-2[\s\S]*Cloud-init v\. \S+ finished at/);
  await new Promise((res) => setTimeout(res, 300));
  const lines = capture.since(r.startMs);
  const fin = finishedLines(lines);
  // Only the new boot's line: the old boot's "finished" line (before this apply) never counted.
  expect(fin).toHaveLength(1);
  expect(printedIids(lines)).toEqual(['iid-wait-2']);
  expect(lines.some((l) => /reboot: Power down/.test(l.text))).toBe(true);
  report('nocloud reprovision (reboot)', r, fin[0]);
  expect(tf.resource('virtseed_domain.vm').instance_id).toBe('iid-wait-2');
  expect(tf.plan().code).toBe(0);
});

test('GIVEN a seed whose runcmd fails WHEN applied with wait_for = "cloud-init" THEN apply fails with cloud-init\'s module and message, and the domain stays in state', async () => {
  tf.write(config('iid-wait-3', ['echo VSTEST-M3 > /dev/ttyS0', 'exit 3']));
  const r = timedApply();
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/Error: cloud-init module scripts-user failed on vstest-wait-vm/);
  expect(r.out).toMatch(/Failed to run module scripts-user/);
  expect(r.consoleAtEnd).toMatch(/VSTEST-M3[\s\S]*Cloud-init v\. \S+ finished at/);
  const state = tf.resource('virtseed_domain.vm');
  expect(state.instance_id).toBe('iid-wait-3');
  // The domain is in state and up to date: nothing left to do until the seed changes.
  const plan = tf.plan();
  if (plan.code !== 0) throw new Error(`plan after the failed provisioning is not empty (exit ${plan.code}):\n${plan.out}`);
});

test('GIVEN a ConfigDrive seed WHEN a new guest is applied with wait_for = "cloud-init" THEN apply returns after cloud-init finished from ConfigDrive', async () => {
  tf.ok(['destroy', '-auto-approve', '-input=false', '-target=virtseed_domain.vm']);
  tf.write(config('iid-wait-4', [PRINT_IID, 'echo VSTEST-M4 > /dev/ttyS0'], 'configdrive'));
  const r = timedApply();
  if (r.code !== 0)
    throw new Error(
      `apply failed:\n${r.out}\nconsole:\n${capture
        .lines()
        .slice(-40)
        .map((l) => l.text)
        .join('\n')}`,
    );
  expect(r.consoleAtEnd).toMatch(/VSTEST-M4[\s\S]*Cloud-init v\. \S+ finished at .*Datasource DataSourceConfigDrive/);
  await new Promise((res) => setTimeout(res, 300));
  const lines = capture.since(r.startMs);
  const fin = finishedLines(lines);
  expect(fin).toHaveLength(1);
  expect(printedIids(lines)).toEqual(['iid-wait-4']);
  report('configdrive create', r, fin[0]);
  expect(tf.plan().code).toBe(0);
});
