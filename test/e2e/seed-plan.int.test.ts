/**
 * GitHub issue 4 "Complete cloud-init seeds", the plan side, through real terraform and libvirtd (no guests):
 * - bad input fails at `terraform plan`, pointing at the offending attribute (terraform's `with <address>,` and the
 *   config line), and nothing is created;
 * - a content change under a fixed instance_id plans an in-place update (same instance_id, new sha256);
 * - a derived instance-id is known at plan and equals what apply stores; a second plan shows no changes;
 * - a seed volume deleted behind Terraform's back is planned for re-creation.
 */
import { cleanupByPrefix, virshRun, volumeNames } from '../helpers/guest';
import { plannedChange, PROVIDER_BLOCK, TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

const PREFIX = 'vstest-sp-';

jest.setTimeout(300_000);

/** 1-based line in main.tf (provider block + body) of the `occurrence`-th (1-based) line containing `needle`. */
function lineOf(body: string, needle: string, occurrence = 1): number {
  const lines = (PROVIDER_BLOCK + body).split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) if (lines[i].includes(needle) && ++seen === occurrence) return i + 1;
  throw new Error(`no ${needle} #${occurrence}`);
}

/** A seed resource `bad` with `inner` (HCL lines) besides pool and name. */
const badSeed = (inner: string) => `resource "virtseed_cloudinit_seed" "bad" {
  pool = "default"
  name = "${PREFIX}bad.iso"
${inner}
}
`;

