/**
 * The floor of our own stack (docs/performance.md, issue 38's ninth round): N defined `virtseed_domain`s planned
 * (refresh, no changes) by the real provider, by the no-op provider (bench/private/noop-provider.ts: the same
 * bundle start-up, handshake, AutoMTLS, grpc-js and `ProviderServer`, handlers that do no work) with its value codec
 * (`codec`) and without (`raw`), and N `floor_domain`s by the Go floor; optionally each again with Terraform's
 * AutoMTLS off (`TF_DISABLE_PLUGIN_TLS=1`: plaintext gRPC on the unix socket, for Go and Node alike). Plugin CPU
 * is measured as bench/private/plan-split.ts measures it (a `dev_overrides` wrapper running the plugin under
 * GNU time), the configs alternated.
 *
 * Usage (after `npm run build`, or through tsx): `node dist/bench/private/plugin-floor.js [N=300] [RUNS=3] [CONFIGS]`,
 * CONFIGS a comma-separated subset of `go,go-notls,raw,raw-notls,codec,codec-notls,ours,ours-notls` (default all).
 * Domains are named `vsnoop-<n>` and destroyed at the end; everything else lives in a temporary folder.
 * Prints one line per plan (plugin CPU, its largest process — the plan walk —, Terraform's, wall, load) and medians.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleProvider } from '../../packages/build/provider-artifact';
import { repoRoot } from '../../packages/build/repo';
import { floorPair, installedPlugin, planSplit, timedOverride, type Split } from './plan-split';
import { median } from './rows';
import { terraformEnv, tf, type Workdir } from './terraform-workdir';

const PREFIX = 'vsnoop-';
const ALL = ['go', 'go-notls', 'raw', 'raw-notls', 'codec', 'codec-notls', 'ours', 'ours-notls'] as const;

/** The no-op provider's executable and bundle, written into `dir`. @returns the executable's path. */
async function buildNoop(dir: string): Promise<string> {
  const program = await bundleProvider(repoRoot(), 'bench/private/noop-provider.ts', 'provider-noop');
  mkdirSync(dir, { recursive: true });
  const exe = join(dir, 'terraform-provider-virtseed-noop');
  writeFileSync(exe, program.executable, { mode: 0o755 });
  writeFileSync(join(dir, program.sourceFile), program.source);
  return exe;
}

/** CPU ms of each process GNU time appended to `file` (one `USER SYS` line each). */
function perProcess(file: string): number[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => /^[0-9.]+ [0-9.]+$/.test(l))
    .map((l) => l.split(' ').reduce((a, x) => a + Number(x) * 1000, 0));
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 300);
  const runs = Number(process.argv[3] ?? 3);
  const wanted = (process.argv[4] ?? ALL.join(',')).split(',');
  const base = mkdtempSync(join(tmpdir(), 'virtseed-plugin-floor-'));
  const env = { ...terraformEnv(base), VIRTSEED_CACHE_DIR: join(base, 'cache') };
  const { ours, floorDomain } = floorPair(base, n, PREFIX, env);
  const noop = await buildNoop(join(base, 'noop'));
  try {
    tf(ours, ['apply', '-auto-approve']);
    tf(floorDomain, ['apply', '-auto-approve']);
    const cpuFile = join(base, 'plugin-cpu');
    const real = installedPlugin(ours, 'virtseed');
    const go = installedPlugin(floorDomain, 'floor');
    const noTls = (w: Workdir): Workdir => ({ dir: w.dir, env: { ...w.env, TF_DISABLE_PLUGIN_TLS: '1' } });
    const made: Record<(typeof ALL)[number], () => [Workdir, string]> = {
      go: () => [floorDomain, timedOverride(base, 'go', 'floor', go, cpuFile, false)],
      'go-notls': () => [noTls(floorDomain), timedOverride(base, 'go', 'floor', go, cpuFile, false)],
      raw: () => [ours, timedOverride(base, 'raw', 'virtseed', noop, cpuFile, false, { VIRTSEED_NOOP: 'raw' })],
      'raw-notls': () => [noTls(ours), timedOverride(base, 'raw', 'virtseed', noop, cpuFile, false, { VIRTSEED_NOOP: 'raw' })],
      codec: () => [ours, timedOverride(base, 'codec', 'virtseed', noop, cpuFile, false, { VIRTSEED_NOOP: 'codec' })],
      'codec-notls': () => [noTls(ours), timedOverride(base, 'codec', 'virtseed', noop, cpuFile, false, { VIRTSEED_NOOP: 'codec' })],
      ours: () => [ours, timedOverride(base, 'ours', 'virtseed', real, cpuFile, false)],
      'ours-notls': () => [noTls(ours), timedOverride(base, 'ours', 'virtseed', real, cpuFile, false)],
    };
    const configs = ALL.filter((c) => wanted.includes(c)).map((c) => [c, ...made[c]()] as const);
    const all = configs.map(() => [] as (Split & { walk: number })[]);
    // A first plan of each no-op config writes its code cache (the real provider's was written by the apply).
    for (const [name, w, config] of configs) if (name !== 'go' && name !== 'go-notls') planSplit(w, config, cpuFile, base);
    for (let i = 0; i < runs; i++) {
      configs.forEach(([name, w, config], j) => {
        const s = planSplit(w, config, cpuFile, base);
        const walk = Math.max(...perProcess(cpuFile));
        all[j].push({ ...s, walk });
        console.log(
          `${name}: plugin ${s.pluginMs.toFixed(0)} ms (walk process ${walk.toFixed(0)}), terraform itself ${(s.totalMs - s.pluginMs).toFixed(0)} ms, ` +
            `wall ${s.wallMs.toFixed(0)} ms, load ${s.load.toFixed(1)}`,
        );
      });
    }
    configs.forEach(([name], j) => {
      const m = (pick: (s: Split & { walk: number }) => number) => median(all[j].map(pick));
      console.log(
        `median ${name} (${n}, ${runs} runs): plugin ${m((s) => s.pluginMs).toFixed(0)} ms (${(m((s) => s.pluginMs) / n).toFixed(2)} ms per domain), ` +
          `walk process ${m((s) => s.walk).toFixed(0)} ms, terraform itself ${m((s) => s.totalMs - s.pluginMs).toFixed(0)} ms, wall ${m((s) => s.wallMs).toFixed(0)} ms`,
      );
    });
  } finally {
    tf(ours, ['destroy', '-auto-approve'], [0, 1]);
    tf(floorDomain, ['destroy', '-auto-approve'], [0, 1]);
    rmSync(base, { recursive: true, force: true });
  }
}

if (require.main === module)
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
