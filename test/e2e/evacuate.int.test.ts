/**
 * Issue 37's lost host: the VMs of a host that is gone come back on the other hosts from their latest backups by
 * one plan and one apply (docs/backups.md "A lost host"), on three libvirt hosts on this machine
 * (test/helpers/hosts.ts), through real terraform, checked with virsh and qemu-img:
 *  1. two VMs pinned to h2, each a running domain on an empty qcow2 volume (no OS: QEMU runs, SeaBIOS finds
 *     nothing to boot; a push backup needs a running domain, not a guest); bytes written through QEMU (HMP
 *     `qemu-io`), a full backup of each, more bytes and an incremental of vm-a, then bytes written after the last
 *     backup (the data a lost host takes with it);
 *  2. h2 stopped; the configuration takes the plan of docs/backups.md: `removed` blocks (destroy = false) for the
 *     lost objects, the placements decided again (`rebalance`, pin removed), each volume `restore_from` its domain's
 *     backup folder (the latest backup). The plan warns per VM naming it, its backup and its age, and that what was
 *     written after it is lost; nothing on h1/h3 before the apply;
 *  3. one apply: each VM runs on h1 or h3 on a volume whose bytes equal its latest backup's chain (sha256 of the raw
 *     disk), with the writes up to the backup and without the one after it; the next plan is empty;
 *  4. destroy leaves h1 and h3 empty.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chainImageSpec } from '../../src/backup';
import { connect } from '../../src/libvirt';
import { createBackup, readBackups } from '../../src/ops/backups';
import { commandOk } from '../helpers/command';
import { TestHosts } from '../helpers/hosts';
import { writeThroughQemu as writeInto } from '../helpers/qemu-io';
import { TfWorkdir } from '../helpers/terraform';

jest.setTimeout(900_000);

const PREFIX = 'vstest-evac-';
const MIB = 1024 * 1024;
const hosts = new TestHosts({ label: 'evac', count: 3, subnet: '10.251.37', prefix: PREFIX });
let tf: TfWorkdir;
let root: string;

interface Vm {
  readonly id: 'a' | 'b';
}
const VMS: Vm[] = [{ id: 'a' }, { id: 'b' }];
const name = (vm: Vm) => `${PREFIX}${vm.id}`;

/** Gen 1: each VM pinned to h2. Gen 2 (h2 lost): the lost objects removed from the state, each VM restored. */
function write(gen: 1 | 2): void {
  const body = VMS.map((vm, i) => {
    const after = i ? `  depends_on = [virtseed_placement.vm_${VMS[i - 1].id}]\n` : '';
    const placement = `
resource "virtseed_placement" "vm_${vm.id}" {
  name   = "${name(vm)}"
  memory = 64
${gen === 1 ? '  pin = "h2"' : '  rebalance = "h2-lost"'}
${after}}
`;
    const r = gen === 1 ? `vm_${vm.id}` : `vm_${vm.id}_restored`;
    const volume = `
resource "virtseed_volume" "${r}" {
  host = virtseed_placement.vm_${vm.id}.host
  pool = "${hosts.pool}"
  name = "${name(vm)}.qcow2"
${gen === 1 ? `  capacity = ${16 * MIB}` : `  restore_from = "${root}/${name(vm)}"`}
}
resource "virtseed_domain" "${r}" {
  name   = "${name(vm)}"
  host   = virtseed_placement.vm_${vm.id}.host
  memory = 64
  disk { volume_id = virtseed_volume.${r}.id }
}
`;
    const removed =
      gen === 2
        ? `
removed {
  from = virtseed_domain.vm_${vm.id}
  lifecycle { destroy = false }
}
removed {
  from = virtseed_volume.vm_${vm.id}
  lifecycle { destroy = false }
}
`
        : '';
    return placement + volume + removed;
  }).join('');
  tf.write(body, hosts.providerBlock());
}

/** Writes `pattern` bytes at `offset` of the running domain's volume on h2 through QEMU (test/helpers/qemu-io.ts). */
function writeThroughQemu(vm: Vm, pattern: string, offset: number, length: number): void {
  writeInto(
    (command) => hosts.virsh(2, ['qemu-monitor-command', name(vm), '--hmp', command]),
    `${name(vm)}.qcow2`,
    pattern,
    offset,
    length,
  );
}

/** sha256 of a qcow2 image's (or a `json:` chain's) guest-visible bytes, from its raw conversion. */
function rawSha256(image: string): string {
  const raw = path.join(hosts.dir, `raw-${createHash('sha256').update(image).digest('hex').slice(0, 8)}.img`);
  commandOk('qemu-img', ['convert', '-U', '-O', 'raw', image, raw]);
  try {
    return createHash('sha256').update(fs.readFileSync(raw)).digest('hex');
  } finally {
    fs.rmSync(raw, { force: true });
  }
}

/** True when `length` bytes at `offset` of the image all read `pattern` (qemu-io, shared read; it exits 1 on a
 *  pattern mismatch). */
function reads(image: string, pattern: string, offset: number, length: number): boolean {
  const args = ['-r', '-U', '-f', 'qcow2', '-c', `read -P ${pattern} ${offset} ${length}`, image];
  const r = spawnSync('qemu-io', args, { encoding: 'utf8' });
  const out = `${r.stdout}${r.stderr}`;
  if (!/read \d+\/\d+ bytes/.test(out)) throw new Error(`qemu-io ${args.join(' ')} exited ${r.status}: ${out}`);
  return r.status === 0 && !/Pattern verification failed/.test(out);
}

