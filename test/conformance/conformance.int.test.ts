/**
 * The conformance suite (issue 31): every resource and data source through Terraform's ordinary workflows, on
 * configurations generated from the field tables (./generate.ts, ./kinds.ts), real terraform and libvirtd. One
 * configuration holds every generated instance of every kind (one apply per round covers them all): apply → plan
 * empty → `apply -refresh-only` changes nothing → import into a fresh state gives the same state and an empty plan →
 * each updatable attribute changed alone (one per instance per round): the plan updates that attribute only, apply,
 * plan empty → `-replace` and `taint`: the plan replaces, apply works → a change made with virsh (or, for a backup
 * policy, its backups' folder removed) shows as exactly that change → destroy → nothing named with the prefix left.
 * Generated domains are defined, never started: no guest boots. The backup policies back up one fixed domain that
 * runs with no OS (./kinds.ts runningDomainHcl: one QEMU start, no boot).
 *
 * How the provider runs: terraform reattaches to one provider process of the working directory
 * (test/helpers/reattach.ts, as terraform-plugin-testing runs providers) in the workflows above; a reattached process
 * starts a new walk at each ConfigureProvider and forgets what a fresh one would not know (README, "Testing"). Two
 * steps stay managed (`FRESH_PROCESS`: terraform starts the provider, fresh processes per command, as users run it),
 * so the trust suite also sees what the user's processes see after the host changed under them: the change made with
 * virsh (its plan, apply and next plan) and the import of an uploaded volume into a fresh working directory. The
 * managed start itself is covered on every run by examples/basic, install-from-packages, the packages and plugin
 * tests and test/faults.
 *
 * Seeded: VIRTSEED_CONFORMANCE_SEED replays a run; every failure message starts with the seed. Known defects are
 * in KNOWN_FAILURES (each asserted to still fail, so a fix shows).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isBlock } from '../../src/fields';
import {
  expectImportSame,
  expectNothingLeft,
  expectPlanEmpty,
  expectRefreshChangesNothing,
  removeByPrefix,
  stateValues,
  valueDiff,
} from '../helpers/steps';
import { TfWorkdir, type TfPlanJson } from '../helpers/terraform';
import {
  address,
  alternative,
  configurable,
  generate,
  hclResource,
  Rng,
  updatable,
  isExpr,
  type Attrs,
  type Context,
  type KindSpec,
} from './generate';
import { KINDS, runningDomainHcl } from './kinds';

jest.setTimeout(900_000);

// VIRTSEED_CONFORMANCE_PREFIX: another prefix (and other subnets) for a run beside another checkout's.
const PREFIX = process.env.VIRTSEED_CONFORMANCE_PREFIX ?? 'vstest-conform';
// The default seed is one the suite passed with; set VIRTSEED_CONFORMANCE_SEED (any integer) to try others.
const SEED = process.env.VIRTSEED_CONFORMANCE_SEED ? Number(process.env.VIRTSEED_CONFORMANCE_SEED) : 12345;
const rng = new Rng(SEED);
const OFFSET = rng.int(1000);

/**
 * The one list of known failures: `type/workflow` → the defect. Each is asserted to fail still; remove its entry
 * when it passes.
 */
const KNOWN_FAILURES: Readonly<Record<string, string>> = {};

/**
 * The known failures of the workflow "each updatable attribute changed alone" (keys `type/update attribute` of
 * KNOWN_FAILURES): the error the apply still fails with. The rounds leave these attributes out; one last apply changes
 * each on every instance it can be changed alone on and must still fail with it, then the configuration goes back.
 */
const KNOWN_UPDATE_ERRORS: Readonly<Record<string, RegExp>> = {};

/** Why a step runs the managed way (see the file's doc). */
const FRESH_PROCESS = "the user's provider processes, started by terraform, must see what changed on the host";

