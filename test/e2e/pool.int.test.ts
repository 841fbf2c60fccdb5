/**
 * virtseed_pool with real Terraform and libvirtd (no guests): a dir pool created with its directory and a volume
 * in it in one apply; drift made with virsh (stopped → started again; deleted with its directory → created
 * again); destroy refusing a pool that holds a volume Terraform does not manage, naming it, and removing pool and
 * directory once it is empty; import by name of a pool made with virsh; logical and netfs pools defined
 * (`active = false`: no LVM or NFS here) with the XML libvirt stores checked. Pools are named `vstest-surface-…`.
 */
import * as fs from 'node:fs';
import { cleanupPoolsByPrefix, poolInfo, poolNames, poolVolumes, testPoolDir, virshOk } from '../helpers/pool';
import { TfWorkdir } from '../helpers/terraform';
import { expectPlanEmpty } from '../helpers/steps';

jest.setTimeout(600_000);

const PREFIX = 'vstest-surface-pool';
const NAME = `${PREFIX}-dir`;
const DIR = testPoolDir(NAME);

let tf: TfWorkdir | undefined;

function dirPool(extra = ''): string {
  return `
resource "virtseed_pool" "p" {
  name = "${NAME}"
  path = "${DIR}"
}
${extra}`;
}

const VOLUME = `
resource "virtseed_volume" "v" {
  pool     = virtseed_pool.p.name
  name     = "${PREFIX}-data.qcow2"
  capacity = 1048576
}
`;

