/**
 * Terraform at scale: `terraform plan` (with refresh) and `apply` of N defined (never started) `virtseed_domain`s
 * against the same of N `terraform_data`, real terraform and the real provider, installed into a bench folder
 * (its own filesystem mirror and TF_CLI_CONFIG_FILE; ~/.terraform.d is never used). Domains are named
 * `vsbench-<n>` and destroyed at the end (and any left over from an interrupted run are undefined first).
 * Also prints the provider's peak memory during a plan beside Terraform's own (GNU time), and the CPU time of a plan
 * split between the provider processes and Terraform itself, with and without the device set (median of 3 plans).
 * Goals (issue #25), against the Go floor below: plan (refresh) of 1000 domains within 2.0x the floor's 1000
 * floor_data, apply of 1000 defined domains within 1.5x; plan of 1000 domains each with the device set of
 * bench/private/device-set.ts within 1.1x the same plan without (skipped, with the reason, while there is no set).
 * terraform_data rows are printed for information. Every row carries the load average while it was measured.
 *
 * A third config per size, N `floor_data` of the Go plugin-provider floor (bench/anchors/go-floor: the smallest
 * go-plugin tfplugin6 provider, same filesystem mirror), shows what any plugin provider pays over terraform_data
 * (Terraform starts a plugin 3 times per plan); extra rows give floor/terraform_data and ours/floor, without goals.
 * When the floor cannot be built here, those rows are skipped with the reason printed.
 *
 * The same Go provider also serves `floor_domain` (bench/anchors/go-floor/domain.go): exactly virtseed_domain's
 * schema (written from `terraform providers schema -json` of our workdir to the bench folder and named by
 * FLOOR_DOMAIN_SCHEMA in the environment of its workdirs only; floor_data's run without it), doing nothing but echo.
 * Terraform's own work grows with the schema (virtseed_domain: 110 attributes in 14 nested block types beside
 * floor_data's 2) and, in an apply, with the state it rewrites after every resource; N floor_domain with the same
 * attributes as our domains is what a Go plugin pays for this schema. Rows: our plan and apply against N
 * floor_domain's (the 2.0x and 1.5x printed beside them from 1000 on: the floor_data goals cannot hold while
 * Terraform's own work for this schema is already several times floor_data's); without goals: floor_domain's plan
 * against floor_data's (what the schema alone costs Terraform); floor_domain's plan with the device set against
 * without (Terraform's own share of the devices row, the floor of its 1.1x); the size of terraform.tfstate per
 * resource after apply (ours, floor_domain, floor_data); from `memoryFrom` on, the CPU time of our plan and apply
 * (Terraform + provider) against floor_domain's (Terraform + Go plugin).
 *
 * From `variantsFrom` (300) domains on, the schema-variant table (issue #38): floor_domain with variants of our
 * schema that differ in one respect each (bench/private/schema-variants.ts: nested attributes instead of blocks,
 * fewer computed attributes, empty collections instead of nulls, fewer attributes), applied and planned beside
 * floor_domain and floor_data; Terraform + Go plugin CPU and wall time per plan and state bytes per resource, what
 * drives Terraform's own cost of the schema (docs/performance.md says which savings keep user configs working).
 *
 * The provider's own CPU per domain (issue #38: ≤ 3 ms per plan, ≤ 8 ms per apply, all its processes together,
 * start-up included) and CPU per plan and apply (terraform + provider) within 1.5x and 1.3x floor_domain's are
 * goal rows from `memoryFrom` on. With VIRTSEED_BENCH_CPU_PROF_DIR set (an existing folder), every provider process
 * the bench starts writes its V8 CPU profile there (bench/private/maxrss.js), to see where that CPU goes.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './private/command';
import { terraformEnv, tf, workdir, type Workdir } from './private/terraform-workdir';
import { buildGoFloor, GO_FLOOR_SOURCE, GO_FLOOR_VERSION } from './private/go-floor';
import { DOMAIN_DEVICE_SET, NO_DEVICE_SET } from './private/device-set';
import { alternate, formatGoalTable, GoalRow, loadNow, loadRange, median } from './private/rows';
import { attributeCount, schemaVariants, type JsonSchema } from './private/schema-variants';

const ROOT = join(__dirname, '..', '..');
const PREFIX = 'vsbench-';
const URI = 'qemu:///system';

/** Undefines every domain named with the bench prefix (left over from an interrupted run). */
function cleanupDomains(): void {
  const list = run('virsh', ['-c', URI, 'list', '--all', '--name'])
    .stdout.split('\n')
    .filter((n) => n.startsWith(PREFIX));
  for (const name of list) run('virsh', ['-c', URI, 'undefine', name], { allow: [0, 1] });
}

