/**
 * virtseed_domain lifecycle with real Terraform and libvirtd, without booting (running = false; GitHub issue 5):
 *   (c) reprovision = "recreate": a new instance_id replaces the domain (new UUID; replace_paths has instance_id);
 *   (d) a domain removed behind Terraform's back (virsh destroy + undefine) is planned as create and recreated;
 *   (e) importing the domain by name and by UUID, and the root volume by POOL/NAME, then planning: no changes;
 *   (f) after every apply a second plan shows no changes (exit code 0);
 *   (g) a read that kept the definition's digest (a refresh saved in state) still sees a change made with virsh;
 *   an apply keeps the digest of the definition it leaves (issue #25);
 *   (h) autostart turned on with virsh is seen by the next plan's read of the shut-off domain (issue #38: the read
 *   takes a shut-off domain's autostart flag from the domain listing);
 *   (i) a create defines first and looks its name up only when libvirt refuses it (issue #38): a domain of that name
 *   defined after the plan fails the apply with "Domain exists already" and stays; one an interrupted create left
 *   (its pending mark) is removed and the create goes on.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { plannedChange, TfWorkdir } from '../helpers/terraform';
import { VIRTSEED_XML_NAMESPACE } from '../../src/domain';
import { CREATE_PENDING_KEY } from '../../provider/src/resources/private/domain-lifecycle';
import { expectPlanEmpty } from '../helpers/steps';
import { cleanupByPrefix, domainExists, domainUuid, virshRun } from '../helpers/guest';
import { teardown } from '../helpers/teardown';

jest.setTimeout(900_000);

const PREFIX = 'vstest-lc';
const NAME = `${PREFIX}-vm`;

let tf: TfWorkdir;

function config(marker: string): string {
  return `
resource "virtseed_volume" "root" {
  pool     = "default"
  name     = "${PREFIX}-root.qcow2"
  capacity = 67108864
}
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}-seed.iso"
  hostname     = "lc"
  cloud_config = jsonencode({ runcmd = ["echo ${marker} > /dev/ttyS0"] })
}
resource "virtseed_domain" "vm" {
  name        = "${NAME}"
  memory      = 256
  running     = false
  reprovision = "recreate"
  disk { volume_id = virtseed_volume.root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
  network_interface { user = true }
}
`;
}

beforeAll(() => {
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('lifecycle');
  tf.write(config('ONE'));
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true }));

let uuid: string;

test('GIVEN running = false WHEN applied THEN the domain is defined but shut off, and a second plan is empty', () => {
  tf.apply();
  uuid = domainUuid(NAME);
  expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
  expect(virshRun('domstate', NAME).trim()).toBe('shut off');
  expect(tf.resource('virtseed_domain.vm').uuid).toBe(uuid);
  expectPlanEmpty(tf);
});

/** The keys of the private state Terraform keeps for virtseed_domain.vm. */
function privateKeys(): string[] {
  const state = JSON.parse(fs.readFileSync(path.join(tf.dir, 'terraform.tfstate'), 'utf8')) as {
    resources: { type: string; instances: { private?: string }[] }[];
  };
  const priv = state.resources.find((r) => r.type === 'virtseed_domain')?.instances[0]?.private ?? '';
  return Object.keys(JSON.parse(Buffer.from(priv, 'base64').toString('utf8')) as object);
}

test('GIVEN an apply WHEN its state is saved THEN it keeps the digest of the new definition (plans after it do not parse)', () => {
  // The first test applied: a read of that definition gives the state the apply returned (its second plan was empty).
  expect(privateKeys()).toContain('xml');
});

test('(g) GIVEN a saved refresh (the read kept the XML digest) WHEN memory is changed with virsh THEN the plan shows it', () => {
  tf.ok(['apply', '-refresh-only', '-auto-approve', '-input=false']);
  expect(privateKeys()).toContain('xml');
  expectPlanEmpty(tf); // the unchanged definition, not parsed again
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-lc-')), 'vm.xml');
  fs.writeFileSync(file, virshRun('dumpxml', '--inactive', NAME).replace(/>262144</g, '>524288<'));
  virshRun('define', file);
  const dom = plannedChange(tf.planJson(), 'virtseed_domain.vm');
  expect([dom.actions, dom.before?.memory, dom.after?.memory]).toEqual([['update'], 512, 256]);
  tf.apply();
  expectPlanEmpty(tf);
});

test('(h) GIVEN the shut-off domain WHEN autostart is turned on with virsh THEN the plan shows it (the read takes it from the domain listing)', () => {
  virshRun('autostart', NAME);
  const dom = plannedChange(tf.planJson(), 'virtseed_domain.vm');
  expect([dom.actions, dom.before?.autostart, dom.after?.autostart, dom.before?.running]).toEqual([['update'], true, false, false]);
  tf.apply();
  expect(virshRun('dominfo', NAME)).toMatch(/^Autostart:\s+disable/m);
  expectPlanEmpty(tf);
});

