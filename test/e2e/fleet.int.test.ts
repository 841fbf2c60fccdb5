/**
 * Issue 23's proof: a fleet over three libvirt hosts on this machine (test/helpers/hosts.ts: three privileged
 * libvirtd daemons, each in its own network and mount namespace, TLS on its own address with certificates the test
 * makes), through real terraform, checked on each host with virsh:
 *  1. 12 VMs (10 defined, web-1 started with wait_for, web-2 running without an OS: no disk, it starts in a second)
 *     placed with anti-affinity and capacity limits: the policy holds (the two web VMs on different hosts, both
 *     running, no host over its max_memory, spread evenly), the full host gets none, and the next plan is empty
 *     (the apply re-planned every placement to the same host);
 *  2. adding VMs never moves an existing one (the plan only adds);
 *  3. a running guest pinned to another host live-migrates: it keeps running without a restart, only its top image
 *     is copied (same base image on both), and nothing of it is left on the old host;
 *  4. a host stopped before a plan is skipped with a warning naming it (new VMs go elsewhere, the apply fails only
 *     the change of an object on it, naming it), and a placement pinned to it fails the plan naming it;
 *  5. destroy leaves every host empty.
 * web-1 has no OS either: its disk (a qcow2 overlay on a base image, with a seed beside it, as a cloud guest's) boots
 * a console printer (test/helpers/console-printer.ts), in a second instead of a TCG boot of minutes, and idles halted
 * between its lines. It prints cloud-init's "finished" line (the wait_for over the host's TLS connection ends on it)
 * and a line of its first boot every 2 s, for ever; at its first boot it marks its disk, so a restart of the same disk
 * would print its later-boot line instead. The live move is proved by the guest (only first-boot lines on the new
 * host, none of a later boot, and the mark in the copied top image) and by the new host's QEMU, started as an
 * incoming migration. What a real OS prints is the guest tests' (test/e2e/seed-guest and others).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandOk } from '../helpers/command';
import { CLOUD_INIT_LINES, printerImage } from '../helpers/console-printer';
import { TestHosts } from '../helpers/hosts';
import { readConsole } from '../helpers/guest';
import { TfWorkdir } from '../helpers/terraform';

jest.setTimeout(1_800_000);

const PREFIX = 'vstest-fleet-';
const MAX_MEMORY = { h1: 1536, h2: 1536, h3: 1024 };
const SQUATTER = `${PREFIX}squatter`;

const hosts = new TestHosts({ label: 'flt', count: 3, subnet: '10.251.23', prefix: PREFIX });
let tf: TfWorkdir;
/** web-1's base image: the printer (a qcow2 file in the workdir), uploaded into its base volume. */
let printerBase: string;

interface Vm {
  readonly id: string;
  readonly memory: number;
  readonly group?: string;
  /** Boots the printer from a base and root volume with a seed (wait_for); the guest the live move moves. */
  readonly booted?: boolean;
  /** Runs without an OS (no disk, no kernel): placement and running state only, no TCG boot. */
  readonly osless?: boolean;
  readonly pin?: string;
  /** The domain's title (a change that only its own host can apply). */
  readonly title?: string;
}

const name = (vm: Vm) => `${PREFIX}${vm.id}`;
const webs: Vm[] = [
  { id: 'web-1', memory: 384, group: 'web', booted: true },
  { id: 'web-2', memory: 384, group: 'web', osless: true },
];
const apps = (from: number, to: number): Vm[] => Array.from({ length: to - from + 1 }, (_, i) => ({ id: `app-${from + i}`, memory: 128 }));

/** web-1's lines: each ends in `\r\n`, the first boot's every 2 s (36 BIOS ticks) after cloud-init's "finished". */
const FIRST_BOOT = 'vstest-printer first boot';
const LATER_BOOT = 'vstest-printer later boot';

/**
 * The printer as a qcow2 base image at `file`: the boot sector's program and, after it, 15 MiB of non-zero bytes, so
 * that the base is much larger than a top image holding only the boot mark (the copy of the live move is measured
 * against it). qemu-img converts the raw image.
 */
function writePrinterBase(file: string): string {
  const raw = `${file}.raw`;
  const program = printerImage({ first: `${CLOUD_INIT_LINES.finished()}${FIRST_BOOT}\r\n`, later: `${LATER_BOOT}\r\n`, repeatTicks: 36 });
  fs.writeFileSync(raw, Buffer.concat([program, Buffer.alloc(15 << 20, 0xa5)]));
  commandOk('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', raw, file], 120_000);
  fs.rmSync(raw);
  return file;
}