const FIXTURES = `/tmp/${PREFIX}-fixtures`;
// QEMU writes the backups' disk copies: a directory it can enter, outside a private /tmp.
const BACKUPS = `/var/tmp/${PREFIX}-backups`;

function fixtures(): Record<string, string> {
  fs.mkdirSync(path.join(FIXTURES, 'share'), { recursive: true });
  // 1 MiB raw image: data at the start and at a chunk edge, holes between.
  const raw = Buffer.alloc(1048576);
  raw.write('conformance source image', 0);
  raw.fill(0xa5, 65536 - 100, 65536 + 100);
  const source = path.join(FIXTURES, 'source.raw');
  fs.writeFileSync(source, raw);
  const disk = path.join(FIXTURES, 'disk.raw');
  fs.writeFileSync(disk, Buffer.alloc(65536));
  fs.writeFileSync(path.join(FIXTURES, 'vmlinuz'), 'not a kernel: never booted');
  fs.writeFileSync(path.join(FIXTURES, 'initrd.img'), 'not an initrd: never booted');
  fs.rmSync(BACKUPS, { recursive: true, force: true });
  fs.mkdirSync(BACKUPS, { mode: 0o755 });
  fs.chmodSync(BACKUPS, 0o755);
  return {
    backupRoot: BACKUPS,
    sourceFile: source,
    sourceSha256: createHash('sha256').update(raw).digest('hex'),
    diskFile: disk,
    shareDir: path.join(FIXTURES, 'share'),
    kernel: path.join(FIXTURES, 'vmlinuz'),
    initrd: path.join(FIXTURES, 'initrd.img'),
  };
}

const ctx: Context = {
  prefix: PREFIX,
  counts: Object.fromEntries(KINDS.map((k) => [k.type, k.count])),
  fixtures: {},
  // 10.213.50–99: below the e2e tests' 100–249 (test/helpers/network.ts).
  octets: [50 + ((SEED + PREFIX.length - 14) % 25), 75 + ((SEED + PREFIX.length - 14) % 25)],
};

/** The generated attributes of every instance, by address; changed by the workflows as they go. */
const instances = new Map<string, { kind: KindSpec; i: number; attrs: Attrs }>();

function dataSources(): string {
  return `
data "virtseed_pool" "d" { name = virtseed_pool.c0.name }
data "virtseed_volume" "d" {
  pool = virtseed_volume.c0.pool
  name = virtseed_volume.c0.name
}
data "virtseed_network" "d" { name = virtseed_network.c0.name }
data "virtseed_domain" "d" { name = virtseed_domain.c1.name }
data "virtseed_host" "d" {}
`;
}

function config(): string {
  let out = runningDomainHcl(ctx);
  for (const { kind, i, attrs } of instances.values()) out += hclResource(kind, i, attrs);
  return out + dataSources();
}

/** `v` with references to resources outside `keep` replaced by their values in `state` (a literal id). */
function resolve(v: unknown, keep: ReadonlySet<string>, state: Record<string, Record<string, unknown>>): unknown {
  if (isExpr(v)) {
    const m = /^(virtseed_\w+\.\w+)\.(\w+)$/.exec(v.expr);
    if (m && !keep.has(m[1]!)) return String(state[m[1]!]?.[m[2]!] ?? '');
    return v;
  }
  if (Array.isArray(v)) return v.map((e) => resolve(e, keep, state));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, resolve(e, keep, state)]));
  return v;
}

/** The configuration of the instances at `addresses` only, other references resolved to literals from `state`. */
function configOf(addresses: ReadonlySet<string>, state: Record<string, Record<string, unknown>>, data = true): string {
  let out = '';
  for (const [addr, { kind, i, attrs }] of instances)
    if (addresses.has(addr)) out += hclResource(kind, i, resolve(attrs, addresses, state) as Attrs);
  return out + (data ? dataSources() : '');
}

/** The configuration of the run, for failure messages. */
function context(): string {
  return `seed ${SEED} (replay: VIRTSEED_CONFORMANCE_SEED=${SEED})\n--- configuration:\n${config()}`;
}

