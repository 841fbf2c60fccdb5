/**
 * Real `terraform` in a temporary working directory, against the provider installed by scripts/install-provider.sh
 * (filesystem mirror + CLI config). For the e2e tests; every call is synchronous and bounded in time: by its
 * timeout (at most VIRTSEED_TEST_MAX_TEST_S, limits.ts) and, while a guest it may be waiting on writes its console,
 * by that console's silence (VIRTSEED_TEST_CONSOLE_SILENCE_S): a stuck boot stops the call in minutes, and the
 * error has terraform's output and the console's last lines.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { consoleSilenceMs, consoleTails, maxTestMs } from './limits';
import { managedReason, SharedProvider } from './reattach';

export const PROVIDER_BLOCK = `terraform {
  required_providers {
    virtseed = { source = "virtseed/virtseed", version = "0.1.0" }
  }
}
provider "virtseed" {}
`;

export interface TfResult {
  readonly code: number;
  readonly out: string;
}

/** A resource's attribute values in Terraform's JSON output (`terraform show -json`, "values-representation"). */
export type TfValues = Record<string, unknown>;

/** Attribute `name` of `values`, which must be a string; throws showing the values otherwise. */
export function stringValue(values: TfValues, name: string): string {
  const v = values[name];
  if (typeof v !== 'string') throw new Error(`${name} is ${JSON.stringify(v)}, not a string, in ${JSON.stringify(values)}`);
  return v;
}

/** One `resource_changes[]` entry of `terraform show -json PLAN` (Terraform's JSON output format, "change-representation"). */
export interface TfResourceChange {
  readonly address: string;
  readonly type: string;
  readonly name: string;
  readonly change: TfChange;
}

/** What a plan does to one resource: its actions and the values before and after (null = no object). */
export interface TfChange {
  readonly actions: ('no-op' | 'create' | 'read' | 'update' | 'delete')[];
  readonly before: TfValues | null;
  readonly after: TfValues | null;
  /** Attributes unknown until apply: `true` for a whole attribute, or the same shape as the value. */
  readonly after_unknown?: Record<string, unknown>;
  /** Paths of the attributes that force replacement. */
  readonly replace_paths?: (string | number)[][];
}

/** `terraform show -json PLAN`, the parts the tests read. */
export interface TfPlanJson {
  readonly resource_changes?: TfResourceChange[];
}

/** The change planned for `address`, if the plan lists one. */
export function findChange(plan: TfPlanJson, address: string): TfChange | undefined {
  return (plan.resource_changes ?? []).find((c) => c.address === address)?.change;
}

/** The change planned for `address`; throws naming the planned addresses when the plan has none for it. */
export function plannedChange(plan: TfPlanJson, address: string): TfChange {
  const found = findChange(plan, address);
  if (!found)
    throw new Error(`the plan has no change for ${address}; it has: ${(plan.resource_changes ?? []).map((c) => c.address).join(', ')}`);
  return found;
}

/** A resource's entry in a state file (Terraform's state format version 4, the parts read here). */
interface StateResource {
  readonly module?: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  readonly instances: { readonly index_key?: string | number; readonly attributes: TfValues }[];
}

/**
 * The values of every resource instance of the root module in the local state file `file` (Terraform's state
 * format version 4), by address as `terraform show -json` gives them (`values.root_module.resources[].address`:
 * `type.name`, `data.type.name`, with `[0]` or `["key"]` for count and for_each), each instance's `attributes`:
 * the same values `terraform show -json` prints, read without starting terraform and the provider (which `show`
 * starts for its schema: about a CPU second each time). Undefined when there is no such file (nothing applied yet,
 * or the state lives in a backend); throws when it is not a version 4 state.
 */
