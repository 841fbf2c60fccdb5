/**
 * virtseed_snapshot with real Terraform and libvirtd, without booting (the domains stay shut off, so every snapshot
 * is of their disks): create on a BIOS and a UEFI domain (with the seed copy), an in-place description change, a
 * snapshot deleted outside Terraform planned again, import as DOMAIN/SNAPSHOT, a refused `memory = true` (plan
 * warning, apply error, nothing created), and destroy leaving no snapshot or seed copy behind.
 */
import { cleanupByPrefix, virshRun, volumeNames } from '../helpers/guest';
import { TfWorkdir } from '../helpers/terraform';
import { expectPlanEmpty } from '../helpers/steps';
import { teardown } from '../helpers/teardown';

jest.setTimeout(900_000);

const PREFIX = 'vstest-snap-lc';
const BIOS = `${PREFIX}-bios`;
const EFI = `${PREFIX}-efi`;

let tf: TfWorkdir;

function domainHcl(key: string, name: string, firmware: string): string {
  return `
resource "virtseed_volume" "${key}" {
  pool     = "default"
  name     = "${name}.qcow2"
  capacity = 67108864
}
resource "virtseed_domain" "${key}" {
  name              = "${name}"
  memory            = 128
  firmware          = "${firmware}"
  running           = false
  disk { volume_id = virtseed_volume.${key}.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  network_interface { user = true }
}`;
}

function config(opts: { description: string; extra?: string }): string {
  return `
resource "virtseed_cloudinit_seed" "seed" {
  pool     = "default"
  name     = "${PREFIX}-seed.iso"
  hostname = "lc"
}
${domainHcl('bios', BIOS, 'bios')}
${domainHcl('efi', EFI, 'efi')}
resource "virtseed_snapshot" "bios" {
  domain_id   = virtseed_domain.bios.id
  name        = "s1"
  description = "${opts.description}"
}
resource "virtseed_snapshot" "efi" {
  domain_id = virtseed_domain.efi.id
  name      = "s1"
}
${opts.extra ?? ''}`;
}

interface PlannedChange {
  readonly address: string;
  readonly change: { readonly actions: string[] };
}

function change(plan: { resource_changes?: PlannedChange[] }, address: string): PlannedChange['change'] | undefined {
  return (plan.resource_changes ?? []).find((c) => c.address === address)?.change;
}

beforeAll(() => {
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('snapshot-lc');
  tf.write(config({ description: 'one' }));
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true }));

test('GIVEN shut-off BIOS and UEFI domains WHEN snapshots are applied THEN each holds the disk, no memory, with the instance-id and a seed copy', () => {
  tf.apply();
  const seed = tf.resource('virtseed_cloudinit_seed.seed');
  for (const [address, domain] of [
    ['virtseed_snapshot.bios', BIOS],
    ['virtseed_snapshot.efi', EFI],
  ] as const) {
    const s = tf.resource(address);
    expect({ state: s.state, memory: s.memory, disks: s.disks, instance_id: s.instance_id }).toEqual({
      state: 'shutoff',
      memory: false,
      disks: ['vda'],
      instance_id: seed.instance_id,
    });
    expect(s.id).toBe(`${tf.resource(`virtseed_domain.${address.split('.')[1]}`).uuid}/s1`);
    expect(virshRun('snapshot-list', domain, '--name').trim()).toBe('s1');
  }
  expect(volumeNames(PREFIX)).toEqual(expect.arrayContaining([`${BIOS}.s1.seed`, `${EFI}.s1.seed`]));
  expectPlanEmpty(tf);
});

test('GIVEN a new description WHEN planned and applied THEN the snapshot is updated in place and keeps its creation time', () => {
  const before = tf.resource('virtseed_snapshot.bios');
  tf.write(config({ description: 'two' }));
  expect(change(tf.planJson(), 'virtseed_snapshot.bios')?.actions).toEqual(['update']);
  tf.ok(['apply', '-input=false', 'tfplan']);
  const after = tf.resource('virtseed_snapshot.bios');
  expect([after.description, after.creation_time]).toEqual(['two', before.creation_time]);
  expect(virshRun('snapshot-dumpxml', BIOS, 's1')).toContain('<description>two</description>');
  expectPlanEmpty(tf);
});

test('GIVEN the snapshot deleted outside Terraform WHEN planned THEN it is planned as create, and apply takes it again', () => {
  virshRun('snapshot-delete', BIOS, 's1');
  expect(virshRun('snapshot-list', BIOS, '--name').trim()).toBe('');
  expect(change(tf.planJson(), 'virtseed_snapshot.bios')?.actions).toEqual(['create']);
  tf.ok(['apply', '-input=false', 'tfplan']);
  expect(virshRun('snapshot-list', BIOS, '--name').trim()).toBe('s1');
  expectPlanEmpty(tf);
});

test('GIVEN the snapshot in libvirt WHEN imported as DOMAIN/SNAPSHOT THEN a plan shows no changes', () => {
  const id = tf.resource('virtseed_snapshot.bios').id;
  tf.ok(['state', 'rm', 'virtseed_snapshot.bios']);
  tf.ok(['import', '-input=false', 'virtseed_snapshot.bios', `${BIOS}/s1`]);
  expect(tf.resource('virtseed_snapshot.bios').id).toBe(id);
  expectPlanEmpty(tf);
});

test('GIVEN memory = true for a shut-off domain WHEN planned and applied THEN the plan warns, the apply fails naming memory, nothing is created', () => {
  tf.write(
    config({
      description: 'two',
      extra: `resource "virtseed_snapshot" "mem" {
  domain_id = virtseed_domain.bios.id
  name      = "m1"
  memory    = true
}`,
    }),
  );
  const plan = tf.run(['plan', '-input=false']);
  expect(plan.out).toMatch(/Warning: Snapshot not possible as the domain is now/);
  expect(plan.out).toMatch(/memory = true needs a running guest/);
  const apply = tf.run(['apply', '-auto-approve', '-input=false']);
  expect(apply.code).toBe(1);
  expect(apply.out).toMatch(/Error: Cannot take the snapshot[\s\S]*with virtseed_snapshot\.mem[\s\S]*memory = true needs a running guest/);
  expect(virshRun('snapshot-list', BIOS, '--name').trim()).toBe('s1');
  tf.write(config({ description: 'two' }));
});

test('GIVEN snapshots with seed copies WHEN destroyed THEN no snapshot, seed copy or volume of the test is left', () => {
  tf.destroy();
  expect(volumeNames(PREFIX)).toEqual([]);
});
