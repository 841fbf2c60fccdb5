/**
 * Who spends a plan's CPU, ours against floor_domain (docs/performance.md, issue 38's seventh round): N defined
 * `virtseed_domain`s and N `floor_domain`s (the Go floor with our schema), each provider started through a
 * `dev_overrides` folder whose two-line wrapper `exec`s `/usr/bin/time` on the installed plugin, so that the
 * plugin's whole CPU (all processes and threads, start to exit) is measured the same way for Node and Go; then
 * `terraform plan` (refresh, no changes) under GNU time, alternating, and "Terraform itself" = total − plugins.
 * A third config runs floor_domain's plugin under `nice -n 19` (the same work, slower answers): what the
 * provider's answer time alone costs Terraform.
 *
 * Usage (after `npm run build`): `node dist/bench/private/plan-split.js [N=300] [RUNS=5]`. Domains are named
 * `vssplit-<n>` and destroyed at the end; everything else lives in a temporary folder, removed at the end.
 * Prints one line per plan and the medians (CPU ms, wall ms, load average).
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { domainConfig, floorDomainConfig, writeDomainSchema } from '../terraform';
import { run } from './command';
import { buildGoFloor } from './go-floor';
import { loadNow, median } from './rows';
import { terraformEnv, tf, workdir, type Workdir } from './terraform-workdir';

const PREFIX = 'vssplit-';

/** The plugin executable `terraform init` installed in `w` for `registry.terraform.io/virtseed/<name>`. */
export function installedPlugin(w: Workdir, name: string): string {
  let dir = join(w.dir, '.terraform', 'providers', 'registry.terraform.io', 'virtseed', name);
  for (let depth = 0; depth < 2; depth++) dir = join(dir, readdirSync(dir)[0]); // <version>/<os>_<arch>
  const exe = readdirSync(dir).find((f) => f.startsWith(`terraform-provider-${name}`));
  if (!exe) throw new Error(`no terraform-provider-${name} in ${dir}`);
  return join(dir, exe);
}

/** A CLI config in `base/<tag>` that starts `virtseed/<name>` through a wrapper timing it into `cpuFile`, with the
 *  environment variables `env` set for the plugin. */
export function timedOverride(
  base: string,
  tag: string,
  name: string,
  plugin: string,
  cpuFile: string,
  nice: boolean,
  env: Readonly<Record<string, string>> = {},
): string {
  const dir = join(base, tag);
  mkdirSync(dir, { recursive: true });
  const wrapper = join(dir, `terraform-provider-${name}`);
  const timed = `/usr/bin/time -f '%U %S' -a -o '${cpuFile}' '${plugin}' "$@"`;
  const exports = Object.entries(env)
    .map(([k, v]) => `export ${k}='${v}'\n`)
    .join('');
  writeFileSync(wrapper, `#!/bin/sh\n${exports}exec ${nice ? 'nice -n 19 ' : ''}${timed}\n`);
  chmodSync(wrapper, 0o755);
  const config = join(dir, 'terraformrc');
  writeFileSync(config, `provider_installation {\n  dev_overrides { "virtseed/${name}" = "${dir}" }\n  direct {}\n}\n`);
  return config;
}

/** Sum of the `USER SYS` (seconds) lines GNU time appended to `file`, in ms; 0 when there is none. */
export function cpuMsOf(file: string): number {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  return text
    .split('\n')
    .filter((l) => /^[0-9.]+ [0-9.]+$/.test(l))
    .reduce((sum, l) => sum + l.split(' ').reduce((a, x) => a + Number(x) * 1000, 0), 0);
}

export interface Split {
  readonly totalMs: number;
  readonly pluginMs: number;
  readonly wallMs: number;
  readonly load: number;
}