/** A VM's placement (chained after `after`), domain, and for a booted one its base, root and seed volumes. */
function vmHcl(vm: Vm, after?: Vm): string {
  const r = vm.id.replace(/-/g, '_');
  const host = `virtseed_placement.${r}.host`;
  let out = `
resource "virtseed_placement" "${r}" {
  name   = "${name(vm)}"
  memory = ${vm.memory}
${vm.group ? `  anti_affinity = "${vm.group}"\n` : ''}${vm.pin ? `  pin = "${vm.pin}"\n` : ''}${after ? `  depends_on = [virtseed_placement.${after.id.replace(/-/g, '_')}]\n` : ''}}
`;
  if (vm.booted)
    out += `
resource "virtseed_volume" "${r}_base" {
  host   = ${host}
  pool   = "${hosts.pool}"
  name   = "${name(vm)}-base.qcow2"
  source = "${printerBase}"
}
resource "virtseed_volume" "${r}_root" {
  host           = ${host}
  pool           = "${hosts.pool}"
  name           = "${name(vm)}-root.qcow2"
  backing_volume = virtseed_volume.${r}_base.id
}
resource "virtseed_cloudinit_seed" "${r}" {
  host         = ${host}
  pool         = "${hosts.pool}"
  name         = "${name(vm)}-seed.iso"
  hostname     = "${vm.id}"
}
`;
  out += `
resource "virtseed_domain" "${r}" {
  name          = "${name(vm)}"
  host          = ${host}
  memory        = ${vm.memory}
${vm.group ? `  anti_affinity = virtseed_placement.${r}.anti_affinity\n` : ''}${vm.title ? `  title = "${vm.title}"\n` : ''}${
    vm.booted
      ? `  disk { volume_id = virtseed_volume.${r}_root.id }
  cloudinit_seed_id = virtseed_cloudinit_seed.${r}.id
  instance_id       = virtseed_cloudinit_seed.${r}.instance_id
  wait_for     = "cloud-init"
  wait_timeout = 900
  # No OS answers the power button: a destroy powers it off at once.
  shutdown_timeout = 0
`
      : vm.osless
        ? '  running = true\n'
        : '  running = false\n'
  }}
`;
  return out;
}

function write(vms: Vm[]): void {
  const body = vms.map((vm, i) => vmHcl(vm, vms[i - 1])).join('');
  const limits = Object.fromEntries(Object.entries(MAX_MEMORY).map(([h, m]) => [h, `max_memory = ${m}`]));
  tf.write(body, hosts.providerBlock(limits));
}

/** The host each VM's domain is on, from virsh on every host. */
function whereIs(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of hosts.hosts) for (const d of hosts.domains(h.index)) out[d] = h.name;
  return out;
}

/** Committed memory (MiB) of every domain on host `index`, from virsh. */
function committedMiB(index: number): number {
  return hosts
    .domains(index)
    .reduce((n, d) => n + Number(/<memory unit='KiB'>(\d+)</.exec(hosts.virsh(index, ['dumpxml', '--inactive', d]))![1]) / 1024, 0);
}

function consoleLog(hostIndex: number, vm: Vm): string {
  return path.join(hosts.host(hostIndex).dir, 'log', 'qemu', `${name(vm)}-console.log`);
}

