/**
 * Real `terraform` in a temporary working directory, against the provider installed by scripts/install-provider.sh
 * (filesystem mirror + CLI config). For the e2e tests; every call is synchronous and bounded in time.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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

/** A terraform working directory under /tmp (`vstest-tf-<label>-*`), removed by `dispose()`. */
export class TfWorkdir {
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;

  /** `env`: extra variables for terraform (e.g. `TF_LOG_PROVIDER: 'INFO'` to see the provider's INFO lines). */
  constructor(label: string, env: NodeJS.ProcessEnv = {}) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `vstest-tf-${label}-`));
    this.env = { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', NO_COLOR: '1' };
    delete this.env.TF_LOG;
    Object.assign(this.env, env);
  }

  /** Writes main.tf: the provider block (`provider`: another `provider "virtseed" {...}` block) followed by `body`. */
  write(body: string, provider?: string): void {
    const head = provider === undefined ? PROVIDER_BLOCK : PROVIDER_BLOCK.replace('provider "virtseed" {}', provider);
    fs.writeFileSync(path.join(this.dir, 'main.tf'), head + body);
  }

  /** Runs terraform with args (adds -no-color); never throws. */
  run(args: string[], timeoutMs = 600_000): TfResult {
    const r = spawnSync('terraform', [...args, '-no-color'], { cwd: this.dir, env: this.env, encoding: 'utf8', timeout: timeoutMs });
    return { code: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}` };
  }

  /** Runs terraform with args (adds -no-color) without blocking the event loop (for runs side by side); never
   *  rejects. */
  runAsync(args: string[], timeoutMs = 600_000): Promise<TfResult> {
    return new Promise((resolve) => {
      const child = spawn('terraform', [...args, '-no-color'], { cwd: this.dir, env: this.env, timeout: timeoutMs });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      child.on('error', (e) => (out += `\n${e.message}`));
      child.on('close', (code) => resolve({ code: code ?? -1, out }));
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
    const r = spawnSync('terraform', ['show', '-json', 'tfplan'], { cwd: this.dir, env: this.env, encoding: 'utf8' });
    return JSON.parse(r.stdout) as TfPlanJson;
  }

  /** The values of one resource in the state (`terraform show -json`). */
  resource(address: string): TfValues {
    const r = spawnSync('terraform', ['show', '-json'], { cwd: this.dir, env: this.env, encoding: 'utf8' });
    const shown = JSON.parse(r.stdout) as { values?: { root_module?: { resources?: { address: string; values: TfValues }[] } } };
    const found = (shown.values?.root_module?.resources ?? []).find((x) => x.address === address);
    if (!found) throw new Error(`no ${address} in state`);
    return found.values;
  }

  destroy(): string {
    return this.ok(['destroy', '-auto-approve', '-input=false']);
  }

  /** Destroys what is left (ignoring errors) and removes the directory. */
  dispose(): void {
    if (fs.existsSync(path.join(this.dir, 'terraform.tfstate'))) this.run(['destroy', '-auto-approve', '-input=false']);
    fs.rmSync(this.dir, { recursive: true, force: true });
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
