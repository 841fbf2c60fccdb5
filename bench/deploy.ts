/**
 * The main job against a hand boot: `npm run deploy:basic`'s deploy (`cdktf deploy basic`: synth, terraform,
 * the installed provider, libvirtd) from its start to cloud-init's "finished" line on the guest's serial console,
 * beside the same image and seed booted by hand: the deployed domain's own XML (src/domain parse/render) with a
 * fresh qcow2 overlay on the same image and a copy of the same seed ISO, on a transient copy of the example's
 * isolated network (`virsh net-create` of its XML), started with `virsh create`, from that
 * command to the same line. One guest at a time; rounds alternate (deploy, hand, deploy, hand, …), medians.
 * Goal: ours ≤ 1.1× the hand boot. Rounds: VIRTSEED_BENCH_DEPLOY_ROUNDS (default 1; each round boots two guests).
 * Leaves nothing deployed.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseDomainXml, renderDomainXml, type DomainSpec } from '../src/domain';
import { run, virsh } from './private/command';
import { formatGoalTable, GoalRow, median } from './private/rows';

const ROOT = path.join(__dirname, '..', '..');
const DOMAIN = 'virtseed-basic';
const HAND = 'virtseed-bench-hand';
const FINISHED = /Cloud-init v\. \S+ finished at/;
const TIMEOUT_MS = 900_000;

/** Runs a command in the checkout; its stdout. */
const sh = (cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string => run(cmd, args, { cwd: ROOT, env }).stdout;
const consoleLogOf = (name: string) => `/var/log/libvirt/qemu/${name}-console.log`;
const elapsedMs = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

/** Milliseconds from `t0` until `log` shows cloud-init's finished line (polled every 100 ms). */
async function finishedAfter(log: string, t0: bigint): Promise<number> {
  for (;;) {
    let text = '';
    try {
      text = fs.readFileSync(log, 'latin1');
    } catch {
      // not created yet
    }
    if (FINISHED.test(text)) return elapsedMs(t0);
    if (elapsedMs(t0) > TIMEOUT_MS)
      throw new Error(
        `no cloud-init finished line in ${log} after ${TIMEOUT_MS / 1000} s; last lines:\n${text.split('\n').slice(-20).join('\n')}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The example's environment (scripts/example-env.sh: the test image unless VIRTSEED_IMAGE is set). */
function exampleEnv(): NodeJS.ProcessEnv {
  const out = sh('bash', ['-c', '. scripts/example-env.sh >&2 && env -0']);
  return Object.fromEntries(
    out
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

function destroyBasic(env: NodeJS.ProcessEnv): void {
  sh('npx', ['cdktf', 'destroy', 'basic', '--auto-approve', '--skip-provider-lock'], env);
}

/** What a hand boot of the deployed guest needs: its domain spec, a copy of its seed, its network's XML. */
interface Deployed {
  readonly ms: number;
  readonly spec: DomainSpec;
  readonly seed: string;
  readonly networkXml: string;
}

/** One timed `cdktf deploy basic`; returns the time and what a hand boot needs. */
async function deployOnce(env: NodeJS.ProcessEnv, work: string): Promise<Deployed> {
  fs.rmSync(consoleLogOf(DOMAIN), { force: true });
  const t0 = process.hrtime.bigint();
  const child = spawn('npx', ['cdktf', 'deploy', 'basic', '--auto-approve', '--skip-provider-lock'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const ms = await Promise.race([
    finishedAfter(consoleLogOf(DOMAIN), t0),
    exited.then(async (code) => {
      if (code !== 0) throw new Error(`cdktf deploy basic exited ${code}:\n${out}`);
      return finishedAfter(consoleLogOf(DOMAIN), t0);
    }),
  ]);
  if ((await exited) !== 0) throw new Error(`cdktf deploy basic failed:\n${out}`);
  const spec = parseDomainXml(virsh(['dumpxml', '--inactive', DOMAIN]));
  const cdrom = spec.disks.find((d) => d.device === 'cdrom');
  if (!cdrom) throw new Error(`${DOMAIN} has no seed cdrom`);
  const src = cdrom.source;
  const seedPath = 'file' in src ? src.file : virsh(['vol-path', '--pool', src.pool, src.volume]).trim();
  const seed = path.join(work, 'seed.iso');
  fs.copyFileSync(seedPath, seed);
  fs.chmodSync(seed, 0o644);
  const networkXml = path.join(work, 'network.xml');
  fs.writeFileSync(networkXml, virsh(['net-dumpxml', DOMAIN]));
  destroyBasic(env);
  return { ms, spec, seed, networkXml };
}

/** One timed hand boot: `virsh create` of the deployed spec renamed, on a fresh overlay of `image`, the copied seed
 *  and a transient copy of the network. */
async function handBootOnce({ spec, seed, networkXml }: Deployed, image: string, work: string): Promise<number> {
  const root = path.join(work, 'root.qcow2');
  fs.rmSync(root, { force: true });
  const format = (JSON.parse(sh('qemu-img', ['info', '--output=json', image])) as { format: string }).format;
  sh('qemu-img', ['create', '-q', '-f', 'qcow2', '-F', format, '-b', image, root]);
  const hand: DomainSpec = {
    ...spec,
    name: HAND,
    uuid: undefined,
    serialLogFile: consoleLogOf(HAND),
    disks: spec.disks.map((d) => ({ ...d, source: { file: d.device === 'cdrom' ? seed : root } })),
  };
  const xml = path.join(work, 'hand.xml');
  fs.writeFileSync(xml, renderDomainXml(hand));
  fs.rmSync(consoleLogOf(HAND), { force: true });
  const t0 = process.hrtime.bigint(); // by hand, the network is started too
  virsh(['net-create', networkXml]);
  try {
    virsh(['create', xml]);
    try {
      return await finishedAfter(consoleLogOf(HAND), t0);
    } finally {
      virsh(['destroy', HAND], [0, 1]);
      fs.rmSync(consoleLogOf(HAND), { force: true });
    }
  } finally {
    virsh(['net-destroy', DOMAIN], [0, 1]);
  }
}

export async function runDeployBench(log: (line: string) => void = console.log): Promise<GoalRow[]> {
  const rounds = Number(process.env.VIRTSEED_BENCH_DEPLOY_ROUNDS ?? '1');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'virtseed-bench-deploy-'));
  fs.chmodSync(work, 0o755); // QEMU (libvirt-qemu) opens the hand boot's disks here
  // The provider of this checkout, in a mirror of the bench's own (never ~/.terraform.d).
  const env: NodeJS.ProcessEnv = { ...exampleEnv(), TF_CLI_CONFIG_FILE: path.join(work, 'terraformrc') };
  sh('bash', ['scripts/install-provider.sh'], { ...env, VIRTSEED_SKIP_BUILD: '1', VIRTSEED_MIRROR: path.join(work, 'plugins') });
  const image = env.VIRTSEED_IMAGE;
  if (!image) throw new Error('scripts/example-env.sh gave no VIRTSEED_IMAGE');
  const ours: number[] = [];
  const anchor: number[] = [];
  try {
    // The lock file of an earlier run pins an earlier build of the provider; the bench runs the checkout's own.
    fs.rmSync(path.join(ROOT, 'cdktf.out', 'stacks', 'basic', '.terraform.lock.hcl'), { force: true });
    destroyBasic(env); // whatever an earlier deploy:basic left
    for (let i = 0; i < rounds; i++) {
      const deployed = await deployOnce(env, work);
      ours.push(deployed.ms / 1000);
      anchor.push((await handBootOnce(deployed, image, work)) / 1000);
      log(`  round ${i + 1}/${rounds}: deploy ${ours[i].toFixed(1)} s, hand boot ${anchor[i].toFixed(1)} s`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const rows: GoalRow[] = [
    {
      name: 'deploy:basic, deploy start → cloud-init finished',
      unit: 's',
      ours: median(ours),
      anchorName: 'same image + seed, virsh create',
      anchor: median(anchor),
      goal: 1.1,
    },
  ];
  for (const line of formatGoalTable(rows)) log(line);
  return rows;
}