/** How many first-boot and later-boot lines web-1 printed in `text` (a console log). */
function printed(text: string): { first: number; later: number } {
  return { first: text.split(FIRST_BOOT).length - 1, later: text.split(LATER_BOOT).length - 1 };
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

beforeAll(async () => {
  await hosts.setup();
  // h3 is full: another tenant's domain (not virtseed's) commits all of its max_memory.
  hosts.define(
    3,
    `<domain type='qemu'><name>${SQUATTER}</name><memory unit='MiB'>${MAX_MEMORY.h3}</memory><vcpu>1</vcpu><os><type arch='x86_64'>hvm</type></os></domain>`,
  );
  tf = new TfWorkdir('fleet');
  printerBase = writePrinterBase(path.join(tf.dir, 'printer-base.qcow2'));
  write([]);
  tf.init();
}, 300_000);

afterAll(async () => {
  try {
    if (tf) {
      await hosts.start(2).catch(() => undefined);
      tf.dispose(); // destroys what a failed test left (no terraform run when the last test destroyed everything)
    }
  } finally {
    await hosts.teardown();
  }
}, 600_000);

const fleet12 = [...webs, ...apps(1, 10)];

test('GIVEN 12 VMs with anti-affinity and capacity limits WHEN applied THEN the policy holds on every host, the full host gets none, and the next plan is empty', () => {
  write(fleet12);
  const started = Date.now();
  tf.ok(['apply', '-auto-approve', '-input=false'], 1_500_000);
  console.log(
    `fleet: 12 VMs (web-1 a console printer, web-2 running without an OS) applied over 3 hosts in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  const where = whereIs();
  const placed = fleet12.map((vm) => where[name(vm)]);
  expect(placed.every((h) => h === 'h1' || h === 'h2')).toBe(true);
  expect(hosts.domains(3)).toEqual([SQUATTER]);
  expect(where[name(webs[0])]).not.toBe(where[name(webs[1])]);
  expect(hosts.runningDomains(1).concat(hosts.runningDomains(2)).sort()).toEqual(webs.map(name).sort());
  for (const h of [1, 2] as const) expect(committedMiB(h)).toBeLessThanOrEqual(MAX_MEMORY[`h${h}`]);
  const perHost = [1, 2].map((h) => hosts.domains(h).length);
  expect(Math.abs(perHost[0] - perHost[1])).toBeLessThanOrEqual(1);
  // Each placement states its choice; the state agrees with virsh.
  const state = tf.resources();
  for (const vm of fleet12) expect(state[`virtseed_placement.${vm.id.replace(/-/g, '_')}`]?.host).toBe(where[name(vm)]);
  console.log(`fleet: placements ${JSON.stringify(Object.fromEntries(fleet12.map((vm) => [vm.id, where[name(vm)]])))}`);
  expect(tf.plan()).toMatchObject({ code: 0 });
});

test('GIVEN the fleet WHEN two VMs are added THEN the plan only adds and no existing VM moves', () => {
  const before = whereIs();
  write([...fleet12, ...apps(11, 12)]);
  const plan = tf.planJson();
  const actions = (plan.resource_changes ?? [])
    .filter((c: { change: { actions: string[] } }) => !c.change.actions.includes('no-op'))
    .map((c: { address: string; change: { actions: string[] } }) => `${c.address} ${c.change.actions.join(',')}`)
    .sort();
  expect(actions).toEqual([
    'virtseed_domain.app_11 create',
    'virtseed_domain.app_12 create',
    'virtseed_placement.app_11 create',
    'virtseed_placement.app_12 create',
  ]);
  tf.ok(['apply', '-input=false', 'tfplan']); // the plan just checked, without planning again
  const after = whereIs();
  for (const [vm, host] of Object.entries(before)) expect(after[vm]).toBe(host);
  expect(Object.keys(after)).toHaveLength(Object.keys(before).length + 2);
});

test('GIVEN a running web VM pinned to h3 (made free) WHEN planned and applied THEN it moves live, keeps running without a restart and leaves nothing on its old host', async () => {
  hosts.virsh(3, ['undefine', SQUATTER]);
  const web1 = webs[0];
  const from = whereIs()[name(web1)];
  const fromIndex = Number(from.slice(1));
  // On the old host: its first boot's lines, printed every 2 s, and no later boot's.
  const before = await waitFor('two first-boot lines on the old host', () => {
    const p = printed(readConsole(consoleLog(fromIndex, web1)));
    return p.first >= 2 ? p : undefined;
  });
  expect(before.later).toBe(0);
  const fleet = [{ ...web1, pin: 'h3' }, webs[1], ...apps(1, 12)];
  write(fleet);
  const r = tf.plan();
  expect({ code: r.code, out: r.out }).toEqual({
    code: 2,
    out: expect.stringContaining(`Warning: Domain ${name(web1)} moves live from ${from} to h3`),
  });
  expect(r.out).toMatch(/virtseed_domain\.web_1 will be updated in-place/);
  const started = Date.now();
  tf.apply();
  console.log(`fleet: live move of ${name(web1)} ${from} → h3 applied in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  expect(whereIs()[name(web1)]).toBe('h3');
  expect(hosts.runningDomains(3)).toEqual([name(web1)]);
  expect(hosts.volumes(fromIndex).filter((v) => v.startsWith(name(web1)))).toEqual([]);
  expect(hosts.domains(fromIndex)).not.toContain(name(web1));
  expect(hosts.volumes(3)).toEqual([`${name(web1)}-base.qcow2`, `${name(web1)}-root.qcow2`, `${name(web1)}-seed.iso`]);
  // Only the top image was copied (NON_SHARED_INC): the base images on both hosts are the same upload.
  const allocation = (vol: string) =>
    Number(/Allocation:\s+(\d+) bytes/.exec(hosts.virsh(3, ['vol-info', '--pool', hosts.pool, vol, '--bytes']))![1]);
  expect(allocation(`${name(web1)}-root.qcow2`)).toBeLessThan(allocation(`${name(web1)}-base.qcow2`) / 2);
  // The copied top image holds the mark the guest wrote at its first boot on the old host (sector 1 starts with 'M').
  const root = path.join(hosts.host(3).poolDir, `${name(web1)}-root.qcow2`);
  const mark = commandOk('qemu-io', ['-r', '-U', '-f', 'qcow2', '-c', 'read -P 0x4d 512 1', root], 60_000);
  expect(mark).toMatch(/read 1\/1 bytes/);
  // h3's QEMU was started as the migration's target, not booted (libvirt logs its command line, one option a line).
  expect(fs.readFileSync(path.join(hosts.host(3).dir, 'log', 'qemu', `${name(web1)}.log`), 'utf8')).toMatch(/^-incoming /m);
  // The guest kept running: on h3 it goes on printing its first boot's line; a restart of the marked disk would print
  // its later boot's.
  const after = await waitFor('two first-boot lines on h3', () => {
    const p = printed(readConsole(consoleLog(3, web1)));
    return p.first >= 2 ? p : undefined;
  });
  expect(after.later).toBe(0);
  expect(fs.existsSync(consoleLog(3, web1))).toBe(true);
  expect(tf.plan()).toMatchObject({ code: 0 });
});

test('GIVEN h2 stopped WHEN a VM is added and a VM on h2 changed THEN the plan skips h2 naming it, the apply adds the VM elsewhere and fails only the change on h2; a VM pinned to h2 fails the plan naming it', async () => {
  const fleet = [{ ...webs[0], pin: 'h3' }, webs[1], ...apps(1, 12)];
  const where = whereIs();
  const onH2 = fleet.find((vm) => !vm.group && where[name(vm)] === 'h2')!;
  const retitled = fleet.map((vm) => (vm === onH2 ? { ...vm, title: 'retitled' } : vm));
  const withNew = [...retitled, ...apps(13, 13)];
  await hosts.stop(2);
  try {
    write(withNew);
    const r = tf.plan();
    expect({ code: r.code, out: r.out }).toEqual({ code: 2, out: expect.stringContaining('Warning: Host h2 skipped: it does not answer') });
    expect(r.out).toContain(`Warning: Not refreshed: host h2 (${hosts.host(2).uri}) does not answer`);
    expect(r.out).toMatch(/virtseed_placement\.app_13 will be created/);
    expect(r.out).not.toMatch(/host += "h2"/);
    // The apply: the new VM lands on an answering host; the change on h2 fails naming h2, and only it.
    const applied = tf.run(['apply', '-auto-approve', '-input=false']);
    const flat = applied.out.replace(/\s+/g, ' ');
    expect({ code: applied.code, out: flat }).toEqual({ code: 1, out: expect.stringContaining('Cannot connect to libvirt host h2') });
    expect(flat.match(/Error: /g)).toHaveLength(1);
    expect(flat).toMatch(new RegExp(`with virtseed_domain\\.${onH2.id.replace(/-/g, '_')},`));
    const placedNew = tf.resource('virtseed_placement.app_13').host;
    expect(['h1', 'h3']).toContain(placedNew);
    expect(hosts.domains(Number(String(placedNew).slice(1)))).toContain(name(apps(13, 13)[0]));
    console.log(
      `fleet: with h2 down, app-13 placed on ${String(placedNew)}; the change on h2 failed: ${/Error: [^\n]*/.exec(applied.out)?.[0]}`,
    );
    write([...withNew, { id: 'app-14', memory: 128, pin: 'h2' }]);
    const pinned = tf.plan();
    expect({ code: pinned.code, out: pinned.out.replace(/\s+/g, ' ') }).toEqual({
      code: 1,
      out: expect.stringContaining(`Error: No host for ${PREFIX}app-14`),
    });
    expect(pinned.out.replace(/\s+/g, ' ')).toMatch(/h2 does not answer \(.*\)\. Pin another host/);
  } finally {
    await hosts.start(2);
    write(withNew);
  }
  // h2 back: the failed change is applied there and nothing else moves.
  const before = whereIs();
  tf.apply();
  expect(whereIs()).toEqual(before);
  expect(hosts.virsh(2, ['desc', '--title', name(onH2)]).trim()).toBe('retitled');
  expect(tf.plan()).toMatchObject({ code: 0 });
});

test('GIVEN the fleet WHEN destroyed THEN every host is empty', () => {
  tf.destroy();
  for (const h of hosts.hosts)
    expect({ host: h.name, domains: hosts.domains(h.index), volumes: hosts.volumes(h.index) }).toEqual({
      host: h.name,
      domains: [],
      volumes: [],
    });
});
