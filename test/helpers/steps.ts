/**
 * A step harness for the e2e and conformance tests, after terraform-plugin-testing's `resource.Test`: a test gives a
 * prefix (every libvirt object it makes is named with it) and a list of steps; each step writes a configuration and
 * applies it (or expects an error matching a pattern at plan or apply), then checks that the next
 * `plan -detailed-exitcode` exits 0, optionally that `apply -refresh-only` changes nothing and that importing listed
 * addresses into a fresh state gives the same state, and runs the step's own checks. At the end it destroys and
 * checks that nothing named with the prefix is left on the host (domains and their NVRAM, snapshots, volumes in
 * every pool, pools, networks, swtpm state). Every failure message holds the output of the command that failed.
 * Built on ./terraform.ts `TfWorkdir`; real terraform and libvirtd, nothing mocked.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TfWorkdir, type TfPlanJson, type TfValues } from './terraform';

const SYSTEM_URI = 'qemu:///system';

/** The plan is empty: `terraform plan -detailed-exitcode` exits 0; else throws with the plan's output. `what` says
 *  after what (for the message). */
export function expectPlanEmpty(tf: TfWorkdir, what = 'the last apply'): void {
  const r = tf.plan();
  if (r.code !== 0) throw new Error(`plan after ${what} is not empty (terraform plan -detailed-exitcode exited ${r.code}):\n${r.out}`);
}

/** Every resource of the root module in the state, by address (data sources included), as `terraform show -json`
 *  gives them (`TfWorkdir.resources`: from the local state file, no terraform run). */
export function stateValues(tf: TfWorkdir): Record<string, TfValues> {
  return tf.resources();
}

/** The differences between two values, as `path: before → after` lines (none when equal). `ignore` names
 *  attributes to leave out: top-level names, or nested paths without list indices (`graphics.password`). */
export function valueDiff(before: unknown, after: unknown, ignore: readonly string[] = [], at = ''): string[] {
  if (ignore.includes(at.replace(/\[\d+\]/g, ''))) return [];
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => valueDiff(before[k], after[k], ignore, at ? `${at}.${k}` : k));
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length)
    return before.flatMap((b, i) => valueDiff(b, after[i], ignore, `${at}[${i}]`));
  return [`${at || '(value)'}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`];
}

/** Attributes that measure the host as it is now (bytes allocated and free on a file system other tests write to
 *  as well): left out when states taken at different times are compared. */
export const VOLATILE = ['allocation', 'available'] as const;

/** `apply -refresh-only` changes no value of a managed resource in the state (data sources read the host's
 *  present, e.g. its free memory, and are left out); throws listing what it changed, with its output. */
export function expectRefreshChangesNothing(tf: TfWorkdir): void {
  const before = stateValues(tf);
  const out = tf.ok(['apply', '-refresh-only', '-auto-approve', '-input=false']);
  const after = stateValues(tf);
  const diffs = Object.keys({ ...before, ...after })
    .filter((a) => !a.startsWith('data.'))
    .flatMap((a) => valueDiff(before[a], after[a], VOLATILE).map((d) => `${a}: ${d}`));
  if (diffs.length) throw new Error(`apply -refresh-only changed the state:\n${diffs.join('\n')}\n--- its output:\n${out}`);
}

