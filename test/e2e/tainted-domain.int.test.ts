/**
 * Issue 27.1: a domain whose create failed after its definition is recorded tainted by Terraform, and from there
 * the next plan replaces it, the next apply converges and `terraform destroy` removes it — for each way the create
 * can fail after the define that a real run can produce here:
 *   1. the wait times out (`wait_timeout` = 2 s of console silence): destroy from the tainted state;
 *   2. terraform is interrupted (SIGINT → StopProvider) while it waits: the next plan replaces;
 *   3. cloud-init reports a failed module (bootcmd): with the user-data fixed, the next plan replaces and the next
 *      apply converges.
 * The fourth way, a lost connection (libvirtd killed mid-wait), is test/faults/wait-fault.int.test.ts.
 * What fails or ends the waits is the wait's outcome, not the guest: the guests have no operating system, only a
 * boot sector that prints the console a test wants (test/helpers/console-printer.ts), running about a second after
 * QEMU starts — nothing in 1 and 2 (a silent console), in 3 the lines cloud-init prints when bootcmd fails, and for
 * the fixed user-data the lines of a cloud-init that finished. The file boots no guest OS. That a real cloud-init's
 * failing bootcmd ends the wait so is test/e2e/snapshot-before.int.test.ts's (its BIOS guest); a real cloud-init
 * finishing under `merge_overwrite` (issue 27.3) and its multi-line warning reaching the apply (27.6) are
 * test/e2e/seed-guest.int.test.ts's (its ConfigDrive guest).
 * Terraform plans a tainted object with no prior state (PlanResourceChange prior null), so the plan's "name taken"
 * check sees the tainted domain itself: these runs fail with "Domain exists already" unless the domain is known as
 * one a failed create of virtseed's left.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { cleanupByPrefix, domainExists, virshRun } from '../helpers/guest';
import { CLOUD_INIT_LINES, printerVolumeHcl, writePrinterImage } from '../helpers/console-printer';
import { TfResult, TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(600_000);

const PREFIX = 'vstest-defects-taint-';
const NAME = `${PREFIX}vm`;
let tf: TfWorkdir;

/** HCL heredoc of raw user-data (no `${` or `%{` may appear). */
function heredoc(text: string): string {
  if (/[$%]\{/.test(text)) throw new Error('template sequence in heredoc');
  return `<<-EOT\n${text}\nEOT`;
}

/**
 * The guest of each step, a console printer with no OS: nothing (`silent`), cloud-init's lines of a failed bootcmd
 * (`bootcmd-fails`), or of a final stage that finished (`fixed`). The seed holds the failing or the fixed user-data,
 * which no cloud-init reads; the fixed one differs, so the seed and the domain are replaced.
 */
type Guest = 'silent' | 'bootcmd-fails' | 'fixed';

const PRINTED: Record<Guest, string> = {
  silent: '',
  'bootcmd-fails': CLOUD_INIT_LINES.running('init') + CLOUD_INIT_LINES.moduleFailed('bootcmd'),
  fixed: CLOUD_INIT_LINES.running('modules:final') + CLOUD_INIT_LINES.finished(),
};

function config(guest: Guest, waitTimeoutS: number): string {
  const userData = guest === 'fixed' ? FIXED : FAILING;
  const printer = writePrinterImage(path.join(tf.dir, `${guest}.img`), { first: PRINTED[guest] });
  return `
${printerVolumeHcl('printer', { pool: 'default', name: `${PREFIX}printer-${guest}.img`, file: printer })}
resource "virtseed_cloudinit_seed" "seed" {
  pool      = "default"
  name      = "${PREFIX}seed.iso"
  hostname  = "taint"
  user_data = ${heredoc(userData)}
}
resource "virtseed_domain" "vm" {
  name              = "${NAME}"
  type              = "qemu"
  memory            = 64
  disk { volume_id = virtseed_volume.printer.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  wait_for          = "cloud-init"
  wait_timeout      = ${waitTimeoutS}
}
`;
}

const FAILING = '#cloud-config\nbootcmd:\n  - [sh, -c, "echo VSTEST-BOOTCMD; exit 1"]\n';
const FIXED = '#cloud-config\nbootcmd:\n  - [sh, -c, "echo VSTEST-BOOTCMD-FIXED > /dev/ttyS0"]\n';

/** Whether the state records the domain tainted (`terraform show -json` of the state). */
function tainted(): boolean {
  const shown = JSON.parse(tf.ok(['show', '-json']));
  const found = (shown.values?.root_module?.resources ?? []).find((r: { address: string }) => r.address === 'virtseed_domain.vm');
  if (!found) throw new Error(`no virtseed_domain.vm in state:\n${JSON.stringify(shown)}`);
  return found.tainted === true;
}

/** Expects a plan that replaces the tainted domain (exit 2), with its output on failure. */
function expectReplacePlan(): TfResult {
  const plan = tf.plan();
  if (plan.code !== 2 || !/virtseed_domain\.vm is tainted, so must be replaced/.test(plan.out))
    throw new Error(`the plan does not replace the tainted domain (exit ${plan.code}):\n${plan.out}`);
  return plan;
}

/** Whether the domain runs (virsh domstate). */
function running(): boolean {
  return virshRun('domstate', NAME).trim() === 'running';
}

beforeAll(() => {
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('taint');
  tf.write(config('silent', 2));
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true }));

