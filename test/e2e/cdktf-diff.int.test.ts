/**
 * The re-provision decision as a cdktf user sees it: `cdktf diff` of examples/reprovision after the seed content
 * changed shows the new instance-id, the domain's planned `reprovision_action` and the warning with both ids.
 * The domain is defined but not started (a boot proves nothing here).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { testImage } from '../helpers/guest';

const ROOT = path.resolve(__dirname, '..', '..');

function cdktf(args: string[], env: NodeJS.ProcessEnv): { code: number; out: string } {
  const r = spawnSync('npx', ['cdktf', ...args, 'reprovision', '--skip-provider-lock'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 600_000,
  });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '') };
}

describe('cdktf diff shows the re-provision decision', () => {
  const img = testImage();
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    CI: '1',
    VIRTSEED_EXAMPLE: 'reprovision',
    VIRTSEED_IMAGE: img.image,
    VIRTSEED_RUNNING: 'false',
  };

  afterAll(() => {
    cdktf(['destroy', '--auto-approve'], { ...base, VIRTSEED_MESSAGE: 'first' });
  });

  test('GIVEN a deployed VM WHEN its cloud-config changes THEN cdktf diff shows reboot with both instance-ids', () => {
    const deployed = cdktf(['deploy', '--auto-approve'], { ...base, VIRTSEED_MESSAGE: 'first' });
    expect(deployed.code).toBe(0);
    const first = /instance_id = (iid-[0-9a-f]{16})/.exec(deployed.out)?.[1];
    expect(first).toBeDefined();

    const diff = cdktf(['diff'], { ...base, VIRTSEED_MESSAGE: 'second' });
    expect(diff.code).toBe(0);
    expect(diff.out).toMatch(/Guest virtseed-reprovision will be re-provisioned \(reboot\)/);
    expect(diff.out).toContain(`instance-id ${first} →`);
    expect(diff.out).toMatch(/reprovision_action\s+= "none" -> "reboot"/);
    expect(diff.out).toMatch(new RegExp(`previous_instance_id\\s+= "${first}"`));
  }, 900_000);
});