async function withSeed<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw new Error(`${(e as Error).message}\n--- ${context()}`, { cause: e });
  }
}

let tf: TfWorkdir;

/** A saved plan (`tfplan`) as JSON; `text()` shows it as text (another `terraform show`: only for a failure's message). */
function planJson(args: string[] = []): { json: TfPlanJson; text: () => string } {
  tf.ok(['plan', '-input=false', '-out=tfplan', ...args]);
  const shown = tf.run(['show', '-json', 'tfplan']);
  return { json: JSON.parse(shown.out.slice(shown.out.indexOf('{'))) as TfPlanJson, text: () => tf.run(['show', 'tfplan']).out };
}

beforeAll(() => {
  removeByPrefix(PREFIX);
  Object.assign(ctx.fixtures, fixtures());
  for (const kind of KINDS)
    for (let i = 0; i < kind.count; i++) instances.set(address(kind, i), { kind, i, attrs: generate(kind, ctx, i, OFFSET) });
  tf = new TfWorkdir('conform');
  tf.write(config());
  tf.init();
});

afterAll(() => {
  try {
    tf?.dispose();
  } finally {
    removeByPrefix(PREFIX);
    fs.rmSync(FIXTURES, { recursive: true, force: true });
    fs.rmSync(BACKUPS, { recursive: true, force: true });
  }
});

test('GIVEN generated configurations of every resource and data source WHEN applied THEN the plan is empty and refresh-only changes nothing', () =>
  withSeed(() => {
    tf.ok(['apply', '-auto-approve', '-input=false']);
    expectPlanEmpty(tf, 'the first apply');
    expectRefreshChangesNothing(tf);
    // The harness reads states from the state file (no terraform run); here, with every kind in it, that gives what
    // `terraform show -json` gives.
    expect(stateValues(tf)).toEqual(tf.shownResources());
  }));

test('GIVEN the applied objects WHEN imported into a fresh state THEN the state is the same and the plan is empty', () =>
  withSeed(() => {
    const values = stateValues(tf);
    const importable = [...instances.entries()].filter(([, x]) => x.kind.importId);
    // A volume uploaded from `source` plans a replacement after import: import cannot know where its bytes came from
    // (documented: docs/resources/volume.md "Import"). The plan must say just that.
    const [known, others] = [true, false].map((k) =>
      importable.filter(([, x]) => (x.kind.type === 'virtseed_volume' && x.attrs.source !== undefined) === k),
    );
    const targets = others!.map(([addr, x]) => ({
      address: addr,
      id: x.kind.importId!(values[addr] ?? {}),
      ignore: x.kind.importIgnore,
      asWritten: x.kind.importAsWritten,
    }));
    expectImportSame(tf, configOf(new Set(targets.map((t) => t.address)), values), targets, { planEmpty: false });
    if (known!.length === 0) return;
    const [addr, x] = known![0]!;
    const other = new TfWorkdir('conform-import-known', {}, { managed: FRESH_PROCESS });
    try {
      other.write(
        `${configOf(new Set([addr]), values, false)}\nimport {\n  to = ${addr}\n  id = "${x.kind.importId!(values[addr] ?? {})}"\n}\n`,
      );
      other.init();
      const plan = other.ok(['plan', '-input=false']);
      expect(plan).toMatch(/must be replaced/);
    } finally {
      fs.rmSync(other.dir, { recursive: true, force: true });
    }
  }));

/** Configured top-level attributes that differ between a change's before and after. */
function changedAttributes(kind: KindSpec, before: Record<string, unknown>, after: Record<string, unknown>, attrs: Attrs): string[] {
  return Object.entries(kind.fields)
    .filter(([name, f]) => {
      if (valueDiff(before[name], after[name]).length === 0) return false;
      if (isBlock(f)) return true;
      if (!configurable(f)) return false;
      // An unset attribute with a derived default may follow the changed one (e.g. max_memory follows memory).
      return !(attrs[name] === undefined && typeof f.default === 'object');
    })
    .map(([name]) => name);
}

