/**
 * Plan decisions as a cdktf user sees them in `cdktf diff`:
 * - examples/reprovision after the seed content changed: the new instance-id, the domain's planned
 *   `reprovision_action` and the warning with both ids (the domain is defined but not started, so its disk is a
 *   blank image: nothing reads it, and no 280 MB test image is uploaded for a plan);
 * - examples/day2 with one guest's memory raised within max_memory and the other's vCPUs changed: which change is
 *   live and which guest restarts, by warning and `change_impact`; each warning once in `terraform plan -json`. The
 *   guests run but boot nothing (a blank disk: they idle in SeaBIOS), which is all a plan needs.
 * Each stack is destroyed by `terraform destroy` in its synthesized folder: a plan of the state needs no new synth.
 * The terraform runs (cdktf's and the file's own, one after the other) reattach to one provider process
 * (test/helpers/reattach.ts), as the gitops pipeline's do; the managed start through cdktf is examples/basic's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanupByPrefix } from '../helpers/guest';
import { SharedProvider } from '../helpers/reattach';

const ROOT = path.resolve(__dirname, '..', '..');
/**
 * This file's own synth output: cdktf empties its output folder at every synth, so the checkout's `cdktf.out` would
 * pull the stack folder away from under another test's `cdktf deploy` running beside this one (examples/basic).
 */
const OUT = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-cdktf-diff-'));
/** A blank 64 MiB qcow2 (beside OUT, which each synth empties): the examples' base image (no guest of this file
 *  boots an OS). */
const IMAGES = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-cdktf-diff-img-'));
const BLANK = path.join(IMAGES, 'blank.qcow2');
beforeAll(() => execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', BLANK, '64M']));
afterAll(() => {
  shared.stop();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.rmSync(IMAGES, { recursive: true, force: true });
});

/** The provider process every terraform run of this file reattaches to (started at the first run; in IMAGES, a
 *  folder no synth empties), or none when reattaching is off (VIRTSEED_TEST_MANAGED_PROVIDER=1). */
const shared = new SharedProvider(() => IMAGES);

/**
 * `cdktf ARGS STACK` in the checkout (its node_modules/.bin/cdktf: no npx lookup). cdktf sets TF_PLUGIN_CACHE_DIR to
 * ~/.terraform.d/plugin-cache unless CDKTF_DISABLE_PLUGIN_CACHE_ENV is set: that cache is shared by every checkout
 * on the machine (it would link another checkout's provider build), so it is off and terraform installs from this
 * checkout's mirror.
 */
function cdktf(args: string[], env: NodeJS.ProcessEnv, stack = 'reprovision'): { code: number; out: string } {
  const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'cdktf'), [...args, stack, '--skip-provider-lock', '--output', OUT], {
    cwd: ROOT,
    env: ownEnv(env),
    encoding: 'utf8',
    timeout: 600_000,
  });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '') + shared.deathReport() };
}

/** `env` without the machine-wide plugin cache (see cdktf), reattaching terraform to the file's provider process. */
function ownEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own: NodeJS.ProcessEnv = { ...env, CDKTF_DISABLE_PLUGIN_CACHE_ENV: '1', ...shared.env() };
  delete own.TF_PLUGIN_CACHE_DIR;
  return own;
}

/** `terraform destroy` of a deployed stack in its synthesized folder (its backend and providers are there: no new
 *  synth); throws with terraform's output when it fails. Nothing to do when the stack was never synthesized. */