interface Change {
  actions: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

function change(plan: { resource_changes?: { address: string; change: Change }[] }, address: string): Change {
  const found = (plan.resource_changes ?? []).find((c) => c.address === address);
  if (!found) throw new Error(`the plan has no change for ${address}`);
  return found.change;
}

beforeAll(() => {
  cleanupPoolsByPrefix(PREFIX);
  tf = new TfWorkdir('pool');
  tf.write(dirPool(VOLUME));
  tf.init();
});

afterAll(() => {
  try {
    tf?.dispose();
  } finally {
    cleanupPoolsByPrefix(PREFIX);
  }
});

test('GIVEN a new dir pool and a volume naming it WHEN applied THEN the pool runs, autostarted, in a directory it created, with the volume in it, and a second plan is empty', () => {
  expect(fs.existsSync(DIR)).toBe(false);
  tf!.apply();
  const info = poolInfo(NAME);
  expect({ state: info.State, autostart: info.Autostart }).toEqual({ state: 'running', autostart: 'yes' });
  expect(fs.statSync(DIR).isDirectory()).toBe(true);
  expect(poolVolumes(NAME)).toEqual([`${PREFIX}-data.qcow2`]);
  const state = tf!.resource('virtseed_pool.p');
  expect(state).toMatchObject({ name: NAME, type: 'dir', path: DIR, active: true, autostart: true, source_format: null });
  expect(state.id).toBe(virshOk('pool-uuid', NAME).trim());
  expect(state.capacity).toBe(Number(info.Capacity));
  expectPlanEmpty(tf!);
});

test('GIVEN the pool stopped with virsh WHEN planned THEN active goes back to true in place; applied THEN it runs again', () => {
  virshOk('pool-destroy', NAME);
  const c = change(tf!.planJson(), 'virtseed_pool.p');
  expect(c.actions).toEqual(['update']);
  expect([c.before?.active, c.after?.active]).toEqual([false, true]);
  tf!.apply();
  expect(poolInfo(NAME).State).toBe('running');
  expectPlanEmpty(tf!);
});

test('GIVEN a volume Terraform does not manage in the pool WHEN destroyed THEN the apply fails naming it, the managed volume is gone and the pool kept', () => {
  virshOk('vol-create-as', NAME, `${PREFIX}-foreign.raw`, '1M', '--format', 'raw');
  const r = tf!.run(['destroy', '-auto-approve', '-input=false']);
  expect({ code: r.code, out: r.out }).toEqual({ code: 1, out: expect.stringContaining(`Storage pool ${NAME} is not empty`) });
  // Only the foreign volume is named: Terraform deleted the pool's own volume before it.
  expect(r.out).toMatch(new RegExp(`holds 1 volume\\(s\\) Terraform does not manage:\\s+${PREFIX}-foreign\\.raw\\.`));
  expect(poolNames(NAME)).toEqual([NAME]);
  expect(poolVolumes(NAME)).toEqual([`${PREFIX}-foreign.raw`]);
});

test('GIVEN the foreign volume removed WHEN destroyed again THEN the pool and the directory its start built are gone', () => {
  virshOk('vol-delete', '--pool', NAME, `${PREFIX}-foreign.raw`);
  tf!.destroy();
  expect(poolNames(NAME)).toEqual([]);
  expect(fs.existsSync(DIR)).toBe(false);
});

test('GIVEN the pool deleted with virsh after an apply WHEN planned THEN it is created again', () => {
  tf!.write(dirPool());
  tf!.apply();
  virshOk('pool-destroy', NAME);
  virshOk('pool-undefine', NAME);
  fs.rmdirSync(DIR);
  expect(change(tf!.planJson(), 'virtseed_pool.p').actions).toEqual(['create']);
  tf!.apply();
  expect(poolInfo(NAME).State).toBe('running');
  expectPlanEmpty(tf!);
  tf!.destroy();
  expect(fs.existsSync(DIR)).toBe(false);
});

test('GIVEN a pool made with virsh WHEN imported by name THEN the plan is empty, and destroy keeps the directory it did not build', () => {
  const name = `${PREFIX}-imp`;
  const dir = testPoolDir(name);
  virshOk('pool-define-as', name, 'dir', '--target', dir);
  virshOk('pool-build', name);
  virshOk('pool-start', name);
  virshOk('pool-autostart', name);
  const imp = new TfWorkdir('pool-import');
  try {
    imp.write(`
resource "virtseed_pool" "i" {
  name = "${name}"
  path = "${dir}"
}
`);
    imp.init();
    imp.ok(['import', '-input=false', 'virtseed_pool.i', name]);
    expect(imp.resource('virtseed_pool.i')).toMatchObject({ name, path: dir, type: 'dir', active: true, autostart: true });
    expectPlanEmpty(imp);
    imp.destroy();
    expect(poolNames(name)).toEqual([]);
    expect(fs.existsSync(dir)).toBe(true);
  } finally {
    imp.dispose();
  }
});

test('GIVEN a logical and a netfs pool with active = false WHEN applied THEN libvirt stores their definitions, stopped, and the plan is empty', () => {
  const lvm = `${PREFIX}-lvm`;
  const nfs = `${PREFIX}-nfs`;
  const defs = new TfWorkdir('pool-defs');
  try {
    defs.write(`
resource "virtseed_pool" "lvm" {
  name           = "${lvm}"
  type           = "logical"
  source_devices = ["/dev/${PREFIX}-pv1"]
  active         = false
  autostart      = false
}
resource "virtseed_pool" "nfs" {
  name          = "${nfs}"
  type          = "netfs"
  path          = "/mnt/${nfs}"
  source_host   = "nfs.example.net"
  source_dir    = "/srv/images"
  source_format = "nfs"
  active        = false
}
`);
    defs.init();
    const planned = defs.planJson();
    expect(change(planned, 'virtseed_pool.lvm').after).toMatchObject({ path: `/dev/${lvm}`, source_name: lvm, source_format: 'lvm2' });
    defs.apply();
    const lvmXml = virshOk('pool-dumpxml', '--inactive', lvm);
    expect(lvmXml).toContain(`<device path='/dev/${PREFIX}-pv1'/>`);
    expect(lvmXml).toContain(`<name>${lvm}</name>`);
    expect(lvmXml).toContain(`<path>/dev/${lvm}</path>`);
    const nfsXml = virshOk('pool-dumpxml', '--inactive', nfs);
    expect(nfsXml).toContain("<host name='nfs.example.net'/>");
    expect(nfsXml).toContain("<dir path='/srv/images'/>");
    expect(nfsXml).toContain("<format type='nfs'/>");
    expect(poolInfo(lvm)).toMatchObject({ State: 'inactive', Autostart: 'no' });
    expect(poolInfo(nfs)).toMatchObject({ State: 'inactive', Autostart: 'yes' });
    expectPlanEmpty(defs);
    defs.destroy();
    expect(poolNames(PREFIX)).toEqual([]);
  } finally {
    defs.dispose();
  }
});
