/**
 * `wait_timeout` bounds silence, not the boot (src/guest/wait-progress.ts), against libvirtd and real Terraform,
 * with no operating system booted: the domain's firmware (SeaBIOS, `<bios useserial='yes' rebootTimeout='1000'/>`
 * added by the escape hatch's XSLT) finds nothing to boot and reboots every second or so, printing its banner on the
 * serial console each time. That is a guest making "progress" for ever that never finishes cloud-init. With
 * `wait_timeout = 5` the wait must not give up after 5 s (the console never stays silent that long) but at the total
 * bound, 6 × 5 s, naming it; the apply fails, the domain is tainted and destroy removes it.
 */
import { cleanupByPrefix, domainExists } from '../helpers/guest';
import { TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(600_000);

const PREFIX = 'vstest-waitprog-';
const NAME = `${PREFIX}d`;
const XSLT = `<?xml version="1.0"?>
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:template match="node()|@*"><xsl:copy><xsl:apply-templates select="node()|@*"/></xsl:copy></xsl:template>
  <xsl:template match="/domain/os"><xsl:copy><xsl:apply-templates select="node()|@*"/><bios useserial="yes" rebootTimeout="1000"/></xsl:copy></xsl:template>
</xsl:stylesheet>`;

let tf: TfWorkdir;

beforeAll(() => {
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('waitprog');
  tf.write(`
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
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  wait_for          = "cloud-init"
  wait_timeout      = 5
  xml {
    xslt = ${JSON.stringify(XSLT)}
  }
}
`);
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX }));

test('GIVEN a guest whose console keeps printing but never finishes cloud-init WHEN wait_timeout = 5 THEN the wait outlives 5 s and gives up at 6 × 5 s, naming the total bound', () => {
  const r = tf.run(['apply', '-auto-approve', '-input=false']);
  const out = r.out.replace(/\s+/g, ' ');
  expect({ code: r.code, out }).toEqual({ code: 1, out: expect.stringContaining(`cloud-init did not finish on ${NAME} within 30 s`) });
  expect(out).toContain('kept printing');
  expect(out).toContain('SeaBIOS'); // the last console lines
  expect(out).not.toContain('no console output for 5 s');
  expect(domainExists(NAME)).toBe(true);
  tf.destroy();
  expect(domainExists(NAME)).toBe(false);
});