export function localStateValues(file: string): Record<string, TfValues> | undefined {
  if (!fs.existsSync(file)) return undefined;
  const state = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: number; resources?: StateResource[] };
  if (state.version !== 4) throw new Error(`${file}: state format version ${state.version}, expected 4`);
  const out: Record<string, TfValues> = {};
  for (const r of state.resources ?? []) {
    if (r.module) continue;
    const base = `${r.mode === 'data' ? 'data.' : ''}${r.type}.${r.name}`;
    for (const i of r.instances) {
      const key =
        i.index_key === undefined ? '' : typeof i.index_key === 'number' ? `[${i.index_key}]` : `[${JSON.stringify(i.index_key)}]`;
      out[`${base}${key}`] = i.attributes;
    }
  }
  return out;
}

/** The exit code of a terraform call the watchdog stopped (as timeout(1) has it). */
export const STOPPED = 124;

/**
 * The watchdog (a Node child, since jest's thread blocks in spawnSync meanwhile): argv = silence ms, cap ms, the
 * number of consoles, the consoles, the command. Runs the command in a process group of its own with the output
 * passed through; every 2 s it looks at the consoles' modification times. A console counts once it was written
 * after the call began (a guest this call started, restarted or shut down); when every such console has been
 * silent for the bound, or the cap has passed, it says why on stderr, sends the group SIGINT (terraform's own
 * graceful stop), SIGKILL 15 s later, and exits 124.
 */