function destroyStack(stack: string, env: NodeJS.ProcessEnv): void {
  const cwd = path.join(OUT, 'stacks', stack);
  if (!fs.existsSync(path.join(cwd, '.terraform'))) return;
  const r = spawnSync('terraform', ['destroy', '-auto-approve', '-input=false', '-no-color'], {
    cwd,
    env: ownEnv(env),
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (r.status !== 0)
    throw new Error(`terraform destroy (stack ${stack}) exited ${r.status}:\n${r.stdout}${r.stderr}${shared.deathReport()}`);
}

describe('cdktf diff shows the re-provision decision', () => {
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    CI: '1',
    VIRTSEED_EXAMPLE: 'reprovision',
    VIRTSEED_IMAGE: BLANK,
    VIRTSEED_RUNNING: 'false',
  };

  afterAll(() => destroyStack('reprovision', base));

  test('GIVEN a deployed VM WHEN its cloud-config changes THEN cdktf diff shows reboot with both instance-ids', () => {
    const deployed = cdktf(['deploy', '--auto-approve'], { ...base, VIRTSEED_MESSAGE: 'first' });
    if (deployed.code !== 0) throw new Error(`cdktf deploy reprovision failed:\n${deployed.out}`);
    const first = /instance_id = (iid-[0-9a-f]{16})/.exec(deployed.out)?.[1];
    expect(first).toBeDefined();

    const diff = cdktf(['diff'], { ...base, VIRTSEED_MESSAGE: 'second' });
    if (diff.code !== 0) throw new Error(`cdktf diff reprovision failed:\n${diff.out}`);
    expect(diff.out).toMatch(/Guest virtseed-reprovision will be re-provisioned \(reboot\)/);
    expect(diff.out).toContain(`instance-id ${first} →`);
    expect(diff.out).toMatch(/reprovision_action\s+= "none" -> "reboot"/);
    expect(diff.out).toMatch(new RegExp(`previous_instance_id\\s+= "${first}"`));
  }, 900_000);
});

describe('cdktf diff shows which guest restarts and which change is live', () => {
  const PREFIX = 'vstest-day2-diff';
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    CI: '1',
    VIRTSEED_EXAMPLE: 'day2',
    VIRTSEED_IMAGE: BLANK,
    VIRTSEED_PREFIX: PREFIX,
  };
  const changed = { ...base, VIRTSEED_WEB_MEMORY: '768', VIRTSEED_DB_VCPUS: '2' };
  const expectOk = (r: { code: number; out: string }, what: string) => {
    if (r.code !== 0) throw new Error(`${what} exited ${r.code}:\n${r.out}`);
  };

  beforeAll(() => cleanupByPrefix(PREFIX));

  afterAll(() => {
    try {
      destroyStack('day2', base);
    } finally {
      cleanupByPrefix(PREFIX);
    }
  });

  test('GIVEN two running guests WHEN one gets more memory within max_memory and the other a vCPU THEN cdktf diff says which is live and which restarts, each warning once', () => {
    expectOk(cdktf(['deploy', '--auto-approve'], base, 'day2'), 'cdktf deploy day2');

    const diff = cdktf(['diff'], changed, 'day2');
    expectOk(diff, 'cdktf diff day2');
    const text = diff.out.replace(/\s+/g, ' ');
    expect(text).toContain(`Domain ${PREFIX}-web changes live (no restart)`);
    expect(text).toContain(`${PREFIX}-web: memory 512 → 768 MiB (live: within max_memory 1024)`);
    expect(text).toContain(`Domain ${PREFIX}-db restarts`);
    expect(text).toContain(`${PREFIX}-db: vcpu 1 → 2 (restart: type = "qemu")`);
    expect(diff.out).toMatch(/change_impact\s+= "none" -> "live"/);
    expect(diff.out).toMatch(/change_impact\s+= "none" -> "restart"/);

    // The same plan through Terraform's machine-readable output: each domain's warning exactly once.
    const stackDir = path.join(OUT, 'stacks', 'day2');
    const r = spawnSync('terraform', ['plan', '-json', '-input=false', '-lock=false'], {
      cwd: stackDir,
      env: { ...changed, ...shared.env() },
      encoding: 'utf8',
    });
    if (r.status !== 0 && r.status !== 2)
      throw new Error(`terraform plan -json exited ${r.status}:\n${r.stdout}${r.stderr}${shared.deathReport()}`);
    const warnings = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; diagnostic?: { severity: string; summary: string } })
      .filter((m) => m.type === 'diagnostic' && m.diagnostic?.severity === 'warning')
      .map((m) => m.diagnostic?.summary);
    expect(warnings.filter((w) => w === `Domain ${PREFIX}-web changes live (no restart)`)).toHaveLength(1);
    expect(warnings.filter((w) => w === `Domain ${PREFIX}-db restarts`)).toHaveLength(1);
  }, 900_000);
});
