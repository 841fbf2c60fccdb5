/**
 * Load: 50 domains (defined, not started), each with its own qcow2 volume, applied and destroyed with
 * `-parallelism=10` through one provider process per terraform phase (one libvirt connection each) against the tests' own libvirtd. Both
 * runs must succeed and leave libvirt exactly as the state says: 50 domains and 50 volumes, then none.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OwnLibvirtd } from './own-libvirtd';

jest.setTimeout(900_000);

const POOL = 'vstest-load';
const N = 50;

describe('50 domains with -parallelism=10 over one connection', () => {
  const lvd = new OwnLibvirtd('load');
  const work = fs.mkdtempSync('/tmp/vstest-tf-load-');
  const env = { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', NO_COLOR: '1', TF_LOG_PROVIDER: 'debug' };

  function tf(args: string[]): string {
    const r = spawnSync('terraform', [...args, '-no-color'], { cwd: work, env, encoding: 'utf8', timeout: 600_000, maxBuffer: 256 << 20 });
    if (r.status !== 0) throw new Error(`terraform ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr.slice(-20000)}`);
    return `${r.stdout}${r.stderr}`;
  }

  async function facts(): Promise<{ domains: number; volumes: number }> {
    const { domains, volumes } = await lvd.listing(POOL);
    return { domains: domains.length, volumes: volumes.length };
  }

  beforeAll(async () => {
    await lvd.start();
    await lvd.createPool(POOL);
    fs.writeFileSync(
      path.join(work, 'main.tf'),
      `terraform {
  required_providers {
    virtseed = { source = "virtseed/virtseed", version = "0.1.0" }
  }
}
provider "virtseed" {
  uri = "${lvd.uri}"
}
resource "virtseed_volume" "disk" {
  count    = ${N}
  pool     = "${POOL}"
  name     = "vstest-load-\${count.index}.qcow2"
  capacity = 16777216
}
resource "virtseed_domain" "vm" {
  count   = ${N}
  name    = "vstest-load-\${count.index}"
  memory  = 64
  type    = "qemu"
  running = false
  disk { volume_id = virtseed_volume.disk[count.index].id }
}
`,
    );
    tf(['init', '-input=false']);
  });

  afterAll(async () => {
    await lvd.stop();
    lvd.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('GIVEN 50 domains and 50 volumes WHEN applied and destroyed with -parallelism=10 THEN both finish cleanly on one connection', async () => {
    const applied = tf(['apply', '-auto-approve', '-input=false', '-parallelism=10']);
    expect(applied).toContain(`Apply complete! Resources: ${2 * N} added, 0 changed, 0 destroyed.`);
    // apply runs the provider twice (plan with its host checks, then apply): one connection each
    expect(applied.match(/virtseed: connecting to /g) ?? []).toHaveLength(2);
    expect(await facts()).toEqual({ domains: N, volumes: N });
    const plan = spawnSync('terraform', ['plan', '-detailed-exitcode', '-input=false', '-no-color', '-parallelism=10'], {
      cwd: work,
      env,
      encoding: 'utf8',
    });
    expect({ code: plan.status, out: plan.status === 0 ? '' : plan.stdout }).toEqual({ code: 0, out: '' });
    const destroyed = tf(['destroy', '-auto-approve', '-input=false', '-parallelism=10']);
    expect(destroyed).toContain(`Destroy complete! Resources: ${2 * N} destroyed.`);
    // destroy runs the provider twice (plan, then apply): one connection each, never a reconnect
    expect(destroyed.match(/virtseed: connecting to /g) ?? []).toHaveLength(2);
    expect(`${applied}${destroyed}`).not.toContain('connecting again');
    expect(await facts()).toEqual({ domains: 0, volumes: 0 });
  });
});
