/**
 * A fleet over several hosts: `terraform plan` of 100 VMs placed over 3 libvirt hosts (100 chained
 * `virtseed_placement`s, each domain on its placement's host) beside 100 VMs on one host (100 domains with a fixed
 * `host`, no placement), against three libvirtd daemons on this machine reached over TLS (test/helpers/hosts.ts:
 * one network and mount namespace each). VMs are defined, never started (no guest boots). Two figures per config:
 * the plan of the new fleet (every placement decided, every host read once) and the plan after it was applied
 * (refresh of every object, nothing to change). Real terraform and the real provider, installed into a bench folder.
 * Printed for information (no goal): what placement costs a plan at this size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestHosts } from '../test/helpers/hosts';
import { terraformEnv, tf, workdir, type Workdir } from './private/terraform-workdir';
import { alternate, formatGoalTable, GoalRow } from './private/rows';

const PREFIX = 'vsbench-fleet-';

/** The provider block of the hosts, as Terraform JSON (room for 100 one-vCPU VMs per host: the default vCPU
 *  budget, 4 per CPU, would fill a 2-CPU host at 8). */
function provider(hosts: TestHosts): object {
  return { virtseed: { host: hosts.hosts.map((h) => ({ name: h.name, uri: h.uri, max_vcpu: 128 })) } };
}

/** `n` defined VMs, each placed (chained after the one before) and its domain on the placement's host. */
function placedConfig(hosts: TestHosts, n: number): object {
  const placements: Record<string, object> = {};
  const domains: Record<string, object> = {};
  for (let i = 0; i < n; i++) {
    const name = `${PREFIX}p${i}`;
    placements[`p${i}`] = { name, memory: 64, ...(i ? { depends_on: [`virtseed_placement.p${i - 1}`] } : {}) };
    domains[`p${i}`] = { name, host: `\${virtseed_placement.p${i}.host}`, memory: 64, type: 'qemu', running: false };
  }
  return { ...required(), provider: provider(hosts), resource: { virtseed_placement: placements, virtseed_domain: domains } };
}

/** `n` defined VMs on one host. */
function oneHostConfig(hosts: TestHosts, n: number): object {
  return {
    ...required(),
    provider: provider(hosts),
    resource: {
      virtseed_domain: { d: { count: n, name: `${PREFIX}h\${count.index}`, host: 'h1', memory: 64, type: 'qemu', running: false } },
    },
  };
}

function required(): object {
  return { terraform: { required_providers: { virtseed: { source: 'virtseed/virtseed', version: '0.1.0' } } } };
}

export interface FleetBenchOptions {
  /** VMs per config. @default 100 */
  readonly vms?: number;
  /** Timed plans per config. @default 3 */
  readonly plans?: number;
  readonly log?: (line: string) => void;
}

export async function runFleetBench(options: FleetBenchOptions = {}): Promise<GoalRow[]> {
  const log = options.log ?? console.log;
  const n = options.vms ?? 100;
  const runs = options.plans ?? 3;
  const base = mkdtempSync(join(tmpdir(), 'virtseed-bench-fleet-'));
  const env = terraformEnv(base);
  const hosts = new TestHosts({ label: 'bnch', count: 3, subnet: '10.251.25', prefix: PREFIX });
  const rows: GoalRow[] = [];
  try {
    await hosts.setup();
    const placed = workdir(base, 'placed', placedConfig(hosts, n), env);
    const oneHost = workdir(base, 'one-host', oneHostConfig(hosts, n), env);
    const plan = (w: Workdir) => () => tf(w, ['plan', '-lock=false', '-detailed-exitcode'], [0, 2]).ms;
    const [createPlaced, createOne] = await alternate(runs, [plan(placed), plan(oneHost)]);
    tf(placed, ['apply', '-auto-approve']);
    tf(oneHost, ['apply', '-auto-approve']);
    const perHost = hosts.hosts.map((h) => hosts.domains(h.index).filter((d) => d.startsWith(`${PREFIX}p`)).length);
    log(`  placed ${n} VMs: ${perHost.map((c, i) => `h${i + 1} ${c}`).join(', ')} (spread)`);
    const [refreshPlaced, refreshOne] = await alternate(runs, [plan(placed), plan(oneHost)]);
    rows.push({
      name: `plan (create), ${n} VMs placed over 3 hosts`,
      unit: 'ms',
      ours: createPlaced,
      anchorName: `${n} VMs on 1 host`,
      anchor: createOne,
    });
    rows.push({
      name: `plan (refresh, no change), ${n} VMs over 3 hosts`,
      unit: 'ms',
      ours: refreshPlaced,
      anchorName: `${n} VMs on 1 host`,
      anchor: refreshOne,
    });
    tf(placed, ['destroy', '-auto-approve']);
    tf(oneHost, ['destroy', '-auto-approve']);
  } finally {
    await hosts.teardown();
    rmSync(base, { recursive: true, force: true });
  }
  log(`fleet plan (median of ${runs} alternating runs; defined VMs; 3 libvirtd over TLS in namespaces; real terraform + provider)`);
  for (const line of formatGoalTable(rows)) log(line);
  return rows;
}