test('GIVEN the applied objects WHEN each updatable attribute is changed alone THEN the plan updates that attribute only, apply works and the next plan is empty', () =>
  withSeed(() => {
    const failures: string[] = [];
    const queue = new Map<string, string[]>();
    for (const [addr, x] of instances) {
      const fixed = x.kind.base(ctx, x.i);
      queue.set(
        addr,
        updatable(x.kind).filter((n) => fixed[n] === undefined),
      );
    }
    // Instance i of a kind starts at its i-th attribute, so the instances of a kind cover its attributes together.
    const done = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const changes = new Map<string, string>();
      for (const [addr, x] of instances) {
        const names = queue.get(addr)!;
        const todo = names.filter((n, k) => k % x.kind.count === x.i % x.kind.count && !done.has(`${x.kind.type}.${n}`));
        for (const name of todo) {
          if (KNOWN_UPDATE_ERRORS[`${x.kind.type}/update ${name}`]) continue;
          const attrs = changedAlone(x, name);
          if (!attrs) continue;
          x.attrs = attrs;
          changes.set(addr, name);
          done.add(`${x.kind.type}.${name}`);
          break;
        }
      }
      if (changes.size === 0) break;
      tf.write(config());
      const { json, text } = planJson();
      for (const [addr, name] of changes) {
        const x = instances.get(addr)!;
        const c = (json.resource_changes ?? []).find((r) => r.address === addr)?.change;
        if (!c) {
          failures.push(`${addr}.${name}: the plan has no change for it`);
          continue;
        }
        if (c.actions.join() !== 'update') failures.push(`${addr}.${name}: planned ${c.actions.join('+')}, not an update`);
        const changed = changedAttributes(x.kind, c.before ?? {}, c.after ?? {}, x.attrs);
        if (changed.join() !== name) failures.push(`${addr}.${name}: the plan changes ${changed.join(', ') || 'nothing'}`);
        const impacts = c.after?.change_impacts;
        if (impacts && typeof impacts === 'object') {
          const other = Object.keys(impacts).filter((k) => k !== name && !k.startsWith(`${name}[`) && !k.startsWith(`${name}.`));
          if (other.length) failures.push(`${addr}.${name}: change_impacts names ${other.join(', ')}`);
        }
      }
      for (const r of json.resource_changes ?? [])
        if (!changes.has(r.address) && !r.change.actions.every((a) => a === 'no-op' || a === 'read'))
          failures.push(
            `${r.address}: planned ${r.change.actions.join('+')} though nothing of it changed (round ${round + 1}: ${[...changes].map(([a, n]) => `${a}.${n}`).join(', ')})`,
          );
      if (failures.length) throw new Error(`round ${round + 1}:\n${failures.join('\n')}\n--- plan:\n${text()}`);
      tf.ok(['apply', '-input=false', 'tfplan']);
      expectPlanEmpty(tf, `changing ${[...changes].map(([a, n]) => `${a}.${n}`).join(', ')}`);
    }
    // The known failures still fail (else: remove them from KNOWN_FAILURES and KNOWN_UPDATE_ERRORS).
    if (Object.keys(KNOWN_UPDATE_ERRORS).length === 0) return;
    const before = new Map([...instances].map(([a, x]) => [a, x.attrs]));
    const known: string[] = [];
    for (const key of Object.keys(KNOWN_UPDATE_ERRORS)) {
      const [type, name] = key.split('/update ') as [string, string];
      for (const [addr, x] of instances) {
        if (x.kind.type !== type) continue;
        const attrs = changedAlone(x, name);
        if (!attrs) continue;
        x.attrs = attrs;
        known.push(`${addr}.${name}`);
      }
    }
    if (known.length === 0) throw new Error(`no instance takes a known failing change (${Object.keys(KNOWN_UPDATE_ERRORS).join(', ')})`);
    tf.write(config());
    const r = tf.run(['apply', '-auto-approve', '-input=false']);
    for (const [key, re] of Object.entries(KNOWN_UPDATE_ERRORS))
      if (r.code === 0 || !re.test(r.out))
        throw new Error(`${key} works now (changing ${known.join(', ')}): remove it from KNOWN_FAILURES and KNOWN_UPDATE_ERRORS\n${r.out}`);
    // The changes that failed go back (a volume's capacity cannot; the others keep theirs).
    for (const [a, attrs] of before) if (r.out.includes(`with ${a},`)) instances.get(a)!.attrs = attrs;
    tf.write(config());
    tf.ok(['apply', '-auto-approve', '-input=false']);
    expectPlanEmpty(tf, `changing back ${known.join(', ')}`);
  }));

