/**
 * Secrets stay secret: with TF_LOG=trace, a real terraform plan, apply, refresh and destroy of a cloud-init seed
 * and an Ignition config full of planted canary values (a password hash, a plain password, a private key,
 * cloud-config, environment, file contents, a user-data part, vendor-data, Ignition content) must not show any of
 * them in terraform's log (which carries the provider's stderr) or its output.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TfWorkdir } from '../helpers/terraform';
import { cleanupByPrefix } from '../helpers/guest';

jest.setTimeout(300_000);

const PREFIX = 'vstest-secret-';
const CANARIES = {
  passwordHash: '$6$vstestSALT$CanaryHashA1b2C3d4E5f6G7h8I9j0',
  plainPassword: 'CanaryPlainPassw0rd-7f3a',
  privateKey: 'CanaryPrivateKeyMaterial-b64AAAAB3NzaC1yc2E',
  cloudConfig: 'canary-cloud-config-runcmd-91c2',
  environment: 'canary-env-value-4d8e',
  fileContent: 'canary-file-content-0b7f',
  fileBase64: Buffer.from('canary-binary-file-55aa').toString('base64'),
  userDataPart: 'canary-user-data-part-2e6d',
  vendorData: 'canary-vendor-data-83f1',
  ignition: 'canary-ignition-file-6c0a',
};

const HCL = `resource "virtseed_cloudinit_seed" "s" {
  pool     = "default"
  name     = "${PREFIX}seed.iso"
  hostname = "secret"
  cloud_config = jsonencode({
    users     = [{ name = "ops", passwd = "${CANARIES.passwordHash.replace(/\$/g, '$$$$')}" }]
    chpasswd  = { expire = false, users = [{ name = "root", password = "${CANARIES.plainPassword}", type = "text" }] }
    ssh_keys  = { ed25519_private = "${CANARIES.privateKey}" }
    runcmd    = ["echo ${CANARIES.cloudConfig}"]
  })
  environment = { APP_SECRET = "${CANARIES.environment}" }
  file {
    path    = "/etc/secret.conf"
    content = "${CANARIES.fileContent}"
  }
  file {
    path           = "/etc/secret.bin"
    content_base64 = "${CANARIES.fileBase64}"
  }
  user_data_part {
    content_type = "text/x-shellscript"
    filename     = "part.sh"
    content      = "#!/bin/sh\\necho ${CANARIES.userDataPart}\\n"
  }
  vendor_data = "#cloud-config\\nruncmd: [echo ${CANARIES.vendorData}]\\n"
}
resource "virtseed_ignition" "i" {
  pool = "default"
  name = "${PREFIX}cfg.ign"
  content = jsonencode({
    ignition = { version = "3.4.0" }
    storage = { files = [{ path = "/etc/secret", mode = 420, contents = { source = "data:,${CANARIES.ignition}" } }] }
  })
}
`;

describe('sensitive values under TF_LOG=trace', () => {
  let tf: TfWorkdir;
  const logs: string[] = [];

  function traced(args: string[]): void {
    const log = path.join(tf.dir, `trace-${logs.length}.log`);
    const env = { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', NO_COLOR: '1', TF_LOG: 'trace', TF_LOG_PATH: log };
    const r = spawnSync('terraform', [...args, '-no-color'], { cwd: tf.dir, env, encoding: 'utf8', timeout: 300_000 });
    const text = `${fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''}\n${r.stdout}\n${r.stderr}`;
    logs.push(text);
    if (r.status !== 0) throw new Error(`terraform ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  }

  beforeAll(() => {
    cleanupByPrefix(PREFIX);
    tf = new TfWorkdir('secret');
    tf.write(HCL);
    tf.init();
    traced(['plan', '-input=false']);
    traced(['apply', '-auto-approve', '-input=false']);
    traced(['plan', '-refresh=true', '-input=false']);
    traced(['destroy', '-auto-approve', '-input=false']);
  });

  afterAll(() => {
    tf?.dispose();
    cleanupByPrefix(PREFIX);
  });

  it("GIVEN the runs WHEN their trace logs are read THEN they carry the provider's own log lines (the test can see the provider)", () => {
    const all = logs.join('\n');
    expect(all).toMatch(/virtseed: /);
    expect(all).toContain('ApplyResourceChange');
  });

  it.each(Object.entries(CANARIES))(
    'GIVEN canary %s WHEN terraform ran with TF_LOG=trace THEN it appears in no log line',
    (_name, canary) => {
      const hits = logs
        .flatMap((l) => l.split('\n'))
        .filter((line) => line.includes(canary) || (canary.startsWith('$6$') && line.includes(canary.slice(3))));
      expect(hits.slice(0, 3)).toEqual([]);
    },
  );
});