beforeAll(async () => {
  await hosts.setup();
  root = path.join(hosts.dir, 'backups');
  fs.mkdirSync(root, { mode: 0o755 });
  fs.chmodSync(root, 0o755);
  tf = new TfWorkdir('evac');
  write(1);
  tf.init();
}, 300_000);

afterAll(async () => {
  try {
    if (tf) {
      tf.run(['destroy', '-auto-approve', '-input=false']);
      tf.dispose();
    }
  } finally {
    await hosts.teardown();
  }
}, 600_000);

test('GIVEN two VMs on h2 with full and incremental backups WHEN h2 is lost THEN one plan names each VM, its backup and its age, and one apply brings both back on the other hosts with the backed-up bytes', async () => {
  tf.apply();
  expect(hosts.runningDomains(2)).toEqual(VMS.map(name));
  const client = await connect(hosts.host(2).uri, { keepaliveInterval: 0 });
  const backup = async (vm: Vm) =>
    (await createBackup(client, await client.domainLookupByName(name(vm)), root, { now: () => new Date() })).manifest;
  try {
    writeThroughQemu(VMS[0], '0x11', 0, 4 * MIB);
    writeThroughQemu(VMS[1], '0x22', 2 * MIB, 2 * MIB);
    expect((await backup(VMS[0])).id).toBe('0001-full');
    expect((await backup(VMS[1])).id).toBe('0001-full');
    writeThroughQemu(VMS[0], '0x5a', 4 * MIB, MIB);
    expect((await backup(VMS[0])).id).toBe('0002-incremental');
    // After the last backups: what the lost host takes with it.
    writeThroughQemu(VMS[0], '0x77', 8 * MIB, MIB);
    writeThroughQemu(VMS[1], '0x77', 8 * MIB, MIB);
  } finally {
    await client.close();
  }
  await hosts.stop(2);

  write(2);
  const plan = tf.plan();
  const flat = plan.out.replace(/\s+/g, ' ');
  expect({ code: plan.code, out: flat }).toEqual({
    code: 2,
    out: expect.stringContaining(`Warning: ${name(VMS[0])} restored from backup 0002-incremental,`),
  });
  expect(flat).toContain(`Warning: ${name(VMS[1])} restored from backup 0001-full,`);
  expect(flat).toContain(`Whatever ${name(VMS[0])} wrote to vda after`);
  expect(flat).toContain('Warning: Host h2 skipped: it does not answer');
  for (const vm of VMS) {
    expect(flat).toMatch(new RegExp(`virtseed_domain\\.vm_${vm.id} will no longer be managed by Terraform`));
    expect(flat).toMatch(new RegExp(`virtseed_volume\\.vm_${vm.id}_restored will be created`));
  }
  expect(flat).toContain('+ restore_chain = [ + "0001-full", + "0002-incremental", ]');
  expect(flat).toContain('+ restore_chain = [ + "0001-full", ]');
  // Nothing happens before the apply.
  expect([...hosts.domains(1), ...hosts.domains(3)]).toEqual([]);

  const started = Date.now();
  tf.apply();
  console.log(
    `evacuate: 2 VMs restored from h2's backups onto the other hosts in one apply, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const vm of VMS) {
    const host = String(tf.resource(`virtseed_placement.vm_${vm.id}`).host);
    expect(['h1', 'h3']).toContain(host);
    const index = Number(host.slice(1));
    expect(hosts.runningDomains(index)).toContain(name(vm));
    const backups = await readBackups(root, name(vm));
    const latest = backups.at(-1)!;
    const files = backups.map((m) => path.join(root, name(vm), m.id, m.files.find((f) => f.role === 'disk')!.name));
    const restored = String(tf.resource(`virtseed_volume.vm_${vm.id}_restored`).path);
    expect(restored.startsWith(hosts.host(index).poolDir)).toBe(true);
    expect(tf.resource(`virtseed_volume.vm_${vm.id}_restored`).restore_chain).toEqual(backups.map((m) => m.id));
    expect({ vm: vm.id, backup: latest.id, sha256: rawSha256(restored) }).toEqual({
      vm: vm.id,
      backup: latest.id,
      sha256: rawSha256(files.length === 1 ? files[0] : chainImageSpec(files)),
    });
    expect(reads(restored, '0x77', 8 * MIB, MIB)).toBe(false);
    console.log(`evacuate: ${name(vm)} on ${host} from ${backups.map((m) => m.id).join(' + ')}`);
  }
  const a = String(tf.resource('virtseed_volume.vm_a_restored').path);
  expect([reads(a, '0x11', 0, 4 * MIB), reads(a, '0x5a', 4 * MIB, MIB)]).toEqual([true, true]);
  const b = String(tf.resource('virtseed_volume.vm_b_restored').path);
  expect(reads(b, '0x22', 2 * MIB, 2 * MIB)).toBe(true);
  expect(tf.plan()).toMatchObject({ code: 0 });
});

test('GIVEN the restored VMs WHEN destroyed THEN h1 and h3 are empty', () => {
  tf.destroy();
  for (const index of [1, 3])
    expect({ host: index, domains: hosts.domains(index), volumes: hosts.volumes(index) }).toEqual({
      host: index,
      domains: [],
      volumes: [],
    });
});