/** The attributes of `x` with `name` changed to its alternative, or undefined when it cannot be changed alone. */
function changedAlone(x: { kind: KindSpec; i: number; attrs: Attrs }, name: string): Attrs | undefined {
  const next = alternative(x.kind, name, x.attrs[name] as never, ctx, x.i);
  if (next === undefined) return undefined;
  const attrs = { ...x.attrs, [name]: next };
  x.kind.fix(attrs, ctx, x.i);
  // Another attribute forbids the value here, or the value needs another attribute changed too: not alone.
  if (JSON.stringify(attrs[name]) !== JSON.stringify(next)) return undefined;
  if (JSON.stringify({ ...attrs, [name]: null }) !== JSON.stringify({ ...x.attrs, [name]: null })) return undefined;
  return attrs;
}

/** The instance of each kind the replace workflows use: the last (the least referenced by others). */
function replaceTargets(known: boolean): string[] {
  return KINDS.filter((k) => (KNOWN_FAILURES[`${k.type}/replace`] !== undefined) === known).map((k) => address(k, k.count - 1));
}

function expectReplaced(json: TfPlanJson, targets: string[], text: () => string): void {
  for (const a of targets) {
    const c = (json.resource_changes ?? []).find((r) => r.address === a)?.change;
    const actions = c?.actions.join('+');
    if (actions !== 'delete+create' && actions !== 'create+delete')
      throw new Error(`${a}: planned ${actions ?? 'nothing'}, not a replacement:\n${text()}`);
  }
}

test('GIVEN the applied objects WHEN planned with -replace and after terraform taint THEN the plan replaces them and apply works', () =>
  withSeed(() => {
    const targets = replaceTargets(false);
    const replaced = planJson(targets.map((a) => `-replace=${a}`));
    expectReplaced(replaced.json, targets, replaced.text);
    tf.ok(['apply', '-input=false', 'tfplan']);
    expectPlanEmpty(tf, '-replace');
    for (const a of targets) tf.ok(['taint', a]);
    const tainted = planJson();
    expectReplaced(tainted.json, targets, tainted.text);
    tf.ok(['apply', '-input=false', 'tfplan']);
    expectPlanEmpty(tf, 'taint');
    // The known failures still fail (else: remove them from KNOWN_FAILURES).
    for (const a of replaceTargets(true)) {
      const r = tf.run(['plan', '-input=false', `-replace=${a}`, '-out=tfplan']);
      if (r.code === 0) {
        const shown = tf.run(['show', '-json', 'tfplan']);
        const json = JSON.parse(shown.out.slice(shown.out.indexOf('{'))) as TfPlanJson;
        let ok = true;
        try {
          expectReplaced(json, [a], () => '');
          ok = tf.run(['apply', '-input=false', 'tfplan']).code === 0;
        } catch {
          ok = false;
        }
        if (ok) throw new Error(`${a}: -replace works now: remove ${a.split('.')[0]}/replace from KNOWN_FAILURES`);
      }
      expect(r.out).toMatch(/exists already|already has/i);
    }
    expectPlanEmpty(tf, 'the known failures');
  }));

