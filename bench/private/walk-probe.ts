/**
 * Builds of the provider measured against each other and against floor_domain in long-lived workdirs
 * (docs/performance.md, issue 38's tenth round): each build is the provider bundled from a checkout
 * (`bundleProvider`, as the artifact) into a folder of its own with its own code cache, run through a
 * `dev_overrides` wrapper under GNU time (bench/private/plan-split.ts), so that builds alternate in one workdir
 * without reinstalling anything.
 *
 * Usage (through tsx; state under $PROBE_BASE, default /tmp/virtseed-walk-probe):
 * - `build TAG [ROOT]`: bundles ROOT's provider (default this checkout) as build TAG.
 * - `setup N`: the Go floor, and workdirs `ours-N` (N `virtseed_domain`s named `vsprobe<N>-<i>`) and
 *   `floor-N` (N `floor_domain`s), applied with the first build.
 * - `plan N RUNS TAG[,TAG…|,go] [probe]`: plans (refresh, no changes) alternated; with `probe`, the provider
 *   processes also write bench/private/maxrss.js's CPU profile (unless $PROBE_NO_PROF) and bench/private/gc-probe.js's
 *   GC and heap record (and a heap snapshot with $GCPROBE_SNAPSHOT_AT_MS) into a folder under $PROBE_BASE/probe.
 * A build folder with a `flags` file runs under `node FLAGS` (V8 flags the executable cannot set at run time).
 * - `apply N RUNS TAG[,TAG…|,go]`: destroy (unmeasured) and apply (create) alternated, each measured as a plan.
 * - `teardown N`: destroys both workdirs.
 * Prints one line per run: plugin CPU (all processes) and its largest process, Terraform itself, wall, load.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleProvider } from '../../packages/build/provider-artifact';
import { repoRoot } from '../../packages/build/repo';
import { domainConfig, floorDomainConfig } from '../terraform';
import { run } from './command';
import { cpuMsOf, timedOverride } from './plan-split';
import { loadNow, median } from './rows';

const BASE = process.env.PROBE_BASE ?? '/tmp/virtseed-walk-probe';
const HERE = join(repoRoot(), 'bench', 'private');

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, TF_PLUGIN_CACHE_DIR: '', CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' };
  delete e.TF_LOG;
  delete e.NODE_OPTIONS;
  return e;
}

/** The mirror config for the Go floor. */
function mirrorConfig(): string {
  const file = join(BASE, 'terraformrc');
  writeFileSync(
    file,
    `provider_installation {\n  filesystem_mirror {\n    path = "${join(BASE, 'plugins')}"\n    include = ["registry.terraform.io/virtseed/*"]\n  }\n  direct { exclude = ["registry.terraform.io/virtseed/*"] }\n}\n`,
  );
  return file;
}

async function build(tag: string, root: string): Promise<void> {
  const program = await bundleProvider(root);
  const dir = join(BASE, 'builds', tag);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'cache'), { recursive: true });
  writeFileSync(join(dir, 'terraform-provider-virtseed'), program.executable, { mode: 0o755 });
  writeFileSync(join(dir, program.sourceFile), program.source);
  console.log(`built ${tag} from ${root}`);
}

const goExe = () => {
  const root = join(BASE, 'plugins', 'registry.terraform.io', 'virtseed', 'floor');
  let dir = root;
  for (let depth = 0; depth < 2; depth++) dir = join(dir, readdirSync(dir)[0]);
  return join(
    dir,
    readdirSync(dir).find((f) => f.startsWith('terraform-provider-floor'))!,
  );
};

/** The CLI config and workdir of one config (a build's tag, or `go`), timing the plugin into `cpuFile`. */
function config(n: number, tag: string, cpuFile: string, extra: Record<string, string> = {}): { dir: string; cli: string } {
  if (tag === 'go') {
    const cli = timedOverride(BASE, `wrap-go`, 'floor', goExe(), cpuFile, false, { FLOOR_DOMAIN_SCHEMA: join(BASE, 'schema.json') });
    return { dir: join(BASE, `floor-${n}`), cli };
  }
  const b = join(BASE, 'builds', tag);
  // A build with a `flags` file runs under `node FLAGS` (V8 flags the executable cannot set once started).
  let exe = join(b, 'terraform-provider-virtseed');
  if (existsSync(join(b, 'flags'))) {
    const launcher = join(b, 'launch.sh');
    writeFileSync(launcher, `#!/bin/sh\nexec node ${readFileSync(join(b, 'flags'), 'utf8').trim()} '${exe}' "$@"\n`, { mode: 0o755 });
    exe = launcher;
  }
  const cli = timedOverride(BASE, `wrap-${tag}`, 'virtseed', exe, cpuFile, false, {
    VIRTSEED_CACHE_DIR: join(b, 'cache'),
    ...extra,
  });
  return { dir: join(BASE, `ours-${n}`), cli };
}

function tf(dir: string, cli: string, args: string[], allow?: number[]) {
  return run('terraform', [...args, '-input=false', '-no-color'], { cwd: dir, env: { ...env(), TF_CLI_CONFIG_FILE: cli }, allow });
}