/** One address to import: the resource's address in the configuration and its import id. */
export interface ImportTarget {
  readonly address: string;
  readonly id: string;
  /** Attributes import cannot know (e.g. a sensitive input libvirt never shows back): left out of the comparison. */
  readonly ignore?: readonly string[];
  /** What import cannot know of how the configuration spells a value (e.g. a list's order): `imported` spelled as
   *  `config` where they mean the same, applied before comparing. */
  readonly asWritten?: (config: Record<string, unknown>, imported: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * Imports `targets` into a fresh state (a new working directory with the same configuration plus `import` blocks,
 * all in one plan and apply), and checks: the import plan does nothing else to them, the imported state equals
 * `tf`'s for each of them (but their `ignore`d attributes), and the plan after import exits 0 (unless
 * `planEmpty` is false: a configuration whose ignored attributes import cannot know plans their update).
 * Resources of the configuration that are not imported must be data sources or absent (the fresh state creates
 * nothing). Throws with the commands' output.
 */
export function expectImportSame(
  tf: TfWorkdir,
  config: string,
  targets: readonly ImportTarget[],
  opts: { provider?: string; env?: NodeJS.ProcessEnv; planEmpty?: boolean } = {},
): void {
  if (targets.length === 0) return;
  const original = stateValues(tf);
  const other = new TfWorkdir('import', opts.env);
  try {
    const blocks = targets.map((t) => `import {\n  to = ${t.address}\n  id = ${JSON.stringify(t.id)}\n}\n`).join('');
    other.write(`${config}\n${blocks}`, opts.provider);
    linkProviders(tf, other);
    other.init();
    other.ok(['plan', '-input=false', '-out=tfplan']);
    const shown = other.run(['show', '-json', 'tfplan']);
    const plan = JSON.parse(shown.out.slice(shown.out.indexOf('{'))) as TfPlanJson;
    const wrong = (plan.resource_changes ?? []).filter((c) => !c.change.actions.every((a) => a === 'no-op' || a === 'read'));
    /** The import plan as text, for a failure's message only (another terraform and provider start). */
    const planText = () => other.run(['show', 'tfplan']).out;
    const ignoredOf = (a: string) => targets.find((t) => t.address === a)?.ignore ?? [];
    const spelled = (a: string, config: unknown, imported: unknown) => {
      const as = targets.find((t) => t.address === a)?.asWritten;
      return as && config && imported ? as(config as Record<string, unknown>, imported as Record<string, unknown>) : imported;
    };
    const unexpected = wrong.filter((c) => {
      if (opts.planEmpty !== false) return true;
      const ign = ignoredOf(c.address);
      const before = spelled(c.address, c.change.after, c.change.before);
      return !(c.change.actions.join() === 'update' && valueDiff(before, c.change.after, ign).length === 0);
    });
    if (unexpected.length) {
      const what = unexpected.map(
        (c) =>
          `${c.address}: ${c.change.actions.join('+')} ${valueDiff(spelled(c.address, c.change.after, c.change.before), c.change.after, ignoredOf(c.address)).join('; ')}`,
      );
      throw new Error(
        `importing ${targets.map((t) => t.address).join(', ')} plans more than the import:\n${what.join('\n')}\n--- plan:\n${planText()}`,
      );
    }
    other.ok(['apply', '-input=false', 'tfplan']);
    const imported = stateValues(other);
    const diffs = targets.flatMap((t) =>
      valueDiff(original[t.address], spelled(t.address, original[t.address], imported[t.address]), [...VOLATILE, ...(t.ignore ?? [])]).map(
        (d) => `${t.address}: ${d}`,
      ),
    );
    if (diffs.length)
      throw new Error(
        `imported state differs from the state that created the objects:\n${diffs.join('\n')}\n--- import plan:\n${planText()}`,
      );
    if (opts.planEmpty !== false) expectPlanEmpty(other, 'import');
  } finally {
    // The imported objects belong to `tf`'s state: never destroy them from here.
    fs.rmSync(other.dir, { recursive: true, force: true });
  }
}

/** Reuses `from`'s installed providers in `to` (no second download from the mirror) when it has them. */
function linkProviders(from: TfWorkdir, to: TfWorkdir): void {
  const lock = path.join(from.dir, '.terraform.lock.hcl');
  if (fs.existsSync(lock)) fs.copyFileSync(lock, path.join(to.dir, '.terraform.lock.hcl'));
}

function virsh(uri: string, ...args: string[]): string {
  return spawnSync('virsh', ['-c', uri, ...args], { encoding: 'utf8' }).stdout ?? '';
}

function names(out: string, prefix: string): string[] {
  return out
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s.startsWith(prefix))
    .sort();
}

