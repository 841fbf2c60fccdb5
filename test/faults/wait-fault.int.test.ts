/**
 * A fault during `wait_for`: libvirtd (the tests' own, never the shared system daemon) is killed and restarted
 * while a real `terraform apply` waits for cloud-init in a running guest. The apply fails with the domain recorded
 * as tainted; the next apply replaces it, waits for cloud-init again and converges: a following plan shows no
 * changes, libvirt holds exactly the one domain, the pool exactly the boot and seed volumes.
 * The fault and the provider's handling of it are under test, not the guest: the guest has no operating system,
 * only a boot sector (test/helpers/console-printer.ts) that prints nothing at its disk's first boot (the wait goes
 * on until the fault) and cloud-init's "finished" line at every later boot (the replacement's, on the same volume).
 * Each QEMU start runs it about a second after the start; no guest OS boots (a real cloud-init's wait is the guest
 * tests', e.g. test/e2e/seed-guest.int.test.ts).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VIR_DOMAIN_RUNNING } from '../../src/libvirt';
import { CLOUD_INIT_LINES, printerBootMarked, printerVolumeHcl, writePrinterImage } from '../helpers/console-printer';
import { TfWorkdir } from '../helpers/terraform';
import { OwnLibvirtd } from './own-libvirtd';

jest.setTimeout(1_200_000);

const POOL = 'vstest-waitfault';
const DOMAIN = 'vstest-waitfault-d';
const BOOT_VOL = 'vstest-waitfault-boot.img';
const SEED_VOL = 'vstest-waitfault-seed.iso';

describe('libvirtd killed while an apply waits for cloud-init', () => {
  const lvd = new OwnLibvirtd('waitfault');
  const tf = new TfWorkdir('waitfault', {}, { managed: 'kills libvirtd under the provider terraform started, as a user would see it' });
  /** The boot sector's mark of a first boot, in the volume's file. */
  const bootMarked = (): boolean => printerBootMarked(path.join(lvd.poolDir, BOOT_VOL));

  function hcl(): void {
    const printer = writePrinterImage(path.join(tf.dir, 'boot.img'), {
      first: '',
      later: CLOUD_INIT_LINES.running('modules:final') + CLOUD_INIT_LINES.finished(),
    });
    tf.write(`${printerVolumeHcl('boot', { pool: POOL, name: BOOT_VOL, file: printer })}
resource "virtseed_cloudinit_seed" "seed" {
  pool     = "${POOL}"
  name     = "${SEED_VOL}"
  hostname = "waitfault"
}
resource "virtseed_domain" "d" {
  name             = "${DOMAIN}"
  memory           = 64
  type             = "qemu"
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id      = virtseed_cloudinit_seed.seed.instance_id
  wait_for         = "cloud-init"
  wait_timeout     = 60
  disk { volume_id = virtseed_volume.boot.id }
}
`);
    // The provider block of the helper connects to the system daemon: point it at ours instead.
    const main = path.join(tf.dir, 'main.tf');
    fs.writeFileSync(
      main,
      fs.readFileSync(main, 'utf8').replace('provider "virtseed" {}', `provider "virtseed" {\n  uri = "${lvd.uri}"\n}`),
    );
  }

  /** Whether the guest runs (its CPUs resumed). */
  async function running(): Promise<boolean> {
    const c = await lvd.client();
    try {
      const dom = (await c.connectListAllDomains()).find((d) => d.name === DOMAIN);
      return dom !== undefined && (await c.domainGetState(dom)).state === VIR_DOMAIN_RUNNING;
    } finally {
      await c.close();
    }
  }

  beforeAll(async () => {
    await lvd.start();
    await lvd.createPool(POOL);
    hcl();
    tf.init();
  });

  afterAll(async () => {
    await tf.run(['destroy', '-auto-approve', '-input=false']);
    await lvd.stop();
    lvd.dispose();
    tf.dispose();
  });

  it('GIVEN an apply waiting for cloud-init WHEN libvirtd is killed and restarted THEN the apply fails and the next one converges', async () => {
    const child = spawn('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], {
      cwd: tf.dir,
      env: { ...process.env, CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const done = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));

    // The wait is under way once the guest runs (the provider starts it paused, opens the console, resumes it), and
    // its first boot has been seen once the boot sector marked the disk (so the replacement boots as a later boot).
    const start = Date.now();
    while (!(await running()) || !bootMarked()) {
      if (child.exitCode !== null) throw new Error(`terraform ended before the wait:\n${out}`);
      if (Date.now() - start > 600_000) throw new Error(`the guest never ran or never marked its disk:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect({ exited: child.exitCode, out: child.exitCode === null ? '' : out }).toEqual({ exited: null, out: '' });
    await lvd.signal('SIGKILL');
    await lvd.start();
    expect(await done).not.toBe(0);
    // The lost connection ends the wait (the console stream closes) or the start itself; either way the domain is
    // returned to Terraform, which records it tainted.
    expect(out).toMatch(new RegExp(`Domain ${DOMAIN} was defined but not finished|${DOMAIN} stopped before cloud-init finished`));
    expect(out).toMatch(/recorded as\s+tainted/);

    const second = tf.run(['apply', '-auto-approve', '-input=false']);
    if (second.code !== 0) throw new Error(`the apply after the fault did not converge:\n${second.out}`);
    expect(second.out).toMatch(/virtseed_domain\.d.*(replaced|Destruction complete)/s);
    const plan = tf.plan();
    expect({ planExit: plan.code, out: plan.code === 0 ? '' : plan.out }).toEqual({ planExit: 0, out: '' });
    expect(await lvd.listing(POOL)).toEqual({ volumes: [BOOT_VOL, SEED_VOL].sort(), domains: [DOMAIN] });
  });
});