describe('bad input fails at plan with the attribute path, and nothing is created', () => {
  let tf: TfWorkdir;

  beforeAll(() => {
    cleanupByPrefix(PREFIX);
    tf = new TfWorkdir('seed-plan-bad');
    tf.write(badSeed('  hostname = "ok"'));
    tf.init();
  });

  afterAll(() => teardown({ tf, prefix: PREFIX }));

  /** Plans `inner`; expects exit 1, the summary, terraform's resource/line pointer at `needle`, and no volume. */
  function expectPlanError(inner: string, summary: string | RegExp, needle: string, occurrence = 1): string {
    const body = badSeed(inner);
    tf.write(body);
    const r = tf.plan();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(typeof summary === 'string' ? new RegExp(`Error: ${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) : summary);
    expect(r.out).toContain('with virtseed_cloudinit_seed.bad,');
    expect(r.out).toContain(`on main.tf line ${lineOf(body, needle, occurrence)}, in resource "virtseed_cloudinit_seed" "bad"`);
    expect(volumeNames(PREFIX)).toEqual([]);
    return r.out;
  }

  test('GIVEN two file blocks with the same path WHEN planning THEN the error points at file[1].path', () => {
    const out = expectPlanError(
      '  file {\n    path    = "/etc/dup.conf"\n    content = "a"\n  }\n  file {\n    path    = "/etc/dup.conf"\n    content = "b"\n  }',
      'Duplicate write_files path',
      'path    = "/etc/dup.conf"',
      2,
    );
    expect(out).toContain('/etc/dup.conf');
  });

  test('GIVEN an invalid hostname WHEN planning THEN the error points at hostname', () => {
    expectPlanError('  hostname = "bad_host!"', 'Invalid hostname', 'hostname = "bad_host!"');
  });

  test('GIVEN file permissions that are not octal WHEN planning THEN the error points at file[0].permissions', () => {
    expectPlanError(
      '  file {\n    path        = "/etc/a.conf"\n    content     = "a"\n    permissions = "0999"\n  }',
      'Invalid permissions',
      'permissions = "0999"',
    );
  });

  test('GIVEN both network and network_config WHEN planning THEN a conflict error points at one of them', () => {
    const out = expectPlanError(
      '  network_config = "version: 2\\nethernets: {}\\n"\n  network {\n    interface {\n      dhcp4 = true\n    }\n  }',
      'Conflicting network inputs',
      'network_config = ',
    );
    expect(out).toMatch(/network_config/);
  });

  test('GIVEN cloud_config that is not valid YAML WHEN planning THEN the error points at cloud_config', () => {
    expectPlanError('  cloud_config = "users: [unclosed"', 'Invalid cloud_config', 'cloud_config = ');
  });

  test('GIVEN cloud_config that is broken JSON WHEN planning THEN the error points at cloud_config', () => {
    expectPlanError('  cloud_config = "{\\"users\\": [}"', 'Invalid cloud_config', 'cloud_config = ');
  });

  test('GIVEN cloud_config that is a list, not a map WHEN planning THEN the error says it must be a map', () => {
    const out = expectPlanError('  cloud_config = jsonencode(["a", "b"])', 'Invalid cloud_config', 'cloud_config = ');
    expect(out).toMatch(/must be a JSON or YAML map/);
  });

  test('GIVEN cloud_config users of a wrong type WHEN planning THEN the error names cloud_config.users and the allowed types', () => {
    const out = expectPlanError('  cloud_config = jsonencode({ users = 5 })', 'Invalid cloud-config', 'cloud_config = ');
    expect(out).toMatch(/At cloud_config\.users: must be string, array or object/);
  });

  test('GIVEN a wrong type deep inside cloud_config WHEN planning THEN only the innermost path is reported', () => {
    const out = expectPlanError(
      '  cloud_config = jsonencode({ users = [{ name = "alice", groups = 7 }] })',
      'Invalid cloud-config',
      'cloud_config = ',
    );
    expect(out).toMatch(/At cloud_config\.users\[0\]\.groups: must be string, array or object/);
    expect(out.match(/Error: /g)).toHaveLength(1);
  });
});

describe('seed lifecycle at plan: in-place updates, known instance-ids, drift', () => {
  let tf: TfWorkdir;
  const seeds = (fixedContent: string, derivedContent: string) => `
resource "virtseed_cloudinit_seed" "fixed" {
  pool         = "default"
  name         = "${PREFIX}fixed.iso"
  instance_id  = "${PREFIX}fixed-1"
  cloud_config = jsonencode({ runcmd = ["echo ${fixedContent}"] })
}
resource "virtseed_cloudinit_seed" "derived" {
  pool     = "default"
  name     = "${PREFIX}derived.iso"
  hostname = "derived"
  file {
    path    = "/etc/derived.conf"
    content = "${derivedContent}"
  }
}
`;
  let plannedDerivedId: unknown;

  beforeAll(() => {
    cleanupByPrefix(PREFIX);
    tf = new TfWorkdir('seed-plan-life');
    tf.write(seeds('one', 'v1'));
    tf.init();
    const plan = tf.planJson();
    plannedDerivedId = plannedChange(plan, 'virtseed_cloudinit_seed.derived').after?.instance_id;
    expect(plannedChange(plan, 'virtseed_cloudinit_seed.derived').after_unknown?.instance_id).toBeFalsy();
    tf.ok(['apply', '-input=false', 'tfplan']);
  });

  afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true }));

  test('GIVEN no instance_id WHEN planning THEN the derived instance-id is known at plan and apply stores the same', () => {
    expect(plannedDerivedId).toMatch(/^iid-[0-9a-f]{16}$/);
    expect(tf.resource('virtseed_cloudinit_seed.derived').instance_id).toBe(plannedDerivedId);
  });

  test('GIVEN an applied config WHEN planning again THEN there are no changes (exit code 0)', () => {
    const r = tf.plan();
    expect(r.out).toContain('No changes');
    expect(r.code).toBe(0);
  });

  test('GIVEN a content change under a fixed instance_id WHEN planning THEN the seed updates in place with the same instance_id and a new sha256', () => {
    const before = tf.resource('virtseed_cloudinit_seed.fixed');
    tf.write(seeds('two', 'v1'));
    const c = plannedChange(tf.planJson(), 'virtseed_cloudinit_seed.fixed');
    expect(c.actions).toEqual(['update']);
    expect(c.after?.instance_id).toBe(`${PREFIX}fixed-1`);
    expect(c.before?.instance_id).toBe(`${PREFIX}fixed-1`);
    expect(c.after?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(c.after?.sha256).not.toBe(before.sha256);
    expect(c.after?.id).toBe(before.id);
    tf.ok(['apply', '-input=false', 'tfplan']);
    const after = tf.resource('virtseed_cloudinit_seed.fixed');
    expect(after.sha256).toBe(c.after?.sha256);
    expect(after.path).toBe(before.path);
  });

  test('GIVEN a content change without instance_id WHEN planning THEN the new derived instance-id is known at plan', () => {
    const before = tf.resource('virtseed_cloudinit_seed.derived');
    tf.write(seeds('two', 'v2'));
    const c = plannedChange(tf.planJson(), 'virtseed_cloudinit_seed.derived');
    expect(c.actions).toEqual(['update']);
    expect(c.after?.instance_id).toMatch(/^iid-[0-9a-f]{16}$/);
    expect(c.after?.instance_id).not.toBe(before.instance_id);
    tf.ok(['apply', '-input=false', 'tfplan']);
    expect(tf.resource('virtseed_cloudinit_seed.derived').instance_id).toBe(c.after?.instance_id);
  });

  test('GIVEN the seed volume deleted with virsh WHEN planning THEN terraform plans to create it again, and apply restores it', () => {
    virshRun('vol-delete', `${PREFIX}derived.iso`, '--pool', 'default');
    expect(volumeNames(PREFIX)).not.toContain(`${PREFIX}derived.iso`);
    const c = plannedChange(tf.planJson(), 'virtseed_cloudinit_seed.derived');
    expect(c.actions).toEqual(['create']);
    tf.ok(['apply', '-input=false', 'tfplan']);
    expect(volumeNames(PREFIX)).toContain(`${PREFIX}derived.iso`);
    expect(tf.plan().code).toBe(0);
  });
});
