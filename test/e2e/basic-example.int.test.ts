/**
 * The README's main job, as a user runs it: `cdktf deploy` of examples/basic through real Terraform, our provider
 * and the real libvirtd creates its own storage pool (directory and all: nothing is prepared on the host) and an
 * isolated network, and boots a guest on them; the deploy returns once the guest's serial console shows cloud-init
 * finished with the hostname and the runcmd marker from the seed, and outputs the guest's DHCP address, with no
 * cloud-init warning and no error in cloud-init's result.json (read from the guest's disk after a clean shutdown);
 * `cdktf destroy` then leaves no domain, volume, pool (nor its directory) or network behind.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CLOUD_INIT_FINISHED,
  consoleSize,
  domainExists,
  readConsole,
  testImage,
  virshRun,
  volumeNames,
  waitForConsole,
} from '../helpers/guest';
import { cloudInitErrors, readGuestFiles } from '../helpers/guest-disk';
import { networkNames } from '../helpers/network';
import { poolInfo, poolNames, poolVolumes } from '../helpers/pool';
import { BASIC_POOL_DIR } from '../../examples/basic/stack';

const ROOT = path.resolve(__dirname, '..', '..');
const NAME = 'virtseed-basic';
/** cloud-init's result (/run/cloud-init/result.json links to it), read from the guest's disk after the deploy. */
const RESULT_JSON = '/var/lib/cloud/data/result.json';

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
    // cdktf otherwise links providers from ~/.terraform.d/plugin-cache, which other checkouts fill with their builds.
    CDKTF_DISABLE_PLUGIN_CACHE_ENV: '1',
    CI: '1',
    VIRTSEED_IMAGE: img.image,
  };

  // The lock file of an earlier run pins an earlier build of the provider; this run tests the checkout's own.
  beforeAll(() => fs.rmSync(path.join(ROOT, 'cdktf.out', 'stacks', 'basic', '.terraform.lock.hcl'), { force: true }));

  afterAll(() => {
    if (domainExists(NAME) || volumeNames(NAME).length || networkNames(NAME).length || poolNames(NAME).length) cdktf('destroy', env);
  });

  test('GIVEN the basic example WHEN cdktf deploy THEN the guest runs cloud-init from our seed, and destroy removes everything', async () => {
    const started = Date.now();
    const log = '/var/log/libvirt/qemu/virtseed-basic-console.log';
    // Each start appends to the console log: this boot's output begins where the file ends now.
    const from = consoleSize(log);
    const deployed = cdktf('deploy', env);
    if (deployed.code !== 0) throw new Error(`cdktf deploy basic failed:\n${deployed.out}`);
    expect(deployed.out).toMatch(/console_log = \/var\/log\/libvirt\/qemu\/virtseed-basic-console\.log/);
    expect(domainExists(NAME)).toBe(true);
    // The example's own pool runs, in the directory its start made, and holds the guest's volumes.
    expect(poolInfo(NAME)).toMatchObject({ State: 'running', Autostart: 'yes' });
    expect(fs.statSync(BASIC_POOL_DIR).isDirectory()).toBe(true);
    expect(poolVolumes(NAME)).toEqual([`${NAME}-base`, `${NAME}-root`, `${NAME}-seed`]);

    // The deploy waited for cloud-init (WaitFor.CLOUD_INIT): the finished line is there the moment it returned.
    expect(readConsole(log, from)).toMatch(CLOUD_INIT_FINISHED);
    // The guest's DHCP lease on the example's isolated network is its address output.
    const ip = /ip_address = "?(10\.213\.99\.\d+)"?/.exec(deployed.out)?.[1];
    expect({ ip, out: ip ? '' : deployed.out }).toEqual({ ip: expect.stringMatching(/^10\.213\.99\.1\d\d$/), out: '' });
    expect(virshRun('net-dhcp-leases', NAME)).toContain(ip);
    const text = await waitForConsole(log, CLOUD_INIT_FINISHED, 600_000, from);
    process.stdout.write(`basic example: deploy start to cloud-init finished: ${Math.round((Date.now() - started) / 1000)} s\n`);
    expect(text).toMatch(/VIRTSEED_BASIC_OK virtseed-basic/);
    expect(text).toMatch(/Datasource DataSourceNoCloud/);
    // cloud-init finished clean: no warning from the wait (a real one must stand out), no error in its result.
    expect(deployed.out).not.toMatch(/reported a problem/);
    const result = (await readGuestFiles(NAME, [RESULT_JSON]))[RESULT_JSON];
    expect({ errors: cloudInitErrors(result), result }).toEqual({ errors: [], result: expect.any(String) });

    const destroyed = cdktf('destroy', env);
    expect(destroyed.code).toBe(0);
    expect(domainExists(NAME)).toBe(false);
    expect(volumeNames(NAME)).toEqual([]);
    expect(networkNames(NAME)).toEqual([]);
    expect(poolNames(NAME)).toEqual([]);
    expect(fs.existsSync(BASIC_POOL_DIR)).toBe(false);
  }, 1_200_000);
});