test('(c) GIVEN reprovision = "recreate" WHEN the instance_id changes THEN the domain is replaced (new UUID)', () => {
  const before = tf.resource('virtseed_domain.vm').instance_id;
  tf.write(config('TWO'));
  const human = tf.run(['plan', '-input=false']);
  expect(human.out).toMatch(/Warning: Guest vstest-lc-vm will be re-provisioned \(recreate\)/);
  expect(human.out).toMatch(/virtseed_domain\.vm must be replaced/);
  const plan = tf.planJson();
  const dom = plannedChange(plan, 'virtseed_domain.vm');
  console.log(
    `(c) domain change: actions=${JSON.stringify(dom.actions)} replace_paths=${JSON.stringify(dom.replace_paths)} reprovision_action=${dom.after?.reprovision_action} previous_instance_id=${dom.after?.previous_instance_id}`,
  );
  expect(dom.actions).toEqual(['delete', 'create']);
  expect(dom.replace_paths).toContainEqual(['instance_id']);
  expect(dom.after?.instance_id).not.toBe(before);
  tf.ok(['apply', '-input=false', 'tfplan']);
  const now = domainUuid(NAME);
  expect(now).toMatch(/^[0-9a-f-]{36}$/);
  expect(now).not.toBe(uuid);
  expect(tf.resource('virtseed_domain.vm').uuid).toBe(now);
  uuid = now;
  expectPlanEmpty(tf);
});

test('(d) GIVEN the domain was removed with virsh WHEN planning THEN it is planned as create and apply recreates it', () => {
  virshRun('destroy', NAME);
  virshRun('undefine', NAME, '--nvram');
  expect(domainExists(NAME)).toBe(false);
  const plan = tf.planJson();
  expect(plannedChange(plan, 'virtseed_domain.vm').actions).toEqual(['create']);
  tf.ok(['apply', '-input=false', 'tfplan']);
  expect(domainExists(NAME)).toBe(true);
  uuid = domainUuid(NAME);
  expect(tf.resource('virtseed_domain.vm').uuid).toBe(uuid);
  expectPlanEmpty(tf);
});

test('(e) GIVEN the domain exists WHEN imported by name THEN a plan shows no changes', () => {
  tf.ok(['state', 'rm', 'virtseed_domain.vm']);
  tf.ok(['import', '-input=false', 'virtseed_domain.vm', NAME]);
  expect(tf.resource('virtseed_domain.vm').uuid).toBe(uuid);
  expectPlanEmpty(tf);
});

test('(e) GIVEN the domain exists WHEN imported by UUID THEN a plan shows no changes', () => {
  tf.ok(['state', 'rm', 'virtseed_domain.vm']);
  tf.ok(['import', '-input=false', 'virtseed_domain.vm', uuid]);
  expect(tf.resource('virtseed_domain.vm').name).toBe(NAME);
  expectPlanEmpty(tf);
});

test('(e) GIVEN the root volume exists WHEN imported by POOL/NAME THEN a plan shows no changes', () => {
  const id = tf.resource('virtseed_volume.root').id;
  tf.ok(['state', 'rm', 'virtseed_volume.root']);
  tf.ok(['import', '-input=false', 'virtseed_volume.root', `default/${PREFIX}-root.qcow2`]);
  expect(tf.resource('virtseed_volume.root').id).toBe(id);
  expectPlanEmpty(tf);
});

test('(i) GIVEN a saved plan to create a domain WHEN a domain of its name is defined before the apply THEN the apply refuses it; WHEN that one carries the pending mark of an interrupted create THEN it is replaced', () => {
  const name = `${PREFIX}-clash`;
  const clash = new TfWorkdir('lifecycle-clash');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-lc-'));
  /** Defines `name` with virsh (no UUID: libvirt makes one), with virtseed's create-pending mark when `pending`. */
  const define = (pending: boolean): string => {
    const mark = pending
      ? `<metadata><virtseed:instance xmlns:virtseed="${VIRTSEED_XML_NAMESPACE}"><virtseed:entry key="${CREATE_PENDING_KEY}">1</virtseed:entry></virtseed:instance></metadata>`
      : '';
    const file = path.join(dir, 'clash.xml');
    fs.writeFileSync(
      file,
      `<domain type='qemu'><name>${name}</name><memory unit='MiB'>64</memory><os><type>hvm</type></os>${mark}</domain>`,
    );
    virshRun('define', file);
    return domainUuid(name);
  };
  try {
    clash.write(`resource "virtseed_domain" "vm" {\n  name    = "${name}"\n  memory  = 64\n  running = false\n}\n`);
    clash.init();
    clash.ok(['plan', '-input=false', '-out=tfplan']);
    const foreign = define(false);
    const refused = clash.run(['apply', '-input=false', 'tfplan']);
    if (refused.code !== 1 || !/Domain exists already/.test(refused.out) || !refused.out.includes(foreign))
      throw new Error(`terraform apply tfplan did not refuse the foreign domain (exit ${refused.code}):\n${refused.out}`);
    expect(domainUuid(name)).toBe(foreign);
    virshRun('undefine', name);
    clash.ok(['plan', '-input=false', '-out=tfplan']);
    const left = define(true);
    clash.ok(['apply', '-input=false', 'tfplan']);
    const created = clash.resource('virtseed_domain.vm').uuid;
    expect([created === left, domainUuid(name)]).toEqual([false, created]);
    expectPlanEmpty(clash);
  } finally {
    teardown({ tf: clash, prefix: `${PREFIX}-clash`, destroy: true });
  }
});
