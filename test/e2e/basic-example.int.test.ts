/**
 * The README's main job, as a user runs it: `cdktf deploy` of examples/basic through real Terraform, our provider
 * and the real libvirtd boots a guest whose serial console shows cloud-init finished with the hostname and the
 * runcmd marker from the seed; `cdktf destroy` then leaves no domain and no volume behind.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { CLOUD_INIT_FINISHED, domainExists, testImage, volumeNames, waitForConsole } from '../helpers/guest';

const ROOT = path.resolve(__dirname, '..', '..');
const NAME = 'virtseed-basic';

function cdktf(verb: 'deploy' | 'destroy', env: NodeJS.ProcessEnv): { code: number; out: string } {
  const r = spawnSync('npx', ['cdktf', verb, 'basic', '--auto-approve', '--skip-provider-lock'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 900_000,
  });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describe('examples/basic with cdktf', () => {
  const img = testImage();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    CI: '1',
    VIRTSEED_IMAGE: img.image,
  };

  afterAll(() => {
    if (domainExists(NAME) || volumeNames(NAME).length) cdktf('destroy', env);
  });

  test('GIVEN the basic example WHEN cdktf deploy THEN the guest runs cloud-init from our seed, and destroy removes everything', async () => {
    const started = Date.now();
    const deployed = cdktf('deploy', env);
    expect(deployed.out).toMatch(/console_log = \/var\/log\/libvirt\/qemu\/virtseed-basic-console\.log/);
    expect(deployed.code).toBe(0);
    expect(domainExists(NAME)).toBe(true);

    const log = '/var/log/libvirt/qemu/virtseed-basic-console.log';
    const text = await waitForConsole(log, CLOUD_INIT_FINISHED, 600_000);
    process.stdout.write(`basic example: deploy start to cloud-init finished: ${Math.round((Date.now() - started) / 1000)} s\n`);
    expect(text).toMatch(/VIRTSEED_BASIC_OK virtseed-basic/);
    expect(text).toMatch(/Datasource DataSourceNoCloud/);

    const destroyed = cdktf('destroy', env);
    expect(destroyed.code).toBe(0);
    expect(domainExists(NAME)).toBe(false);
    expect(volumeNames(NAME)).toEqual([]);
  }, 1_200_000);
});
