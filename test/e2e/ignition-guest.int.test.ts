/**
 * GitHub issue 6, part 1: an Ignition config declared with `virtseed_ignition` reaches a real guest through QEMU
 * fw_cfg (`virtseed_domain.ignition_id`) and Ignition's own binary applies it on first boot. One real
 * `terraform apply` of base + root volumes, the config (spec 3.3.0 via jsonencode: a file with mode 0640 and a
 * data: URL, and an enabled systemd unit) and a domain with NO cloud-init seed on QEMU user networking. The guest
 * proves it from its serial console: the test image's virtseed-ignition unit prints VIRTSEED_IGNITION_APPLIED, and
 * the unit Ignition enabled prints its marker, the file's mode and the file's contents. The config is given as
 * `content_wo` from an ephemeral variable (issue 32), its file carrying a canary: the guest prints the canary, and
 * neither the state nor terraform's output holds it.
 * The firmware path is not under test here: the guest boots directly from the host's kernel, initrd and cmdline
 * (testImage; no SeaBIOS disk reads of GRUB, kernel and initrd under TCG).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanupByPrefix, imageVolumesHcl, kernelBootHcl, readConsole, testImage, waitForConsole } from '../helpers/guest';
import { stringValue, TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

const PREFIX = 'vstest-ig-';
/** The canary secret of the Ignition file (issue 32): on the guest's console, nowhere in the state. */
const CANARY = 'CanaryIgnGuest-5e1f';
const FILE_TEXT = `hello from ignition ${CANARY}`;

/** The unit Ignition writes and enables: prints its marker, the file's mode and the file's contents. */
const UNIT = [
  '[Unit]',
  'Description=virtseed e2e: proves Ignition enabled this unit',
  '[Service]',
  'Type=oneshot',
  'ExecStart=/bin/sh -c \'echo VSTEST_UNIT_RAN > /dev/ttyS0; echo "VSTEST_MODE: $(stat -c %%a /etc/vstest-ignition.txt)" > /dev/ttyS0; echo "VSTEST_FILE: $(cat /etc/vstest-ignition.txt)" > /dev/ttyS0\'',
  '[Install]',
  'WantedBy=multi-user.target',
  '',
].join('\n');

const CONFIG = {
  ignition: { version: '3.3.0' },
  storage: {
    files: [{ path: '/etc/vstest-ignition.txt', mode: 0o640, contents: { source: `data:,${encodeURIComponent(`${FILE_TEXT}\n`)}` } }],
  },
  systemd: { units: [{ name: 'vstest-hello.service', enabled: true, contents: UNIT }] },
};

function hcl(): string {
  const img = testImage();
  return `
${imageVolumesHcl(img, `${PREFIX}base.qcow2`, { root: `${PREFIX}root.qcow2` })}
variable "ignition" {
  type      = string
  ephemeral = true
}
resource "virtseed_ignition" "cfg" {
  pool       = "default"
  name       = "${PREFIX}cfg.ign"
  content_wo = var.ignition
}
resource "virtseed_domain" "vm" {
  name   = "${PREFIX}vm"
  memory = 512
${kernelBootHcl(img)}  disk { volume_id = virtseed_volume.root.id }
  ignition_id = virtseed_ignition.cfg.id
  instance_id = virtseed_ignition.cfg.instance_id
  network_interface { user = true }
}
output "console_log" { value = virtseed_domain.vm.console_log }
`;
}

jest.setTimeout(900_000);

describe('Ignition config applied in a real guest', () => {
  let tf: TfWorkdir;
  let consoleLog = '';
  let applyStart = 0;
  let applyEnd = 0;
  let text = '';

  beforeAll(async () => {
    cleanupByPrefix(PREFIX);
    // The config as JSON from an ephemeral variable (the environment): not in main.tf, nor in the state.
    tf = new TfWorkdir('ig', { TF_VAR_ignition: JSON.stringify(CONFIG) });
    tf.write(hcl());
    tf.init();
    applyStart = Date.now();
    tf.apply();
    applyEnd = Date.now();
    consoleLog = stringValue(tf.resource('virtseed_domain.vm'), 'console_log');
    text = await waitForConsole(consoleLog, /VSTEST_FILE: .*\n/, 600_000);
    const markersAt = Date.now();
    // Durations for the report (stderr, not asserted).
    process.stderr.write(
      `ignition-guest: apply ${((applyEnd - applyStart) / 1000).toFixed(1)} s; apply start → markers ${((markersAt - applyStart) / 1000).toFixed(1)} s\n`,
    );
  });

  afterAll(() =>
    teardown({
      tf,
      prefix: PREFIX,
      also: () => {
        if (consoleLog)
          process.stderr.write(
            `ignition-guest console tail:\n${readConsole(consoleLog)
              .split('\n')
              .filter((l) => /ignition|VSTEST/i.test(l))
              .slice(-30)
              .join('\n')}\n`,
          );
      },
    }),
  );

  it('GIVEN the applied config WHEN the guest boots THEN Ignition ran from fw_cfg (VIRTSEED_IGNITION_APPLIED)', () => {
    expect(text).toMatch(/VIRTSEED_IGNITION_APPLIED/);
  });

  // A marker line may follow getty's prompt on the same console line (`virtseed-image login: VSTEST_MODE: 640`):
  // the unit and getty write to ttyS0 at the same time.
  it('GIVEN a unit with enabled: true WHEN the guest boots THEN the unit ran', () => {
    expect(text).toMatch(/(?:^|login: )VSTEST_UNIT_RAN$/m);
  });

  it('GIVEN a file with mode 0640 WHEN the guest boots THEN it has mode 640', () => {
    expect(text).toMatch(/(?:^|login: )VSTEST_MODE: 640$/m);
  });

  it('GIVEN a file with a data: URL WHEN the guest boots THEN it holds the decoded contents', () => {
    expect(text).toMatch(new RegExp(`(?:^|login: )VSTEST_FILE: ${FILE_TEXT}$`, 'm'));
  });

  it('GIVEN the config as content_wo WHEN applied THEN the guest printed its canary and the state holds none', () => {
    expect(text).toContain(CANARY);
    const state = fs.readFileSync(path.join(tf.dir, 'terraform.tfstate'), 'utf8');
    expect(state.split(CANARY).length - 1).toBe(0);
    expect(tf.resource('virtseed_ignition.cfg').keyed_digest).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
  });

  it("GIVEN the domain state WHEN read THEN instance_id is the config's ign- id", () => {
    const ign = tf.resource('virtseed_ignition.cfg');
    expect(ign.version).toBe('3.3.0');
    expect(ign.instance_id).toMatch(/^ign-[0-9a-f]{16}$/);
    expect(tf.resource('virtseed_domain.vm').instance_id).toBe(ign.instance_id);
  });
});