/** N defined domains named `<prefix><index>`; `devices` (attributes) merged into each, their names then under
 *  `<prefix>dev-`. */
export function domainConfig(n: number, devices?: Readonly<Record<string, unknown>>, prefix = PREFIX): object {
  const name = devices ? `${prefix}dev-\${count.index}` : `${prefix}\${count.index}`;
  return {
    terraform: { required_providers: { virtseed: { source: 'virtseed/virtseed', version: '0.1.0' } } },
    provider: { virtseed: { uri: URI } },
    resource: { virtseed_domain: { d: { count: n, name, memory: 64, type: 'qemu', running: false, ...devices } } },
  };
}

function anchorConfig(n: number): object {
  return { resource: { terraform_data: { d: { count: n, input: `${PREFIX}\${count.index}` } } } };
}

function floorConfig(n: number): object {
  return {
    terraform: { required_providers: { floor: { source: GO_FLOOR_SOURCE, version: GO_FLOOR_VERSION } } },
    resource: { floor_data: { d: { count: n, input: `${PREFIX}\${count.index}` } } },
  };
}

/** N `floor_domain` (the Go floor with virtseed_domain's schema) with the same attributes as {@link domainConfig}. */
export function floorDomainConfig(n: number, devices?: Readonly<Record<string, unknown>>, prefix = PREFIX): object {
  const name = devices ? `${prefix}dev-\${count.index}` : `${prefix}\${count.index}`;
  return {
    terraform: { required_providers: { floor: { source: GO_FLOOR_SOURCE, version: GO_FLOOR_VERSION } } },
    resource: { floor_domain: { d: { count: n, name, memory: 64, type: 'qemu', running: false, ...devices } } },
  };
}

/** Writes virtseed_domain's schema (`terraform providers schema -json` in `w`, initialised) to `base`; its path. */
export function writeDomainSchema(w: Workdir, base: string): string {
  const all = JSON.parse(run('terraform', ['providers', 'schema', '-json'], { cwd: w.dir, env: w.env }).stdout) as {
    provider_schemas: Record<string, { resource_schemas: Record<string, unknown> }>;
  };
  const file = join(base, 'virtseed_domain.schema.json');
  writeFileSync(file, JSON.stringify(all.provider_schemas['registry.terraform.io/virtseed/virtseed'].resource_schemas.virtseed_domain));
  return file;
}

/** Bytes of `w`'s terraform.tfstate per resource (n of them). */
const statePerResource = (w: Workdir, n: number) => statSync(join(w.dir, 'terraform.tfstate')).size / n;

/** A plan with refresh that must find no changes (exit 0 with -detailed-exitcode). */
const plan = (w: Workdir) => tf(w, ['plan', '-lock=false', '-detailed-exitcode']).ms;

/** What one plan used: peak RSS (KiB) of terraform and of the provider processes, and CPU time (ms, user +
 *  system) of terraform with its plugins (GNU time counts the children it waited for) and of the providers alone. */
interface PlanUsage {
  /** Wall time of the command (ms). */
  readonly ms: number;
  readonly terraformKiB: number;
  readonly providerKiB: number;
  readonly totalCpuMs: number;
  readonly providerCpuMs: number;
}