function virsh(...args: string[]): string {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

test('GIVEN a change made with virsh WHEN planned THEN the plan shows exactly that change; apply converges', () =>
  withSeed(() =>
    tf.managedFor(FRESH_PROCESS, () => {
      const values = stateValues(tf);
      const name = (a: string) => String(values[a]?.name ?? '');
      const bool = (a: string, k: string) => values[a]?.[k] === true;
      // address → [what virsh does, the actions and attribute the plan must show]
      const outside: [string, () => void, string, string | null][] = [
        [
          'virtseed_domain.c1',
          () => virsh('desc', name('virtseed_domain.c1'), '--config', '--title', 'changed outside'),
          'update',
          'title',
        ],
        [
          'virtseed_network.c1',
          () => virsh('net-autostart', name('virtseed_network.c1'), ...(bool('virtseed_network.c1', 'autostart') ? ['--disable'] : [])),
          'update',
          'autostart',
        ],
        [
          'virtseed_pool.c1',
          () => virsh('pool-autostart', name('virtseed_pool.c1'), ...(bool('virtseed_pool.c1', 'autostart') ? ['--disable'] : [])),
          'update',
          'autostart',
        ],
        [
          'virtseed_volume.c4',
          () => virsh('vol-delete', '--pool', String(values['virtseed_volume.c4']?.pool), name('virtseed_volume.c4')),
          'create',
          null,
        ],
        ['virtseed_cloudinit_seed.c0', () => virsh('vol-delete', '--pool', 'default', name('virtseed_cloudinit_seed.c0')), 'create', null],
        ['virtseed_ignition.c0', () => virsh('vol-delete', '--pool', 'default', name('virtseed_ignition.c0')), 'create', null],
        [
          'virtseed_snapshot.c0',
          () => virsh('snapshot-delete', name('virtseed_domain.c0'), String(values['virtseed_snapshot.c0']?.name)),
          'create',
          null,
        ],
      ];
      for (const [, act] of outside) act();
      const { json, text } = planJson();
      const failures: string[] = [];
      for (const [a, , actions, attr] of outside) {
        const c = (json.resource_changes ?? []).find((r) => r.address === a)?.change;
        if (c?.actions.join() !== actions) failures.push(`${a}: planned ${c?.actions.join('+') ?? 'nothing'}, expected ${actions}`);
        else if (attr) {
          const x = instances.get(a)!;
          const changed = changedAttributes(x.kind, c.before ?? {}, c.after ?? {}, x.attrs);
          if (changed.join() !== attr) failures.push(`${a}: the plan changes ${changed.join(', ') || 'nothing'}, expected ${attr}`);
        }
      }
      const touched = new Set(outside.map(([a]) => a));
      for (const r of json.resource_changes ?? [])
        if (!touched.has(r.address) && !r.change.actions.every((x) => x === 'no-op' || x === 'read'))
          failures.push(`${r.address}: planned ${r.change.actions.join('+')}, though only others changed outside`);
      if (failures.length) throw new Error(`${failures.join('\n')}\n--- plan:\n${text()}`);
      tf.ok(['apply', '-input=false', 'tfplan']);
      expectPlanEmpty(tf, 'converging the outside changes');
      // The policy took a backup again: a full one (the chain it had is gone).
      expect(stateValues(tf)['virtseed_backup_policy.c0']).toMatchObject({ latest: '0001-full', backups: ['0001-full'] });
    }),
  ));

test('GIVEN everything WHEN destroyed THEN nothing named with the prefix is left', () =>
  withSeed(() => {
    const uuids = Object.entries(stateValues(tf))
      .filter(([a]) => a.startsWith('virtseed_domain.'))
      .map(([, v]) => String(v.uuid));
    tf.destroy();
    expectNothingLeft(PREFIX, { uuids });
  }));