function setup(n: number, tag: string): void {
  run('bash', [join(repoRoot(), 'bench', 'anchors', 'build-go-floor.sh'), join(BASE, 'plugins')]);
  const cpuFile = join(BASE, 'cpu-setup');
  const ours = config(n, tag, cpuFile);
  mkdirSync(ours.dir, { recursive: true });
  writeFileSync(join(ours.dir, 'main.tf.json'), JSON.stringify(domainConfig(n, undefined, `vsprobe${n}-`), null, 1));
  const all = JSON.parse(
    run('terraform', ['providers', 'schema', '-json'], { cwd: ours.dir, env: { ...env(), TF_CLI_CONFIG_FILE: ours.cli } }).stdout,
  ) as {
    provider_schemas: Record<string, { resource_schemas: Record<string, unknown> }>;
  };
  const schema = Object.values(all.provider_schemas)[0].resource_schemas.virtseed_domain;
  writeFileSync(join(BASE, 'schema.json'), JSON.stringify(schema));
  const fdir = join(BASE, `floor-${n}`);
  mkdirSync(fdir, { recursive: true });
  writeFileSync(join(fdir, 'main.tf.json'), JSON.stringify(floorDomainConfig(n, undefined, `vsprobe${n}-`), null, 1));
  run('terraform', ['init', '-input=false', '-no-color'], { cwd: fdir, env: { ...env(), TF_CLI_CONFIG_FILE: mirrorConfig() } });
  tf(ours.dir, ours.cli, ['apply', '-auto-approve']);
  const go = config(n, 'go', cpuFile);
  tf(go.dir, go.cli, ['apply', '-auto-approve']);
  console.log(`set up ${n}`);
}

function perProcess(file: string): number[] {
  if (!existsSync(file)) return [0];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => /^[0-9.]+ [0-9.]+$/.test(l))
    .map((l) => l.split(' ').reduce((a, x) => a + Number(x) * 1000, 0));
}

interface Measured {
  plugin: number;
  walk: number;
  own: number;
  wall: number;
  load: number;
}

function measure(n: number, tag: string, args: string[], extra: Record<string, string> = {}): Measured {
  const cpuFile = join(BASE, `cpu-${tag}`);
  const timeFile = join(BASE, `time-${tag}`);
  rmSync(cpuFile, { force: true });
  const c = config(n, tag, cpuFile, extra);
  const load = loadNow();
  const { ms } = run('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, 'terraform', ...args, '-input=false', '-no-color'], {
    cwd: c.dir,
    env: { ...env(), TF_CLI_CONFIG_FILE: c.cli },
    allow: [0, 2],
  });
  const total = cpuMsOf(timeFile);
  const plugin = cpuMsOf(cpuFile);
  return { plugin, walk: Math.max(...perProcess(cpuFile)), own: total - plugin, wall: ms, load };
}

function report(kind: string, n: number, tag: string, m: Measured): void {
  console.log(
    `${kind} ${n} ${tag}: plugin ${m.plugin.toFixed(0)} ms (largest process ${m.walk.toFixed(0)}), terraform itself ${m.own.toFixed(0)} ms, ` +
      `total ${(m.plugin + m.own).toFixed(0)} ms, wall ${m.wall.toFixed(0)} ms, load ${m.load.toFixed(1)}`,
  );
}

function medians(kind: string, n: number, tags: string[], all: Measured[][]): void {
  tags.forEach((tag, j) => {
    const m = (pick: (x: Measured) => number) => median(all[j].map(pick)).toFixed(0);
    console.log(
      `median ${kind} ${n} ${tag} (${all[j].length}): plugin ${m((x) => x.plugin)} ms (${(median(all[j].map((x) => x.plugin)) / n).toFixed(2)} ms/domain), ` +
        `largest process ${m((x) => x.walk)}, terraform itself ${m((x) => x.own)}, total ${m((x) => x.plugin + x.own)}, wall ${m((x) => x.wall)}`,
    );
  });
}

function probeEnv(tag: string): Record<string, string> {
  const dir = join(BASE, 'probe', `${tag}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  console.log(`probe folder ${dir}`);
  return {
    NODE_OPTIONS: `--require ${join(HERE, 'maxrss.js')} --require ${join(HERE, 'gc-probe.js')}`,
    VIRTSEED_BENCH_CPU_PROF_DIR: process.env.PROBE_NO_PROF ? '' : dir,
    GCPROBE_DIR: dir,
  };
}

async function main(): Promise<void> {
  const [cmd, a, b, c, d] = process.argv.slice(2);
  mkdirSync(BASE, { recursive: true });
  if (cmd === 'build') return build(a, b ?? repoRoot());
  const n = Number(a);
  if (cmd === 'setup') return setup(n, b ?? 'before');
  if (cmd === 'teardown') {
    const cpuFile = join(BASE, 'cpu-teardown');
    for (const tag of [c ?? 'before', 'go']) {
      const x = config(n, tag, cpuFile);
      tf(x.dir, x.cli, ['destroy', '-auto-approve'], [0, 1]);
    }
    return;
  }
  const runs = Number(b);
  const tags = c.split(',');
  const all = tags.map(() => [] as Measured[]);
  for (let i = 0; i < runs; i++) {
    tags.forEach((tag, j) => {
      const extra = d === 'probe' && tag !== 'go' ? probeEnv(tag) : {};
      if (cmd === 'plan') {
        const m = measure(n, tag, ['plan', '-lock=false', '-detailed-exitcode'], extra);
        all[j].push(m);
        report('plan', n, tag, m);
      } else if (cmd === 'apply') {
        const cpuFile = join(BASE, 'cpu-destroy');
        const x = config(n, tag, cpuFile);
        tf(x.dir, x.cli, ['destroy', '-auto-approve', '-lock=false']);
        const m = measure(n, tag, ['apply', '-auto-approve', '-lock=false'], extra);
        all[j].push(m);
        report('apply', n, tag, m);
      }
    });
  }
  medians(cmd, n, tags, all);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