/** One `terraform plan` in `w` with the CLI config `config`: total CPU (GNU time) and the plugins' (wrapper). */
export function planSplit(w: Workdir, config: string, cpuFile: string, base: string): Split {
  rmSync(cpuFile, { force: true });
  const timeFile = join(base, 'time');
  const load = loadNow();
  const env = { ...w.env, TF_CLI_CONFIG_FILE: config };
  const args = ['-f', '%U %S', '-o', timeFile, 'terraform', 'plan', '-lock=false', '-input=false', '-no-color', '-detailed-exitcode'];
  const { ms } = run('/usr/bin/time', args, { cwd: w.dir, env });
  return { totalMs: cpuMsOf(timeFile), pluginMs: cpuMsOf(cpuFile), wallMs: ms, load };
}

/**
 * The Go floor built into `base`/plugins, and two workdirs in `base` of `n` domains named from `prefix`: `ours`
 * (virtseed_domain) and `floorDomain` (floor_domain with our schema, written from `ours`). Throws when the Go floor
 * does not build. Neither is applied yet.
 */
export function floorPair(base: string, n: number, prefix: string, env: NodeJS.ProcessEnv): { ours: Workdir; floorDomain: Workdir } {
  const floor = buildGoFloor(join(base, 'plugins'));
  if (!floor.built) throw new Error(`the Go floor did not build:\n${floor.reason}`);
  const ours = workdir(base, 'ours', domainConfig(n, undefined, prefix), env);
  const floorEnv = { ...env, FLOOR_DOMAIN_SCHEMA: writeDomainSchema(ours, base) };
  return { ours, floorDomain: workdir(base, 'floor-domain', floorDomainConfig(n, undefined, prefix), floorEnv) };
}

function main(): void {
  const n = Number(process.argv[2] ?? 300);
  const runs = Number(process.argv[3] ?? 5);
  const base = mkdtempSync(join(tmpdir(), 'virtseed-plan-split-'));
  const { ours, floorDomain } = floorPair(base, n, PREFIX, terraformEnv(base));
  try {
    tf(ours, ['apply', '-auto-approve']);
    tf(floorDomain, ['apply', '-auto-approve']);
    const cpuFile = join(base, 'plugin-cpu');
    const configs: [string, Workdir, string][] = [
      ['ours', ours, timedOverride(base, 'wrap-ours', 'virtseed', installedPlugin(ours, 'virtseed'), cpuFile, false)],
      ['floor_domain', floorDomain, timedOverride(base, 'wrap-floor', 'floor', installedPlugin(floorDomain, 'floor'), cpuFile, false)],
      ['floor_domain niced', floorDomain, timedOverride(base, 'wrap-nice', 'floor', installedPlugin(floorDomain, 'floor'), cpuFile, true)],
    ];
    const all = configs.map(() => [] as Split[]);
    for (let i = 0; i < runs; i++) {
      configs.forEach(([name, w, config], j) => {
        const s = planSplit(w, config, cpuFile, base);
        all[j].push(s);
        const own = (s.totalMs - s.pluginMs).toFixed(0);
        console.log(
          `${name}: terraform itself ${own} ms, plugin ${s.pluginMs.toFixed(0)} ms, wall ${s.wallMs.toFixed(0)} ms, load ${s.load.toFixed(1)}`,
        );
      });
    }
    configs.forEach(([name], j) => {
      const m = (pick: (s: Split) => number) => median(all[j].map(pick)).toFixed(0);
      console.log(
        `median ${name} (${n}, ${runs} runs): terraform itself ${m((s) => s.totalMs - s.pluginMs)} ms, plugin ${m((s) => s.pluginMs)} ms, ` +
          `total ${m((s) => s.totalMs)} ms, wall ${m((s) => s.wallMs)} ms`,
      );
    });
  } finally {
    tf(ours, ['destroy', '-auto-approve'], [0, 1]);
    tf(floorDomain, ['destroy', '-auto-approve'], [0, 1]);
    rmSync(base, { recursive: true, force: true });
  }
}

if (require.main === module) main();