/** Where a host keeps state beside libvirt's objects (the system daemon's defaults). */
export interface HostDirs {
  readonly nvram: string;
  readonly swtpm: string;
}

export const SYSTEM_DIRS: HostDirs = { nvram: '/var/lib/libvirt/qemu/nvram', swtpm: '/var/lib/libvirt/swtpm' };

/**
 * What is left on the host named with `prefix`: domains (with their snapshots), NVRAM files, volumes in every pool,
 * pools, networks, and the swtpm state folders of the domains whose UUIDs are given. Empty list: nothing.
 */
export function leftovers(prefix: string, opts: { uri?: string; uuids?: readonly string[]; dirs?: HostDirs } = {}): string[] {
  const uri = opts.uri ?? SYSTEM_URI;
  const dirs = opts.dirs ?? SYSTEM_DIRS;
  const out: string[] = [];
  for (const d of names(virsh(uri, 'list', '--all', '--name'), prefix)) {
    const snaps = virsh(uri, 'snapshot-list', d, '--name')
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    out.push(`domain ${d}${snaps.length ? ` (snapshots ${snaps.join(', ')})` : ''}`);
  }
  if (fs.existsSync(dirs.nvram)) for (const f of fs.readdirSync(dirs.nvram)) if (f.startsWith(prefix)) out.push(`NVRAM ${dirs.nvram}/${f}`);
  for (const pool of virsh(uri, 'pool-list', '--all', '--name')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (pool.startsWith(prefix)) out.push(`pool ${pool}`);
    virsh(uri, 'pool-refresh', pool);
    for (const line of virsh(uri, 'vol-list', '--pool', pool).split('\n').slice(2)) {
      const vol = line.trim().split(/\s+/)[0];
      if (vol && vol.startsWith(prefix)) out.push(`volume ${pool}/${vol}`);
    }
  }
  for (const n of names(virsh(uri, 'net-list', '--all', '--name'), prefix)) out.push(`network ${n}`);
  for (const u of opts.uuids ?? []) if (fs.existsSync(path.join(dirs.swtpm, u))) out.push(`swtpm state ${dirs.swtpm}/${u}`);
  return out;
}

/** Throws naming what is left with `prefix` (see {@link leftovers}). */
export function expectNothingLeft(prefix: string, opts: Parameters<typeof leftovers>[1] = {}): void {
  const left = leftovers(prefix, opts);
  if (left.length) throw new Error(`left on the host after destroy, named ${prefix}*:\n${left.join('\n')}`);
}

/**
 * Removes every object named with `prefix` (which must start with `vstest-`), whatever state it is in: domains
 * (stopped, undefined with NVRAM and snapshot metadata), volumes of every pool, pools, networks. For teardown
 * after a failed test; never touches another prefix.
 */
export function removeByPrefix(prefix: string, uri = SYSTEM_URI): void {
  if (!prefix.startsWith('vstest-')) throw new Error('removeByPrefix only removes vstest- objects');
  for (const d of names(virsh(uri, 'list', '--all', '--name'), prefix)) {
    virsh(uri, 'destroy', d);
    virsh(uri, 'undefine', d, '--nvram', '--snapshots-metadata', '--tpm');
  }
  for (const pool of virsh(uri, 'pool-list', '--all', '--name')
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (pool.startsWith(prefix)) virsh(uri, 'pool-start', pool);
    for (const line of virsh(uri, 'vol-list', '--pool', pool).split('\n').slice(2)) {
      const vol = line.trim().split(/\s+/)[0];
      if (vol && (vol.startsWith(prefix) || pool.startsWith(prefix))) virsh(uri, 'vol-delete', '--pool', pool, vol);
    }
    if (pool.startsWith(prefix)) {
      virsh(uri, 'pool-destroy', pool);
      virsh(uri, 'pool-delete', pool);
      virsh(uri, 'pool-undefine', pool);
    }
  }
  for (const n of names(virsh(uri, 'net-list', '--all', '--name'), prefix)) {
    virsh(uri, 'net-destroy', n);
    virsh(uri, 'net-undefine', n);
  }
}

