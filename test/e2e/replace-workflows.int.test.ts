/**
 * Issue 31.2: `terraform taint`, `terraform plan/apply -replace=ADDR` and `terraform destroy` of tainted objects for
 * every resource whose plan checks that its name is free (`virtseed_volume`, `virtseed_cloudinit_seed`,
 * `virtseed_ignition`, `virtseed_domain`), with real terraform and libvirtd (the domain is defined, never started).
 * Terraform plans a tainted object's replacement with no prior state and no private state, and the create half of
 * a `-replace` with no prior state: the object being replaced must not count as "exists already" there, while an
 * object of that name Terraform does not manage still must.
 */
import { cleanupByPrefix, domainUuid, virshRun, volumeNames } from '../helpers/guest';
import { TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(900_000);

const PREFIX = 'vstest-replace-';
const ADDRESSES = ['virtseed_volume.root', 'virtseed_cloudinit_seed.seed', 'virtseed_ignition.cfg', 'virtseed_domain.vm'] as const;

let tf: TfWorkdir;

function config(extra = ''): string {
  return `
resource "virtseed_volume" "root" {
  pool     = "default"
  name     = "${PREFIX}root.qcow2"
  capacity = 16777216
}
resource "virtseed_cloudinit_seed" "seed" {
  pool     = "default"
  name     = "${PREFIX}seed.iso"
  hostname = "replace"
}
resource "virtseed_ignition" "cfg" {
  pool    = "default"
  name    = "${PREFIX}cfg.ign"
  content = jsonencode({ ignition = { version = "3.4.0" } })
}
resource "virtseed_domain" "vm" {
  name              = "${PREFIX}vm"
  memory            = 128
  running           = false
  disk { volume_id = virtseed_volume.root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
}
${extra}`;
}

/** `terraform plan -detailed-exitcode` with `args` must exit `code`; throws with its output otherwise. */
function planExits(code: number, args: string[] = []): string {
  const r = tf.run(['plan', '-detailed-exitcode', '-input=false', ...args]);
  if (r.code !== code) throw new Error(`terraform plan ${args.join(' ')} exited ${r.code}, expected ${code}:\n${r.out}`);
  return r.out;
}

/** The apply's output shows `address` destroyed and created again (a volume keeps its key, its path). */
function expectRecreated(address: string, out: string): void {
  if (!out.includes(`${address}: Destruction complete`) || !out.includes(`${address}: Creation complete`))
    throw new Error(`the apply did not destroy and create ${address} again:\n${out}`);
}

/** The state's `id` of `address`. */
function idOf(address: string): string {
  const id = tf.resource(address).id;
  if (typeof id !== 'string') throw new Error(`${address} has no id in state`);
  return id;
}

beforeAll(() => {
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('replace');
  tf.write(config());
  tf.init();
  tf.apply();
});

afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true }));

describe.each(ADDRESSES)('%s', (address) => {
  test('GIVEN it is tainted WHEN planned and applied THEN the plan replaces it, the apply makes a new one and the next plan is empty', () => {
    tf.ok(['taint', address]);
    const out = planExits(2);
    expect(out).toContain(`${address} is tainted, so must be replaced`);
    expectRecreated(address, tf.apply());
    planExits(0);
  });

  test('GIVEN -replace=ADDR WHEN planned and applied THEN the plan replaces it, the apply makes a new one and the next plan is empty', () => {
    const out = planExits(2, [`-replace=${address}`]);
    expect(out).toContain(`${address} will be replaced, as requested`);
    expectRecreated(address, tf.ok(['apply', '-auto-approve', '-input=false', `-replace=${address}`]));
    planExits(0);
  });
});

test('GIVEN a volume of the same name that Terraform does not manage WHEN a new resource names it THEN the plan still refuses it', () => {
  virshRun('vol-create-as', 'default', `${PREFIX}other.qcow2`, '1M', '--format', 'qcow2');
  try {
    tf.write(
      config(`
resource "virtseed_volume" "other" {
  pool     = "default"
  name     = "${PREFIX}other.qcow2"
  capacity = 1048576
}`),
    );
    const out = planExits(1);
    expect(out).toContain('Volume exists already');
  } finally {
    tf.write(config());
    virshRun('vol-delete', '--pool', 'default', `${PREFIX}other.qcow2`);
  }
});

test('GIVEN all four tainted WHEN terraform destroy THEN it succeeds and nothing with the prefix is left', () => {
  const uuid = domainUuid(`${PREFIX}vm`);
  expect(uuid).toBe(idOf('virtseed_domain.vm'));
  for (const address of ADDRESSES) tf.ok(['taint', address]);
  tf.destroy();
  expect(volumeNames(PREFIX)).toEqual([]);
  expect(
    virshRun('list', '--all', '--name')
      .split('\n')
      .filter((n) => n.startsWith(PREFIX)),
  ).toEqual([]);
});