const WATCHDOG = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const a = process.argv.slice(1);
const silence = Number(a[0]), cap = Number(a[1]), n = Number(a[2]);
const consoles = a.slice(3, 3 + n), cmd = a.slice(3 + n);
const start = Date.now();
const child = spawn(cmd[0], cmd.slice(1), { stdio: 'inherit', detached: true });
let stopping = false;
const kill = (sig) => { try { process.kill(-child.pid, sig); } catch {} };
const stop = (why) => {
  if (stopping) return;
  stopping = true;
  process.stderr.write('\\ntf-watchdog: ' + why + '; terraform stopped\\n');
  kill('SIGINT');
  setTimeout(() => kill('SIGKILL'), 15000).unref();
};
process.on('SIGTERM', () => stop('stopped by its caller'));
const timer = setInterval(() => {
  const now = Date.now();
  if (now - start > cap) return stop('terraform ran longer than its bound of ' + cap / 1000 + ' s');
  let latest = 0;
  for (const c of consoles) { try { latest = Math.max(latest, fs.statSync(c).mtimeMs); } catch {} }
  if (latest >= start && now - latest > silence)
    stop('the guest console stayed silent for ' + Math.round((now - latest) / 1000) + ' s (bound ' + silence / 1000 +
      ' s, VIRTSEED_TEST_CONSOLE_SILENCE_S) while terraform was still running');
}, 2000);
child.on('error', (e) => { clearInterval(timer); process.stderr.write('tf-watchdog: ' + e.message + '\\n'); process.exitCode = 127; });
child.on('exit', (code) => {
  clearInterval(timer);
  if (stopping) kill('SIGKILL');
  process.exitCode = stopping ? 124 : (code ?? 1);
});
`;

/**
 * The guest consoles a configuration may make terraform wait on: the default console log of every
 * `virtseed_domain` whose name is a plain string (`/var/log/libvirt/qemu/<name>-console.log`, the provider's
 * default for qemu:///system) and every absolute path ending in `.log` written in it (an explicit `console_log`).
 */
export function consolesOf(hcl: string): string[] {
  const found = new Set<string>();
  for (const m of hcl.matchAll(/resource\s+"virtseed_domain"\s+"[^"]+"\s*\{[^]*?\bname\s*=\s*"([^"$]+)"/g))
    found.add(`/var/log/libvirt/qemu/${m[1]}-console.log`);
  for (const m of hcl.matchAll(/"(\/[^"$]+\.log)"/g)) found.add(m[1]);
  return [...found];
}

/** Terraform commands that start no provider: they run the managed way (init installs the provider, so any later
 *  command may run either way). */
const NO_PROVIDER = new Set(['init', 'version', 'fmt', 'get', 'workspace']);

/** Options of a {@link TfWorkdir}. */
export interface TfWorkdirOptions {
  /**
   * Keep terraform starting the provider itself, as for users (the managed path), instead of reattaching it to one
   * provider process of this work dir (./reattach.ts): the reason (one line), or true. Tests that must see a fresh
   * provider process per command, or that stop libvirtd under the provider, say so here.
   */
  readonly managed?: string | boolean;
  /**
   * Variables for the work dir's own provider process only (when its commands reattach), e.g. `TF_LOG: 'trace'`
   * for its log, which {@link TfWorkdir.providerLog} reads: terraform shows no log of a provider it did not start.
   * Unlike the constructor's `env`, they do not put the work dir on the managed path.
   */
  readonly providerEnv?: NodeJS.ProcessEnv;
}

/**
 * A terraform working directory under /tmp (`vstest-tf-<label>-*`), removed by `dispose()`. By default its
 * terraform commands share one provider process (the installed provider, started at the first command that needs
 * it and stopped by `dispose()`; terraform reattaches to it through `TF_REATTACH_PROVIDERS`, ./reattach.ts) instead
 * of terraform starting about three per command; `managedReason` (./reattach.ts) keeps a command on the managed
 * path (terraform starts the provider) when the test asks, the configuration has several provider blocks, the test
 * sets a variable the provider reads, or VIRTSEED_TEST_MANAGED_PROVIDER=1.
 */
export class TfWorkdir {
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly extraEnv: NodeJS.ProcessEnv;
  private managed: string | boolean | undefined;
  private readonly providerEnv: NodeJS.ProcessEnv;
  private readonly extraConsoles = new Set<string>();
  private readonly provider = new SharedProvider(() => this.dir);

  /** `env`: extra variables for terraform (e.g. `TF_LOG_PROVIDER: 'INFO'` to see the provider's INFO lines). */
  constructor(label: string, env: NodeJS.ProcessEnv = {}, options: TfWorkdirOptions = {}) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `vstest-tf-${label}-`));
    this.env = { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', NO_COLOR: '1' };
    delete this.env.TF_LOG;
    delete this.env.TF_REATTACH_PROVIDERS;
    Object.assign(this.env, env);
    this.extraEnv = env;
    this.managed = options.managed;
    this.providerEnv = options.providerEnv ?? {};
  }

  /**
   * Runs `fn` with this work dir's commands on the managed path (terraform starts the provider, a fresh process per
   * command, as for users) for `reason` (one line), then goes back to how they ran before. The work dir's provider
   * process, if one runs, is left running for the commands after. Returns what `fn` returns.
   */
  managedFor<T>(reason: string, fn: () => T): T {
    const before = this.managed;
    this.managed = before || reason;
    try {
      return fn();
    } finally {
      this.managed = before;
    }
  }

  /** Why this work dir's commands run the managed way now (./reattach.ts, `managedReason`), or null: they reattach. */
  managedReason(): string | null {
    const configs = fs
      .readdirSync(this.dir)
      .filter((n) => n.endsWith('.tf'))
      .map((f) => fs.readFileSync(path.join(this.dir, f), 'utf8'));
    return managedReason(configs, this.extraEnv, this.managed);
  }

  /**
   * The environment of `terraform args`: terraform's own, plus `TF_REATTACH_PROVIDERS` naming this work dir's
   * provider process (started now when none runs) unless the command starts no provider or managedReason() holds.
   */
  envFor(args: readonly string[]): NodeJS.ProcessEnv {
    if (NO_PROVIDER.has(args[0]) || this.managedReason() !== null) return this.env;
    return { ...this.env, TF_REATTACH_PROVIDERS: this.provider.reattach({ ...this.env, ...this.providerEnv }) };
  }

  /** All the work dir's provider process has written to its stderr (its log) so far; '' when none runs. */
  providerLog(): string {
    return this.provider.process?.stderrText() ?? '';
  }

  /** Stops this work dir's provider process, if one runs (the next command that needs one starts another);
   *  returns all it wrote to its stderr (its log), '' when none ran. */
  stopProvider(): string {
    return this.provider.stop();
  }

  /** Writes main.tf: the provider block (`provider`: another `provider "virtseed" {...}` block) followed by `body`. */
  write(body: string, provider?: string): void {
    const head = provider === undefined ? PROVIDER_BLOCK : PROVIDER_BLOCK.replace('provider "virtseed" {}', provider);
    fs.writeFileSync(path.join(this.dir, 'main.tf'), head + body);
  }

  /** Guest consoles (files) to watch besides those found in the configuration (consolesOf). */
  watchConsoles(...files: string[]): void {
    for (const f of files) this.extraConsoles.add(f);
  }

  /** The consoles a call watches: those of the configuration's `.tf` files and those added by watchConsoles. */
  consoles(): string[] {
    const found = new Set(this.extraConsoles);
    for (const f of fs.readdirSync(this.dir).filter((n) => n.endsWith('.tf')))
      for (const c of consolesOf(fs.readFileSync(path.join(this.dir, f), 'utf8'))) found.add(c);
    return [...found].sort();
  }

  /**
   * Runs terraform with args (adds -no-color); never throws. Bounded by `timeoutMs` (at most VIRTSEED_TEST_MAX_TEST_S)
   * and by the silence of the consoles() it may wait on: then the code is STOPPED and `out` ends with why and the
   * consoles' last 40 lines.
   */
  run(args: string[], timeoutMs = 600_000): TfResult {
    const cap = Math.min(timeoutMs, maxTestMs());
    const consoles = this.consoles();
    const command = ['terraform', ...args, '-no-color'];
    const env = this.envFor(args);
    const r = consoles.length
      ? spawnSync(
          process.execPath,
          ['-e', WATCHDOG, String(consoleSilenceMs()), String(cap), String(consoles.length), ...consoles, ...command],
          {
            cwd: this.dir,
            env,
            encoding: 'utf8',
            timeout: cap + 60_000, // the watchdog's own cap comes first; this only catches a hung watchdog
          },
        )
      : spawnSync(command[0], command.slice(1), { cwd: this.dir, env, encoding: 'utf8', timeout: cap });
    const code = r.status ?? -1;
    let out = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}`;
    if (code === STOPPED || r.error) out += `\n${consoleTails(consoles.filter((c) => fs.existsSync(c)))}`;
    return { code, out: out + this.providerDeath(env) };
  }

  /**
   * When the command ran against this work dir's provider process (`env` reattaches) and that process is gone: a
   * line saying so and its stderr's last lines, which terraform cannot show for a provider it did not start (with a
   * managed provider, terraform prints the plugin's crash output itself). '' otherwise.
   */
  private providerDeath(env: NodeJS.ProcessEnv): string {
    return env.TF_REATTACH_PROVIDERS ? this.provider.deathReport() : '';
  }

  /** Runs terraform with args (adds -no-color) without blocking the event loop (for runs side by side); never
   *  rejects. */
  runAsync(args: string[], timeoutMs = 600_000): Promise<TfResult> {
    return new Promise((resolve) => {
      const env = this.envFor(args);
      const child = spawn('terraform', [...args, '-no-color'], { cwd: this.dir, env, timeout: timeoutMs });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      child.on('error', (e) => (out += `\n${e.message}`));
      child.on('close', (code) => resolve({ code: code ?? -1, out: out + this.providerDeath(env) }));
    });
  }

  /** Runs terraform and throws with its output unless it exits 0. */
  ok(args: string[], timeoutMs?: number): string {
    const r = this.run(args, timeoutMs);
    if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} exited ${r.code}:\n${r.out}`);
    return r.out;
  }

  init(): string {
    return this.ok(['init', '-input=false']);
  }

  apply(): string {
    return this.ok(['apply', '-auto-approve', '-input=false']);
  }

  /** `terraform plan -detailed-exitcode`: code 0 = no changes, 2 = changes, 1 = error. */
  plan(): TfResult {
    return this.run(['plan', '-detailed-exitcode', '-input=false']);
  }

  /** The planned changes as `terraform show -json` of a saved plan. */
  planJson(): TfPlanJson {
    this.ok(['plan', '-input=false', '-out=tfplan']);
    const r = spawnSync('terraform', ['show', '-json', 'tfplan'], { cwd: this.dir, env: this.envFor(['show']), encoding: 'utf8' });
    return JSON.parse(r.stdout) as TfPlanJson;
  }

  /**
   * One `terraform plan -out=tfplan`: its output (the human plan with the provider's warnings, which `show` of a
   * saved plan does not repeat) and the planned changes (`terraform show -json tfplan`). Apply it with
   * `apply -input=false tfplan` (no second plan). Throws with the output when the plan fails.
   */
  planSaved(): { out: string; json: TfPlanJson } {
    const out = this.ok(['plan', '-input=false', '-out=tfplan']);
    const r = spawnSync('terraform', ['show', '-json', 'tfplan'], { cwd: this.dir, env: this.envFor(['show']), encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`terraform show -json tfplan exited ${r.status}:\n${r.stdout}${r.stderr}`);
    return { out, json: JSON.parse(r.stdout) as TfPlanJson };
  }

  /** The values of one resource in the state (as `terraform show -json` gives them: {@link resources}). */
  resource(address: string): TfValues {
    const found = this.resources()[address];
    if (!found) throw new Error(`no ${address} in state`);
    return found;
  }

  /**
   * The values of every resource of the root module in the state, by address (data sources included), as
   * `terraform show -json` gives them: read from the working directory's terraform.tfstate
   * ({@link localStateValues}: no terraform run), else (no local state file) by {@link shownResources}.
   */
  resources(): Record<string, TfValues> {
    return localStateValues(path.join(this.dir, 'terraform.tfstate')) ?? this.shownResources();
  }

  /** {@link resources} from one `terraform show -json` (it starts terraform and the provider); throws with its
   *  output when it fails. */
  shownResources(): Record<string, TfValues> {
    const r = spawnSync('terraform', ['show', '-json'], {
      cwd: this.dir,
      env: this.envFor(['show']),
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0) throw new Error(`terraform show -json exited ${r.status ?? r.signal}:\n${r.stdout}${r.stderr}`);
    const shown = JSON.parse(r.stdout) as { values?: { root_module?: { resources?: { address: string; values: TfValues }[] } } };
    return Object.fromEntries((shown.values?.root_module?.resources ?? []).map((x) => [x.address, x.values]));
  }

  destroy(): string {
    return this.ok(['destroy', '-auto-approve', '-input=false']);
  }

  /** Whether the state holds any resource (terraform.tfstate read; a state it cannot read counts as holding some). */
  hasResources(): boolean {
    const file = path.join(this.dir, 'terraform.tfstate');
    if (!fs.existsSync(file)) return false;
    try {
      const state = JSON.parse(fs.readFileSync(file, 'utf8')) as { resources?: unknown[] };
      return !Array.isArray(state.resources) || state.resources.length > 0;
    } catch {
      return true;
    }
  }

  /** Destroys what is left (ignoring errors; no terraform run when the state is empty), stops the work dir's
   *  provider process and removes the directory. */
  dispose(): void {
    try {
      if (this.hasResources()) this.run(['destroy', '-auto-approve', '-input=false']);
    } finally {
      this.stopProvider();
      fs.rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

/** Test teardown: `terraform destroy` what the work dir's state holds, remove the dir, then `cleanup()` (e.g.
 *  cleanupByPrefix) even when the destroy failed. */
export function destroyAndDispose(tf: TfWorkdir | undefined, cleanup: () => void): void {
  try {
    tf?.destroy();
  } finally {
    tf?.dispose();
    cleanup();
  }
}
