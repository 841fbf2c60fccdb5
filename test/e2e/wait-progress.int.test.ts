/**
 * `wait_timeout` bounds silence, not the boot (src/guest/wait-progress.ts), against libvirtd and real Terraform,
 * with no operating system booted: the domain's disk is a boot sector (test/helpers/console-printer.ts) that prints
 * a line on the serial console about every 0.2 s (four BIOS ticks), for ever. That is a guest making "progress" for
 * ever that never finishes cloud-init. With `wait_timeout = 3` the wait must not give up after 3 s (the console never
 * stays silent that long) but at the total bound, 6 × 3 s, naming it and showing the last console lines; the apply
 * fails, the domain is tainted and destroy removes it.
 */
import * as path from 'node:path';
import { printerVolumeHcl, writePrinterImage } from '../helpers/console-printer';
import { cleanupByPrefix, domainExists } from '../helpers/guest';
import { TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(600_000);

const PREFIX = 'vstest-waitprog-';
const NAME = `${PREFIX}d`;
const LINE = 'VSTEST-WAITPROG still booting';

let tf: TfWorkdir;

beforeAll(() => {
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('waitprog');
  const printer = writePrinterImage(path.join(tf.dir, 'boot.img'), { first: `${LINE}\r\n`, repeatTicks: 4 });
  tf.write(`${printerVolumeHcl('boot', { pool: 'default', name: `${PREFIX}boot.img`, file: printer })}
resource "virtseed_cloudinit_seed" "seed" {
  pool     = "default"
  name     = "${PREFIX}seed.iso"
  hostname = "waitprog"
}
resource "virtseed_domain" "d" {
  name              = "${NAME}"
  memory            = 64
  type              = "qemu"
  shutdown_timeout  = 0
  disk { volume_id = virtseed_volume.boot.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  wait_for          = "cloud-init"
  wait_timeout      = 3
}
`);
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX }));

test('GIVEN a guest whose console keeps printing but never finishes cloud-init WHEN wait_timeout = 3 THEN the wait outlives 3 s and gives up at 6 × 3 s, naming the total bound', () => {
  const r = tf.run(['apply', '-auto-approve', '-input=false']);
  const out = r.out.replace(/\s+/g, ' ');
  expect({ code: r.code, out }).toEqual({ code: 1, out: expect.stringContaining(`cloud-init did not finish on ${NAME} within 18 s`) });
  expect(out).toContain('kept printing');
  expect(out).toContain(LINE); // the last console lines
  expect(out).not.toContain('no console output for 3 s');
  expect(domainExists(NAME)).toBe(true);
  tf.destroy();
  expect(domainExists(NAME)).toBe(false);
});