test('GIVEN a create whose wait times out WHEN the domain is tainted THEN the next plan replaces it and destroy removes it', () => {
  const r = tf.run(['apply', '-auto-approve', '-input=false']);
  expect(r.code).toBe(1);
  // wait_timeout bounds console silence (2 s): the printer prints nothing.
  expect(r.out).toMatch(/cloud-init did not finish on vstest-defects-taint-vm: no console output for 2 s/);
  expect(tainted()).toBe(true);
  expectReplacePlan();
  const destroyed = tf.run(['destroy', '-auto-approve', '-input=false']);
  if (destroyed.code !== 0) throw new Error(`destroy from the tainted state failed:\n${destroyed.out}`);
  expect(domainExists(NAME)).toBe(false);
});

test('GIVEN an apply waiting for cloud-init WHEN terraform is interrupted THEN the domain is tainted and the next plan replaces it', async () => {
  // A minute of silence is far beyond the interrupt, 2 s after the guest runs.
  tf.write(config('silent', 60));
  const child = spawn('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], {
    cwd: tf.dir,
    env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const done = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const start = Date.now();
  // The wait is under way once the guest runs (started paused, console opened, resumed).
  while (!running()) {
    if (child.exitCode !== null) throw new Error(`terraform ended before the wait:\n${out}`);
    if (Date.now() - start > 600_000) throw new Error(`the guest never ran:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 2000));
  child.kill('SIGINT');
  const code = await done;
  if (code === 0 || !/Terraform was interrupted while waiting for cloud-init/.test(out))
    throw new Error(`the interrupted apply did not fail as interrupted (exit ${code}):\n${out}`);
  expect(tainted()).toBe(true);
  expectReplacePlan();
});

test('GIVEN user-data whose bootcmd fails WHEN the create fails and the user-data is fixed THEN the next plan replaces the tainted domain and the next apply converges', () => {
  tf.write(config('bootcmd-fails', 60));
  const failed = tf.run(['apply', '-auto-approve', '-input=false']);
  if (failed.code !== 1 || !/cloud-init module bootcmd failed on vstest-defects-taint-vm/.test(failed.out))
    throw new Error(`the apply did not fail on bootcmd (exit ${failed.code}):\n${failed.out}`);
  expect(tainted()).toBe(true);
  expectReplacePlan(); // still failing user-data: the tainted domain is replaced all the same

  tf.write(config('fixed', 60));
  const uuidBefore = virshRun('domuuid', NAME).trim();
  expectReplacePlan();
  const fixed = tf.run(['apply', '-auto-approve', '-input=false']);
  if (fixed.code !== 0) throw new Error(`the apply with the fixed user-data did not converge:\n${fixed.out}`);
  expect(fixed.out).toMatch(/virtseed_domain\.vm: Destruction complete/);
  expect(tainted()).toBe(false);
  expect(virshRun('domuuid', NAME).trim()).not.toBe(uuidBefore);
  const plan = tf.plan();
  if (plan.code !== 0) throw new Error(`the plan after converging is not empty (exit ${plan.code}):\n${plan.out}`);
});