/** One step of a {@link runSteps} test. */
export interface Step {
  /** HCL after the provider block (see TfWorkdir.write). */
  readonly config: string;
  /** The apply (or the plan before it) must fail with output matching this; then no other check runs. */
  readonly expectError?: RegExp;
  /** Check that `apply -refresh-only` changes nothing (default true). */
  readonly refreshOnly?: boolean;
  /** Import these into a fresh state and compare (see {@link expectImportSame}). */
  readonly imports?: readonly ImportTarget[] | ((tf: TfWorkdir) => readonly ImportTarget[]);
  /** Extra arguments of this step's apply (e.g. `-parallelism=20`). */
  readonly applyArgs?: readonly string[];
  /** The step's own checks, after the plan-empty check. */
  readonly check?: (tf: TfWorkdir) => void | Promise<void>;
}

/** A {@link runSteps} test. */
export interface StepTest {
  /** `vstest-...`: the name every libvirt object of the test starts with. */
  readonly prefix: string;
  /** Label of the working directory. */
  readonly label?: string;
  /** Another `provider "virtseed" {...}` block. */
  readonly provider?: string;
  /** Extra environment of terraform. */
  readonly env?: NodeJS.ProcessEnv;
  readonly steps: readonly Step[];
  /** The libvirt URI the leftover check reads (default the system daemon). */
  readonly uri?: string;
  readonly dirs?: HostDirs;
}

/** The UUIDs of the domains in the state (for the swtpm leftover check). */
function domainUuids(tf: TfWorkdir): string[] {
  return Object.entries(stateValues(tf))
    .filter(([a]) => a.startsWith('virtseed_domain.'))
    .map(([, v]) => v.uuid)
    .filter((u): u is string => typeof u === 'string');
}

/**
 * Runs the steps in one working directory, then destroys and checks that nothing named with the prefix is left.
 * Whatever fails, the working directory is removed and the prefix's objects are removed from the host.
 * @throws Error naming the step (1-based) and holding the failing command's output.
 */
export async function runSteps(t: StepTest): Promise<void> {
  if (!t.prefix.startsWith('vstest-')) throw new Error(`prefix ${t.prefix} must start with vstest-`);
  const tf = new TfWorkdir(t.label ?? 'steps', t.env);
  const uuids = new Set<string>();
  try {
    for (const [i, step] of t.steps.entries()) {
      try {
        tf.write(step.config, t.provider);
        if (i === 0) tf.init();
        const r = tf.run(['apply', '-auto-approve', '-input=false', ...(step.applyArgs ?? [])]);
        if (step.expectError) {
          if (r.code === 0) throw new Error(`apply succeeded; expected an error matching ${step.expectError}:\n${r.out}`);
          if (!step.expectError.test(r.out)) throw new Error(`apply failed, but not with ${step.expectError}:\n${r.out}`);
          continue;
        }
        if (r.code !== 0) throw new Error(`terraform apply exited ${r.code}:\n${r.out}`);
        for (const u of domainUuids(tf)) uuids.add(u);
        expectPlanEmpty(tf, 'the apply');
        if (step.refreshOnly !== false) expectRefreshChangesNothing(tf);
        const imports = typeof step.imports === 'function' ? step.imports(tf) : (step.imports ?? []);
        expectImportSame(tf, step.config, imports, { provider: t.provider, env: t.env });
        await step.check?.(tf);
      } catch (e) {
        throw new Error(`step ${i + 1} of ${t.steps.length} (${t.prefix}): ${(e as Error).message}`, { cause: e });
      }
    }
    tf.destroy();
    expectNothingLeft(t.prefix, { uri: t.uri, uuids: [...uuids], dirs: t.dirs });
  } finally {
    tf.dispose();
    removeByPrefix(t.prefix, t.uri);
  }
}