/** CPU time (ms, user + system) libvirtd has used so far (/proc/PID/stat utime + stime), NaN when not found. */
function libvirtdCpuMs(): number {
  try {
    const pid = readFileSync('/run/libvirtd.pid', 'utf8').trim();
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

const PLAN_ARGS = ['plan', '-lock=false', '-input=false', '-no-color'];
const APPLY_ARGS = ['apply', '-auto-approve', '-lock=false', '-input=false', '-no-color'];

/** One plan (or `args`) under GNU time, the provider processes (when `provider`) recording their own peak RSS and
 *  CPU time. */
function planUsage(w: Workdir, base: string, provider = true, args: string[] = PLAN_ARGS): PlanUsage {
  const rssFile = join(base, `maxrss-${Math.random().toString(36).slice(2)}`);
  const timeFile = join(base, `time-${Math.random().toString(36).slice(2)}`);
  const env = { ...w.env, NODE_OPTIONS: `--require ${join(ROOT, 'bench', 'private', 'maxrss.js')}`, VIRTSEED_BENCH_MAXRSS_FILE: rssFile };
  const { ms } = run('/usr/bin/time', ['-f', '%M %U %S', '-o', timeFile, 'terraform', ...args], {
    cwd: w.dir,
    env,
  });
  const [kib, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  const totalCpuMs = (user + sys) * 1000;
  if (!provider) return { ms, terraformKiB: kib, providerKiB: 0, totalCpuMs, providerCpuMs: 0 };
  let lines: number[][];
  try {
    lines = readFileSync(rssFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ').map(Number));
  } catch (err) {
    throw new Error(`no provider peak memory was recorded (${(err as Error).message}); NODE_OPTIONS=${env.NODE_OPTIONS}`);
  }
  const providerCpuMs = lines.reduce((sum, [, ms]) => sum + ms, 0);
  return { ms, terraformKiB: kib, providerKiB: Math.max(...lines.map(([k]) => k)), totalCpuMs, providerCpuMs };
}

/** The median of `runs` plans' usage, figure by figure. */
function medianUsage(runs: number, measure: () => PlanUsage): PlanUsage {
  const all = Array.from({ length: runs }, measure);
  const mid = (pick: (u: PlanUsage) => number) => all.map(pick).sort((a, b) => a - b)[Math.floor(all.length / 2)];
  return {
    ms: mid((u) => u.ms),
    terraformKiB: mid((u) => u.terraformKiB),
    providerKiB: mid((u) => u.providerKiB),
    totalCpuMs: mid((u) => u.totalCpuMs),
    providerCpuMs: mid((u) => u.providerCpuMs),
  };
}

export interface TerraformBenchOptions {
  /** Resource counts. @default [1, 1000] */
  readonly sizes?: readonly number[];
  /** Timed plans per config and size. @default 5 for ≤ 10 resources, else 3 */
  readonly plans?: (n: number) => number;
  readonly log?: (line: string) => void;
  /** Measure peak memory from this many resources on. @default 100 */
  readonly memoryFrom?: number;
  /** The device set of the devices row, from this many domains on. @default DOMAIN_DEVICE_SET, from 1000 */
  readonly deviceSet?: Readonly<Record<string, unknown>>;
  readonly devicesFrom?: number;
  /** The schema-variant table (floor_domain variants, bench/private/schema-variants.ts) from this many domains on.
   *  @default 300 */
  readonly variantsFrom?: number;
}

/** One row of the schema-variant table: a floor_domain schema's plan (refresh, no changes) and state. */
interface VariantRow {
  readonly name: string;
  readonly differs: string;
  readonly attributes: number;
  readonly planMs: number;
  readonly planCpuMs: number;
  readonly stateBytes: number;
}

/**
 * The schema-variant table at `n`: floor_domain with each variant of our schema (and floor_domain, floor_data
 * themselves, the anchors) applied, then planned `runs` times in alternation; medians of wall and CPU time
 * (terraform + Go plugin). `schemaFile` is our schema (writeDomainSchema's). Destroys what it applied.
 */
function variantTable(
  n: number,
  runs: number,
  base: string,
  env: NodeJS.ProcessEnv,
  schemaFile: string,
  anchors: { floorDomain: Workdir; floor: Workdir },
): VariantRow[] {
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as JsonSchema;
  const configs: { name: string; differs: string; attributes: number; w: Workdir; own: boolean }[] = [
    {
      name: 'floor_domain',
      differs: "virtseed_domain's schema (the anchor)",
      attributes: attributeCount(schema.block),
      w: anchors.floorDomain,
      own: false,
    },
    { name: 'floor_data', differs: 'id and input only', attributes: 2, w: anchors.floor, own: false },
  ];
  for (const v of schemaVariants(schema)) {
    const file = join(base, `variant-${v.name}.schema.json`);
    writeFileSync(file, JSON.stringify(v.schema));
    const w = workdir(base, `variant-${v.name}-${n}`, floorDomainConfig(n), { ...env, FLOOR_DOMAIN_SCHEMA: file, ...v.env });
    tf(w, ['apply', '-auto-approve']);
    configs.push({ name: v.name, differs: v.differs, attributes: attributeCount(v.schema.block), w, own: true });
  }
  const usages = configs.map(() => [] as PlanUsage[]);
  for (let i = 0; i < runs; i++) configs.forEach((c, j) => usages[j].push(planUsage(c.w, base, false)));
  const rows = configs.map((c, j) => ({
    name: c.name,
    differs: c.differs,
    attributes: c.attributes,
    planMs: median(usages[j].map((u) => u.ms)),
    planCpuMs: median(usages[j].map((u) => u.totalCpuMs)),
    stateBytes: statePerResource(c.w, n),
  }));
  for (const c of configs) if (c.own) tf(c.w, ['destroy', '-auto-approve']);
  return rows;
}

/** The schema-variant table as text lines: each variant's plan beside floor_domain's and floor_data's. */
function formatVariantTable(n: number, rows: readonly VariantRow[]): string[] {
  const anchor = rows.find((r) => r.name === 'floor_domain')!;
  const data = rows.find((r) => r.name === 'floor_data')!;
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const table = [
    [
      'variant',
      'differs from floor_domain in',
      'attrs',
      'plan wall ms',
      'plan CPU ms',
      'CPU/floor_domain',
      'CPU/floor_data',
      'state B/res',
    ],
    ...rows.map((r) => [
      r.name,
      r.differs,
      String(r.attributes),
      r.planMs.toFixed(0),
      r.planCpuMs.toFixed(0),
      x(r.planCpuMs, anchor.planCpuMs),
      x(r.planCpuMs, data.planCpuMs),
      r.stateBytes.toFixed(0),
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  return [
    `schema variants: plan (refresh, no changes) of ${n} floor_domain with each schema, terraform + Go plugin (median of alternating runs)`,
    ...table.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ')),
  ];
}

export async function runTerraformBench(options: TerraformBenchOptions = {}): Promise<GoalRow[]> {
  const log = options.log ?? console.log;
  const base = mkdtempSync(join(tmpdir(), 'virtseed-bench-tf-'));
  const env = terraformEnv(base);
  const goFloor = buildGoFloor(join(base, 'plugins')); // registry.terraform.io/virtseed/*: the CLI config covers it
  if (!goFloor.built) log(`  Go plugin floor skipped (bench/anchors/build-go-floor.sh failed):\n${goFloor.reason}`);
  const rows: GoalRow[] = [];
  let floorDomainEnv: NodeJS.ProcessEnv | undefined; // env plus FLOOR_DOMAIN_SCHEMA, once our schema is written
  const variantTables: string[] = [];
  cleanupDomains();
  try {
    for (const n of options.sizes ?? [1, 1000]) {
      const ours = workdir(base, `ours-${n}`, domainConfig(n), env);
      const anchor = workdir(base, `anchor-${n}`, anchorConfig(n), env);
      if (goFloor.built) floorDomainEnv ??= { ...env, FLOOR_DOMAIN_SCHEMA: writeDomainSchema(ours, base) };
      const applyLoads = [loadNow()];
      // The applies run under GNU time, the provider recording its CPU and libvirtd's read around ours: the wall
      // times of the apply rows and the CPU split of the apply come from the same run.
      const libvirtdBefore = libvirtdCpuMs();
      const applyOursUsage = planUsage(ours, base, true, APPLY_ARGS);
      const libvirtdApplyMs = libvirtdCpuMs() - libvirtdBefore;
      const applyOurs = applyOursUsage.ms;
      applyLoads.push(loadNow());
      const applyAnchor = tf(anchor, ['apply', '-auto-approve']).ms;
      const floor = goFloor.built ? workdir(base, `floor-${n}`, floorConfig(n), env) : undefined;
      const applyFloorUsage = floor ? planUsage(floor, base, false, APPLY_ARGS) : undefined;
      const applyFloor = applyFloorUsage ? applyFloorUsage.ms : NaN;
      applyLoads.push(loadNow());
      const floorDomain = floorDomainEnv ? workdir(base, `floor-domain-${n}`, floorDomainConfig(n), floorDomainEnv) : undefined;
      const applyFloorDomainUsage = floorDomain ? planUsage(floorDomain, base, false, APPLY_ARGS) : undefined;
      const applyFloorDomain = applyFloorDomainUsage ? applyFloorDomainUsage.ms : NaN;
      applyLoads.push(loadNow());
      const applyLoad = loadRange(applyLoads);
      const deviceSet = options.deviceSet ?? DOMAIN_DEVICE_SET;
      const withDevices =
        deviceSet && n >= (options.devicesFrom ?? 1000) ? workdir(base, `devices-${n}`, domainConfig(n, deviceSet), env) : undefined;
      if (withDevices) tf(withDevices, ['apply', '-auto-approve']);
      else if (n >= (options.devicesFrom ?? 1000)) log(`  plan of ${n} domains with devices skipped: ${NO_DEVICE_SET}`);
      const floorDomainDevices =
        withDevices && floorDomainEnv
          ? workdir(base, `floor-domain-devices-${n}`, floorDomainConfig(n, deviceSet), floorDomainEnv)
          : undefined;
      if (floorDomainDevices) tf(floorDomainDevices, ['apply', '-auto-approve']);
      const runs = options.plans?.(n) ?? (n <= 10 ? 5 : 3);
      const planLoads: number[] = [];
      const [planOurs, planAnchor, planFloor, planDevices, planFloorDomain, planFloorDomainDevices] = await alternate(
        runs,
        [
          () => plan(ours),
          () => plan(anchor),
          floor ? () => plan(floor) : () => NaN,
          withDevices ? () => plan(withDevices) : () => NaN,
          floorDomain ? () => plan(floorDomain) : () => NaN,
          floorDomainDevices ? () => plan(floorDomainDevices) : () => NaN,
        ],
        planLoads,
      );
      const load = loadRange(planLoads);
      const added = rows.length;
      const plural = n === 1 ? '' : 's';
      const planName = `plan (refresh), ${n} domain${plural}`;
      const applyName = `apply, ${n} defined domain${plural}`;
      rows.push({ name: planName, unit: 'ms', ours: planOurs, anchorName: `${n} terraform_data`, anchor: planAnchor, load });
      rows.push({ name: applyName, unit: 'ms', ours: applyOurs, anchorName: `${n} terraform_data`, anchor: applyAnchor, load: applyLoad });
      if (floor) {
        const floorName = `${n} floor_data (Go plugin)`;
        rows.push({
          name: `plan (refresh), ${floorName}`,
          unit: 'ms',
          ours: planFloor,
          anchorName: `${n} terraform_data`,
          anchor: planAnchor,
          load,
        });
        rows.push({
          name: planName,
          unit: 'ms',
          ours: planOurs,
          anchorName: floorName,
          anchor: planFloor,
          goal: n >= 1000 ? 2.0 : undefined,
          load,
        });
        rows.push({
          name: `apply, ${floorName}`,
          unit: 'ms',
          ours: applyFloor,
          anchorName: `${n} terraform_data`,
          anchor: applyAnchor,
          load: applyLoad,
        });
        rows.push({
          name: applyName,
          unit: 'ms',
          ours: applyOurs,
          anchorName: floorName,
          anchor: applyFloor,
          goal: n >= 1000 ? 1.5 : undefined,
          load: applyLoad,
        });
      }
      if (floor && floorDomain) {
        const floorDomainName = `${n} floor_domain (Go plugin, same schema)`;
        // The ratios held against the floor with our schema: what our provider adds over a Go one doing nothing.
        const goal = (g: number) => (n >= 1000 ? g : undefined);
        rows.push({
          name: planName,
          unit: 'ms',
          ours: planOurs,
          anchorName: floorDomainName,
          anchor: planFloorDomain,
          goal: goal(2.0),
          load,
        });
        rows.push({
          name: applyName,
          unit: 'ms',
          ours: applyOurs,
          anchorName: floorDomainName,
          anchor: applyFloorDomain,
          goal: goal(1.5),
          load: applyLoad,
        });
        rows.push({
          name: `plan (refresh), ${floorDomainName}`,
          unit: 'ms',
          ours: planFloorDomain,
          anchorName: `${n} floor_data (Go plugin)`,
          anchor: planFloor,
          load,
        });
        if (floorDomainDevices) {
          rows.push({
            name: `plan (refresh), ${n} floor_domain with the device set`,
            unit: 'ms',
            ours: planFloorDomainDevices,
            anchorName: `${n} floor_domain without`,
            anchor: planFloorDomain,
            load,
          });
        }
        rows.push({
          name: `terraform.tfstate per resource after apply, ${n} domain${plural}`,
          unit: 'bytes',
          ours: statePerResource(ours, n),
          anchorName: `${n} floor_domain`,
          anchor: statePerResource(floorDomain, n),
        });
        rows.push({
          name: `terraform.tfstate per resource after apply, ${n} floor_domain`,
          unit: 'bytes',
          ours: statePerResource(floorDomain, n),
          anchorName: `${n} floor_data`,
          anchor: statePerResource(floor, n),
        });
      }
      if (withDevices) {
        rows.push({
          name: `plan (refresh), ${n} domains with the device set`,
          unit: 'ms',
          ours: planDevices,
          anchorName: `${n} domains without`,
          anchor: planOurs,
          goal: 1.1,
          load,
        });
      }
      if (n >= (options.memoryFrom ?? 100)) {
        const mem = medianUsage(3, () => planUsage(ours, base));
        const anchorMem = planUsage(anchor, base, false);
        const usageLoad = loadRange([loadNow()]);
        rows.push({
          name: `peak RSS during plan, ${n} domains: provider`,
          unit: 'MiB',
          ours: mem.providerKiB / 1024,
          anchorName: 'terraform (same plan)',
          anchor: mem.terraformKiB / 1024,
          load: usageLoad,
        });
        rows.push({
          name: `peak RSS during plan, ${n} terraform_data: terraform`,
          unit: 'MiB',
          ours: anchorMem.terraformKiB / 1024,
          anchorName: 'terraform (domains plan)',
          anchor: mem.terraformKiB / 1024,
        });
        // CPU time, unlike wall time, hardly depends on what else the machine runs: who does the work of a plan.
        rows.push({
          name: `CPU per plan, ${n} domains: provider (3 processes)`,
          unit: 'ms',
          ours: mem.providerCpuMs,
          anchorName: 'terraform itself (same plan)',
          anchor: mem.totalCpuMs - mem.providerCpuMs,
          load: usageLoad,
        });
        rows.push({
          name: `provider CPU per domain per plan, ${n} domains`,
          unit: 'ms',
          ours: mem.providerCpuMs / n,
          anchorName: 'terraform itself per domain',
          anchor: (mem.totalCpuMs - mem.providerCpuMs) / n,
          goal: 3,
          absolute: true,
          load: usageLoad,
        });
        const floors: [Workdir | undefined, string][] = [
          [floor, 'floor_data'],
          [floorDomain, 'floor_domain'],
        ];
        for (const [w, type] of floors) {
          if (!w) continue;
          const floorUsage = medianUsage(3, () => planUsage(w, base, false));
          rows.push({
            name: `CPU per plan, ${n} domains: terraform + provider`,
            unit: 'ms',
            ours: mem.totalCpuMs,
            anchorName: `${n} ${type}: terraform + Go plugin`,
            anchor: floorUsage.totalCpuMs,
            goal: type === 'floor_domain' ? 1.5 : undefined,
            load: usageLoad,
          });
        }
        if (withDevices) {
          const dev = medianUsage(3, () => planUsage(withDevices, base));
          rows.push({
            name: `CPU per plan, ${n} domains with the device set: terraform + provider`,
            unit: 'ms',
            ours: dev.totalCpuMs,
            anchorName: 'terraform + provider, without',
            anchor: mem.totalCpuMs,
            load: usageLoad,
          });
          rows.push({
            name: `CPU per plan, ${n} domains with the device set: provider`,
            unit: 'ms',
            ours: dev.providerCpuMs,
            anchorName: 'provider, without',
            anchor: mem.providerCpuMs,
            load: usageLoad,
          });
          rows.push({
            name: `CPU per plan, ${n} domains with the device set: terraform itself`,
            unit: 'ms',
            ours: dev.totalCpuMs - dev.providerCpuMs,
            anchorName: 'terraform itself, without',
            anchor: mem.totalCpuMs - mem.providerCpuMs,
            load: usageLoad,
          });
        }
      }
      if (n >= (options.memoryFrom ?? 100) && applyFloorUsage) {
        // Who does the work of an apply (the first applies above): Terraform itself, the provider, libvirtd's defines.
        const split = (name: string, ms: number, type = 'floor_data', anchor: PlanUsage = applyFloorUsage, goal?: number) =>
          rows.push({
            name,
            unit: 'ms',
            ours: ms,
            anchorName: `${n} ${type} apply: terraform + Go plugin`,
            anchor: anchor.totalCpuMs,
            goal,
            load: applyLoad,
          });
        split(`CPU per apply, ${n} defined domains: terraform + provider`, applyOursUsage.totalCpuMs);
        split(`CPU per apply, ${n} defined domains: terraform itself`, applyOursUsage.totalCpuMs - applyOursUsage.providerCpuMs);
        split(`CPU per apply, ${n} defined domains: provider`, applyOursUsage.providerCpuMs);
        split(`CPU per apply, ${n} defined domains: libvirtd (defines)`, libvirtdApplyMs);
        rows.push({
          name: `provider CPU per domain per apply, ${n} defined domains`,
          unit: 'ms',
          ours: applyOursUsage.providerCpuMs / n,
          anchorName: 'terraform itself per domain',
          anchor: (applyOursUsage.totalCpuMs - applyOursUsage.providerCpuMs) / n,
          goal: 8,
          absolute: true,
          load: applyLoad,
        });
        if (applyFloorDomainUsage)
          split(
            `CPU per apply, ${n} defined domains: terraform + provider`,
            applyOursUsage.totalCpuMs,
            'floor_domain',
            applyFloorDomainUsage,
            1.3,
          );
      }
      if (floor && floorDomain && floorDomainEnv?.FLOOR_DOMAIN_SCHEMA && n >= (options.variantsFrom ?? 300)) {
        const variants = variantTable(n, runs, base, env, floorDomainEnv.FLOOR_DOMAIN_SCHEMA, { floorDomain, floor });
        const anchorCpu = variants[0].planCpuMs;
        for (const v of variants.slice(2))
          rows.push({
            name: `CPU per plan, ${n} floor_domain variant ${v.name}`,
            unit: 'ms',
            ours: v.planCpuMs,
            anchorName: `${n} floor_domain`,
            anchor: anchorCpu,
            load: loadRange([loadNow()]),
          });
        variantTables.push(...formatVariantTable(n, variants));
        for (const line of variantTables.slice(-variants.length - 2)) log(`  ${line}`);
      }
      for (const line of formatGoalTable(rows.slice(added)).slice(2)) log(`  ${line}`); // progress, as measured
      tf(ours, ['destroy', '-auto-approve']);
      tf(anchor, ['destroy', '-auto-approve']);
      if (floor) tf(floor, ['destroy', '-auto-approve']);
      if (floorDomain) tf(floorDomain, ['destroy', '-auto-approve']);
      if (withDevices) tf(withDevices, ['destroy', '-auto-approve']);
      if (floorDomainDevices) tf(floorDomainDevices, ['destroy', '-auto-approve']);
    }
  } finally {
    cleanupDomains();
    rmSync(base, { recursive: true, force: true });
  }
  log(
    'terraform plan/apply at scale (plan: median of alternating runs with refresh, no changes; apply: one run; real terraform + provider)',
  );
  for (const line of formatGoalTable(rows)) log(line);
  for (const line of variantTables) log(line);
  return rows;
}
