/**
 * GitHub issue 6, part 2: `virtseed_ignition` and `virtseed_domain.ignition_id` under real `terraform plan`
 * (no guest boots). Invalid Ignition configs fail at plan naming the attribute `content` and the JSON path inside
 * it; a domain with both a cloud-init seed and an Ignition config fails naming `ignition_id`; a spec 2.2.0
 * config is planned as its 3.3.0 translation; and planning creates nothing in libvirt.
 */
import { plannedChange, TfWorkdir } from '../helpers/terraform';
import { cleanupByPrefix, virshRun, volumeNames } from '../helpers/guest';
import { teardown } from '../helpers/teardown';

jest.setTimeout(300_000);

const PREFIX = 'vstest-ignplan-';

function ignitionHcl(config: string): string {
  return `resource "virtseed_ignition" "cfg" {
  pool    = "default"
  name    = "${PREFIX}cfg.ign"
  content = jsonencode(${config})
}
`;
}

describe('virtseed_ignition at terraform plan', () => {
  let tf: TfWorkdir;
  let volumesBefore: string[];

  beforeAll(() => {
    cleanupByPrefix(PREFIX);
    volumesBefore = volumeNames(PREFIX);
    tf = new TfWorkdir('ignplan');
    tf.write(ignitionHcl('{ ignition = { version = "3.3.0" } }'));
    tf.init();
  });

  afterAll(() => teardown({ tf, prefix: PREFIX }));

  it('GIVEN a file with a relative path WHEN planned THEN it fails naming content and storage.files[0].path', () => {
    tf.write(
      ignitionHcl(`{
      ignition = { version = "3.3.0" }
      storage  = { files = [{ path = "etc/relative.txt", contents = { source = "data:,x" } }] }
    }`),
    );
    const r = tf.plan();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Error: /);
    expect(r.out).toContain('content = jsonencode(');
    expect(r.out).toContain('content.storage.files[0].path');
  });

  it('GIVEN a file mode above 07777 WHEN planned THEN it fails naming content and storage.files[0].mode', () => {
    tf.write(
      ignitionHcl(`{
      ignition = { version = "3.3.0" }
      storage  = { files = [{ path = "/etc/mode.txt", mode = 8192, contents = { source = "data:,x" } }] }
    }`),
    );
    const r = tf.plan();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Error: Invalid mode/);
    expect(r.out).toContain('content.storage.files[0].mode');
  });

  it('GIVEN an unknown spec version WHEN planned THEN it fails naming content and ignition.version', () => {
    tf.write(ignitionHcl('{ ignition = { version = "3.9.0" } }'));
    const r = tf.plan();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Error: Unsupported Ignition spec version/);
    expect(r.out).toContain('content.ignition.version');
    expect(r.out).toContain('"3.9.0"');
  });

  it('GIVEN content that is not JSON WHEN planned THEN it fails naming content', () => {
    tf.write(`resource "virtseed_ignition" "cfg" {
  pool    = "default"
  name    = "${PREFIX}cfg.ign"
  content = "{not json"
}
`);
    const r = tf.plan();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Error: Invalid Ignition JSON/);
    expect(r.out).toContain('content = ');
  });

  it('GIVEN JSON content with a trailing comma WHEN planned THEN the error names content, the line and the column', () => {
    tf.write(`resource "virtseed_ignition" "cfg" {
  pool    = "default"
  name    = "${PREFIX}cfg.ign"
  content = <<-EOT
    {
      "ignition": { "version": "3.3.0" },
      "storage": { "files": [{ "path": "/etc/x", "contents": { "source": "data:,x" } },] },
    }
  EOT
}
`);
    const r = tf.plan();
    const out = r.out.replace(/\s+/g, ' ');
    expect({ code: r.code, out }).toEqual({ code: 1, out: expect.stringContaining('Error: Invalid Ignition JSON') });
    expect(out).toContain('content = <<-EOT');
    expect(out).toContain('Line 3, column 84: expected a value (JSON allows no comma before a closing bracket or brace)');
    expect(out).not.toMatch(/position \d+/);
  });

  it('GIVEN a domain with both cloudinit_seed_id and ignition_id WHEN planned THEN it fails naming ignition_id', () => {
    tf.write(`${ignitionHcl('{ ignition = { version = "3.3.0" } }')}
resource "virtseed_cloudinit_seed" "seed" {
  pool     = "default"
  name     = "${PREFIX}seed.iso"
  hostname = "both"
}
resource "virtseed_domain" "vm" {
  name              = "${PREFIX}vm"
  memory            = 256
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  ignition_id       = virtseed_ignition.cfg.id
}
`);
    const r = tf.plan();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Error: Conflicting provisioning/);
    expect(r.out).toMatch(/ignition_id\s+= virtseed_ignition\.cfg\.id/);
  });

  it('GIVEN a spec 2.2.0 config WHEN planned THEN the planned version is 3.3.0 and instance_id is known', () => {
    tf.write(
      ignitionHcl(`{
      ignition = { version = "2.2.0" }
      storage  = { files = [{ filesystem = "root", path = "/etc/legacy.txt", mode = 420, contents = { source = "data:,legacy" } }] }
      systemd  = { units = [{ name = "legacy.service", enabled = true, contents = "[Service]\\nExecStart=/bin/true\\n[Install]\\nWantedBy=multi-user.target\\n" }] }
    }`),
    );
    const plan = tf.planJson();
    const change = plannedChange(plan, 'virtseed_ignition.cfg');
    expect(change.actions).toEqual(['create']);
    expect(change.after?.version).toBe('3.3.0');
    expect(change.after?.instance_id).toMatch(/^ign-[0-9a-f]{16}$/);
    expect(change.after?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('GIVEN all the plans above WHEN libvirt is listed THEN no volume or domain of this test exists', () => {
    // Only this test's names: other e2e tests may create their own vstest- volumes meanwhile.
    expect(volumesBefore).toEqual([]);
    expect(volumeNames(PREFIX)).toEqual([]);
    expect(
      virshRun('list', '--all', '--name')
        .split('\n')
        .filter((n) => n.trim().startsWith(PREFIX)),
    ).toEqual([]);
  });
});
