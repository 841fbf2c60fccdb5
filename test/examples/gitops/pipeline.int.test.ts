/**
 * Issue 24 items 1 and 2, end to end: examples/gitops/pipeline.sh run as a CI system runs it (a process, its
 * environment, its exit status), on the GitOps example (state in PostgreSQL through Terraform's pg backend, made
 * by scripts/ensure-postgres.sh as docs/guides/ci.md's setup lines run it: read from the guide), against libvirtd. Each run is a "commit": a fleet file of its own and a fresh
 * output folder, as a CI job's workspace. The guests are defined, not started (nothing here needs one to boot).
 *
 *   1. an empty state: deploy creates the fleet; the state is a row in PostgreSQL; the drift check finds nothing
 *   2. a commit that would destroy the guest (renamed) with PIPELINE_FAIL_ON=replace stops at the summary (exit 3);
 *      a commit that re-provisions the guest (new cloud-init content) and changes its memory: the summary names the
 *      re-provision with both instance-ids and memory 128 → 192, and exactly that plan is applied
 *   3. memory changed with `virsh setmem --config` and the seed volume deleted: the drift run exits 2 with a report
 *   4. two deploys at once (the first held while it holds the state lock): a second with PIPELINE_LOCK_TIMEOUT=0s
 *      fails with Terraform's lock message (exit 4, nothing applied); a third with a timeout (started beside the
 *      second) waits, and plans after the first's apply; no state is lost
 * The drift run of step 3 and the two later runs of step 4 plan a commit synthesized before: they are given its synth
 * output (PIPELINE_SYNTH_DIR: the deploy of step 2's, the first deploy of step 4's), as a CI system hands a build
 * job's artifact to later jobs, and run no cdktf CLI (each start of it costs about 7 CPU seconds); the other four
 * runs synthesize; a PIPELINE_SYNTH_DIR that is no synth output is a usage error (exit 64). No run prints the
 * database password. The fleet brings its own storage pool (`<prefix>pool`): no pool `default` is needed. The plan
 * summary of step 2 and the drift report of step 3 are the samples docs/guides/ci.md shows: a test compares them
 * (names, instance-ids and hashes normalised; `VIRTSEED_WRITE_SAMPLES=1` writes this run's output into the guide
 * instead).
 *
 * The cdktf project the pipeline runs in (PIPELINE_APP_DIR) is a folder of the test's own whose cdktf.json is the
 * repository's with the app command `node dist/examples/gitops/main.js`: the example as the test command's build
 * (`npm run build`) compiled it, as a CI job builds once and synthesizes from the JavaScript, instead of `npx tsx`
 * compiling the TypeScript again at each run's synth; `CDKTF` names the project's cdktf CLI (the real
 * one, as `npx --no-install cdktf` finds it) without npx's lookup.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanupByPrefix, virshRun } from '../../helpers/guest';
import { cleanupNetworksByPrefix, testSubnetOctet } from '../../helpers/network';
import { cleanupPoolsByPrefix, poolVolumes } from '../../helpers/pool';
import { docCommands } from '../../helpers/doc-paths';
import { dropSchema, pgPassword, psql, type PgDatabase } from '../../helpers/postgres';
import { SharedProvider } from '../../helpers/reattach';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PIPELINE = path.join(ROOT, 'examples', 'gitops', 'pipeline.sh');
const PREFIX = 'vstest-gitops-pl-';
/** This checkout's own state schema (the role and database are shared with other checkouts' runs of this file). */
const SCHEMA = `vstest_gitops_${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`;
const OCTET = testSubnetOctet(`${PREFIX}net`);
const POOL = `${PREFIX}pool`;
const GUIDE = path.join(ROOT, 'docs', 'guides', 'ci.md');
/** The example's own prefix (examples/gitops/fleet.json), which the guide's samples show. */
const EXAMPLE_PREFIX = 'gitops-';
/** The example's cdktf app as `npm run build` compiled it. */
const APP_JS = path.join(ROOT, 'dist', 'examples', 'gitops', 'main.js');

jest.setTimeout(900_000);

interface FleetVersion {
  readonly memoryMiB: number;
  readonly message: string;
  /** The VM's name in the fleet. @default 'web' */
  readonly name?: string;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly out: string;
}

let db: PgDatabase;
let password: string;
let tmp: string;
let runs = 0;
let lastStackDir: string | undefined;
/**
 * The provider process the pipeline runs of this file reattach terraform to, one after the other
 * (test/helpers/reattach.ts; started at the first run), and the test's own terraform runs (the last plan, the
 * destroy). Each run started in the background beside another (startPipeline) gets a process of its own, stopped
 * when the run ends: two walks at once never share a process. No run here starts the provider the managed way:
 * what is under test is the pipeline's steps, exit statuses, reports and the state lock, which terraform holds
 * whichever way the provider was started (the managed start through cdktf is examples/basic's).
 */
const provider = new SharedProvider(() => tmp);

function describeRun(r: Run): string {
  return `pipeline exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

/**
 * A commit's workspace: its fleet file and the pipeline's output folder; returns the pipeline's environment, which
 * reattaches terraform to the provider process `reattach`.
 */
function workspace(v: FleetVersion, extra: NodeJS.ProcessEnv = {}, reattach = provider): { env: NodeJS.ProcessEnv; out: string } {
  const dir = path.join(tmp, `run-${++runs}`);
  fs.mkdirSync(dir);
  const fleet = {
    prefix: PREFIX,
    network: { address: `10.213.${OCTET}.1/24` },
    vms: [{ name: v.name ?? 'web', memoryMiB: v.memoryMiB, message: v.message, running: false }],
  };
  fs.writeFileSync(path.join(dir, 'fleet.json'), JSON.stringify(fleet));
  const out = path.join(dir, 'out');
  lastStackDir = path.join(out, 'synth', 'stacks', 'gitops');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PIPELINE_APP_DIR: path.join(tmp, 'app'),
    PIPELINE_OUT_DIR: out,
    CDKTF: path.join(ROOT, 'node_modules', '.bin', 'cdktf'),
    VIRTSEED: path.join(ROOT, 'bin', 'virtseed'),
    VIRTSEED_IMAGE: path.join(tmp, 'base.qcow2'),
    GITOPS_FLEET: path.join(dir, 'fleet.json'),
    PG_CONN_STR: db.connStr,
    PGPASSFILE: db.passFile,
    PG_SCHEMA_NAME: SCHEMA,
    ...reattach.env(),
    ...extra,
  };
  return { env, out };
}

/** Runs the pipeline to its end. */
function pipeline(mode: string, v: FleetVersion, extra: NodeJS.ProcessEnv = {}): Run {
  const { env, out } = workspace(v, extra);
  const r = spawnSync('bash', [PIPELINE, mode], { env, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 << 20 });
  const run = { code: r.status, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}${r.error ? r.error.message : ''}`, out };
  expect(`${run.stdout}${run.stderr}`).not.toContain(password);
  return run;
}

/** A pipeline run in the background (its own process group, so the test can end it by id). */
interface Background {
  readonly child: ChildProcess;
  readonly out: string;
  stdout: string;
  stderr: string;
  readonly done: Promise<Run>;
}

function startPipeline(mode: string, v: FleetVersion, extra: NodeJS.ProcessEnv = {}): Background {
  const own = new SharedProvider(() => tmp);
  const { env, out } = workspace(v, extra, own);
  const child = spawn('bash', [PIPELINE, mode], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const bg: Background = {
    child,
    out,
    stdout: '',
    stderr: '',
    done: new Promise<Run>((resolve) => {
      child.on('close', (code) => {
        const gone = own.deathReport();
        own.stop();
        resolve({ code, stdout: bg.stdout, stderr: bg.stderr + gone, out });
      });
    }),
  };
  child.stdout!.on('data', (d: Buffer) => (bg.stdout += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (bg.stderr += d.toString('utf8')));
  return bg;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Processes below `root` (from /proc), with their argument lists. */
function descendants(root: number): { pid: number; argv: string[] }[] {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const out: { pid: number; argv: string[] }[] = [];
  for (const [pid] of parent) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p !== root) continue;
      try {
        out.push({ pid, argv: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean) });
      } catch {
        // ended
      }
      break;
    }
  }
  return out;
}

/** Granted advisory locks in the state database (Terraform's pg backend locks with pg_try_advisory_lock). */
function advisoryLocks(): number {
  return Number(
    psql(
      db,
      "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    ),
  );
}

/**
 * Stops (SIGSTOP) the `terraform apply` of the run `bg` at a moment it holds the state lock: stop, look at
 * pg_locks, let it go on when it does not hold the lock yet, and try again. Returns the stopped pid.
 */
async function holdApplyWithLock(bg: Background): Promise<number> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const apply = descendants(bg.child.pid!).find((p) => path.basename(p.argv[0] ?? '') === 'terraform' && p.argv.includes('apply'));
    if (apply) {
      process.kill(apply.pid, 'SIGSTOP');
      if (advisoryLocks() > 0) return apply.pid;
      process.kill(apply.pid, 'SIGCONT');
    }
    if (bg.child.exitCode !== null) throw new Error(`the first run ended before its apply could be held:\n${bg.stderr}`);
    await sleep(20);
  }
  throw new Error(`no terraform apply holding the state lock within 300 s:\n${bg.stderr}`);
}

function domainMemoryMiB(): number {
  const xml = virshRun('dumpxml', '--inactive', `${PREFIX}web`);
  const kib = /<currentMemory unit='KiB'>(\d+)<\/currentMemory>/.exec(xml)?.[1];
  if (!kib) throw new Error(`no currentMemory in the definition of ${PREFIX}web:\n${xml}`);
  return Number(kib) / 1024;
}

/**
 * A summary with what differs between runs and checkouts made alike: this test's name prefix as the example's,
 * instance-ids, full and shortened digests, the subnet's octet.
 */
function normalise(markdown: string): string {
  return markdown
    .split(PREFIX)
    .join(EXAMPLE_PREFIX)
    .replace(/iid-[0-9a-f]{16}/g, 'iid-…')
    .replace(/\b[0-9a-f]{64}\b/g, 'SHA256')
    .replace(/10\.213\.\d+\./g, '10.213.N.')
    .trimEnd();
}

/** The ```markdown block after `<!-- sample: NAME -->` in docs/guides/ci.md. */
const SAMPLE = (name: string) => new RegExp(`(<!-- sample: ${name} -->\\n\`\`\`markdown\\n)([\\s\\S]*?)(\\n\`\`\`)`);

/**
 * Compares the guide's sample `name` with this run's `stdout` (normalised); with VIRTSEED_WRITE_SAMPLES=1 writes
 * the run's output (this test's prefix shown as the example's) into the guide instead.
 */
function expectGuideSample(name: string, stdout: string): void {
  const guide = fs.readFileSync(GUIDE, 'utf8');
  const m = SAMPLE(name).exec(guide);
  if (!m) throw new Error(`docs/guides/ci.md has no \`<!-- sample: ${name} -->\` line before a \`\`\`markdown block`);
  const shown = stdout.split(PREFIX).join(EXAMPLE_PREFIX).trimEnd();
  if (process.env.VIRTSEED_WRITE_SAMPLES === '1') {
    fs.writeFileSync(
      GUIDE,
      guide.replace(SAMPLE(name), (_all, open: string, _old: string, close: string) => `${open}${shown}${close}`),
    );
    return;
  }
  expect(normalise(m[2]!)).toBe(normalise(stdout));
}

function volumeNames(): string[] {
  return poolVolumes(POOL)
    .filter((v) => v.startsWith(PREFIX))
    .sort();
}

function stateRows(): string[] {
  return psql(db, `SELECT name FROM "${SCHEMA}".states ORDER BY name`).split('\n').filter(Boolean);
}

/**
 * Checks that run `r` took the synth output `from` (PIPELINE_SYNTH_DIR) instead of running the cdktf CLI: its log
 * says so, and its own synth folder holds the same stack.
 */
function expectSynthTaken(r: Run, from: string): void {
  expect(r.stderr).toContain(`pipeline: synth: none, the synth output of ${from} (PIPELINE_SYNTH_DIR)`);
  expect(r.stderr).not.toMatch(/pipeline: synth: .*cdktf/);
  const stack = (dir: string) => fs.readFileSync(path.join(dir, 'stacks', 'gitops', 'cdk.tf.json'), 'utf8');
  expect(stack(path.join(r.out, 'synth'))).toBe(stack(from));
}

const V1: FleetVersion = { memoryMiB: 128, message: 'one' };
const V2: FleetVersion = { memoryMiB: 192, message: 'two' };
const V3: FleetVersion = { memoryMiB: 160, message: 'two' };

/**
 * docs/guides/ci.md's setup of a fresh CI machine, its lines as the guide writes them (read from the Markdown, run
 * by bash from the checkout's root as a CI job's script would): libvirtd and PostgreSQL started when they are not,
 * and the `eval` leaves PG_CONN_STR and PGPASSFILE in the environment, which the pipeline runs then get.
 */
function ciSetup(): PgDatabase {
  const lines = docCommands(fs.readFileSync(GUIDE, 'utf8'), 'ci-setup', 'docs/guides/ci.md');
  const script = ['set -euo pipefail', ...lines, `printf '%s\\n' "$PG_CONN_STR" "$PGPASSFILE"`].join('\n');
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  const [connStr, passFile] = (r.stdout ?? '').trim().split('\n').slice(-2);
  if (r.status !== 0 || !connStr?.startsWith('postgres://') || !passFile)
    throw new Error(`docs/guides/ci.md's setup lines (${lines.join('; ')}) exited ${r.status ?? r.signal}:\n${r.stdout}${r.stderr}`);
  return { connStr, passFile };
}

beforeAll(() => {
  db = ciSetup();
  password = pgPassword(db);
  dropSchema(db, SCHEMA);
  cleanupByPrefix(PREFIX);
  cleanupPoolsByPrefix(PREFIX);
  cleanupNetworksByPrefix(PREFIX);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-gitops-pl-'));
  const made = spawnSync('qemu-img', ['create', '-q', '-f', 'qcow2', path.join(tmp, 'base.qcow2'), '64M'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`qemu-img create exited ${made.status}: ${made.stderr}`);
  if (!fs.existsSync(APP_JS)) throw new Error(`no ${APP_JS}: run \`npm run build\` first`);
  const cdktfJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdktf.json'), 'utf8')) as Record<string, unknown>;
  fs.mkdirSync(path.join(tmp, 'app'));
  fs.writeFileSync(path.join(tmp, 'app', 'cdktf.json'), JSON.stringify({ ...cdktfJson, app: `node ${APP_JS}` }, null, 2));
});

afterAll(() => {
  try {
    if (lastStackDir && fs.existsSync(path.join(lastStackDir, '.terraform'))) {
      const r = spawnSync(
        'terraform',
        [`-chdir=${lastStackDir}`, 'destroy', '-auto-approve', '-input=false', '-no-color', '-lock-timeout=120s'],
        {
          encoding: 'utf8',
          env: { ...process.env, PGPASSFILE: db.passFile, ...provider.env() },
          timeout: 600_000,
        },
      );
      if (r.status !== 0) console.warn(`terraform destroy exited ${r.status}:\n${r.stdout}${r.stderr}`);
    }
  } finally {
    provider.stop();
    cleanupByPrefix(PREFIX);
    cleanupPoolsByPrefix(PREFIX);
    cleanupNetworksByPrefix(PREFIX);
    if (db) dropSchema(db, SCHEMA);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
});

describe('examples/gitops/pipeline.sh against libvirtd and PostgreSQL', () => {
  let firstInstanceId: string;

  test('GIVEN an empty state WHEN the pipeline deploys THEN it creates the fleet, keeps the state in PostgreSQL and finds no drift', () => {
    const r = pipeline('deploy', V1);
    expect({ code: r.code }).toEqual({ code: 0 });
    expect(r.stdout).toContain('### Plan summary');
    expect(r.stdout).toContain('**6 to create**');
    expect(fs.readFileSync(path.join(r.out, 'plan-summary.md'), 'utf8')).toBe(r.stdout);
    expect(r.stderr).toContain('pipeline: drift check: none');
    expect(stateRows()).toEqual(['default']);
    expect(domainMemoryMiB()).toBe(128);
    expect(fs.existsSync(path.join(r.out, 'tfplan'))).toBe(false);
    firstInstanceId = /web_instance_id = "(iid-[0-9a-f]{16})"/.exec(r.stderr)?.[1] ?? '';
    expect(firstInstanceId).toMatch(/^iid-/);
  });

  test('GIVEN a commit that would destroy a guest (web renamed www) WHEN PIPELINE_FAIL_ON=replace THEN the run stops after the summary with exit 3 and applies nothing', () => {
    const r = pipeline('deploy', { ...V2, name: 'www' }, { PIPELINE_FAIL_ON: 'replace' });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/\| `virtseed_domain\.web_\w+` \| delete \| \*\*delete\*\* \|/);
    expect(r.stderr).toContain('plan refused by PIPELINE_FAIL_ON=replace; nothing applied (exit 3)');
    expect(r.stderr).not.toContain('pipeline: apply:');
    expect(domainMemoryMiB()).toBe(128);
  });

  /** The synth output of the commit V2's deploy, which the drift run takes. */
  let v2Synth: string;

  test('GIVEN a commit with new cloud-init content and memory WHEN deployed THEN the summary names the re-provision with both instance-ids and the memory change, and the saved plan is applied', () => {
    const r = pipeline('deploy', V2);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/pipeline: synth: .*cdktf synth --output/);
    v2Synth = path.join(r.out, 'synth');
    const row = r.stdout.split('\n').find((l) => l.startsWith('| `virtseed_domain.web_'));
    // The guest is shut off: the provider plans no restart for it (change_impact none), and the summary says so.
    expect(row).toMatch(new RegExp(`\\| update \\| none \\| reboot: \`${firstInstanceId}\` → \`iid-[0-9a-f]{16}\` \\|`));
    expect(r.stdout).toMatch(/\| `memory` \| `128` \| `192` \| none \(nothing happens to the guest now\) \|/);
    expect(r.stderr).toMatch(/pipeline: apply: terraform .* apply .*\/tfplan/);
    expect(domainMemoryMiB()).toBe(192);
    expectGuideSample('plan summary', r.stdout);
  });

  test("GIVEN memory changed with virsh setmem --config and the seed volume deleted WHEN the drift check runs on the deployed commit's synth output THEN it exits 2 with a report of both", () => {
    virshRun('setmem', `${PREFIX}web`, '100M', '--config');
    virshRun('vol-delete', `${PREFIX}web-seed`, '--pool', POOL);
    const r = pipeline('drift', V2, { PIPELINE_SYNTH_DIR: v2Synth });
    expect(r.code).toBe(2);
    expectSynthTaken(r, v2Synth);
    expect(r.stdout).toContain('### Drift report');
    expect(r.stdout).toContain('#### Changed outside Terraform');
    expect(r.stdout).toMatch(/\| `virtseed_domain\.web_\w+` \| changed \| `memory` \| `192` \| `100` \|/);
    expect(r.stdout).toMatch(/\| `virtseed_cloudinit_seed\.web_Seed_\w+` \| deleted \| \| \| \|/);
    // The domain still names the same seed volume: its reference is not drift (the same key as in the state).
    expect(r.stdout).not.toMatch(/\| changed \| `cloudinit_seed_id` \|/);
    expect(fs.readFileSync(path.join(r.out, 'drift-report.md'), 'utf8')).toBe(r.stdout);
    expect(r.stderr).toContain('drift check: the infrastructure differs from the configuration');
    expectGuideSample('drift report', r.stdout);
  });

  test('GIVEN PIPELINE_SYNTH_DIR naming a folder that is no synth output WHEN the pipeline runs THEN it exits 64 naming the variable, before any step', () => {
    const r = pipeline('plan', V2, { PIPELINE_SYNTH_DIR: tmp });
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 64,
      stderr: expect.stringContaining(`PIPELINE_SYNTH_DIR='${tmp}': expected the output folder of cdktf synth`),
    });
    expect(r.stderr).not.toMatch(/pipeline: (synth|init):/);
  });

  describe('two deploys at once', () => {
    let first: Background;
    let heldPid: number;
    /** The deploy that may wait, started beside the one that may not (its init overlaps that run). */
    let second: Background;

    /** The first deploy's synth output, which the other two take (the same commit). */
    let synth: string;

    beforeAll(async () => {
      first = startPipeline('deploy', V3);
      heldPid = await holdApplyWithLock(first);
      synth = path.join(first.out, 'synth');
      second = startPipeline('deploy', V3, { PIPELINE_LOCK_TIMEOUT: '10m', PIPELINE_SYNTH_DIR: synth });
    });

    afterAll(() => {
      for (const bg of [first, second]) {
        if (bg?.child.exitCode === null && bg.child.pid) process.kill(-bg.child.pid, 'SIGKILL');
      }
    });

    test('GIVEN a deploy holding the state lock WHEN a second may not wait (PIPELINE_LOCK_TIMEOUT=0s) THEN it fails with the lock message, exit 4, and applies nothing', () => {
      const r = pipeline('deploy', V3, { PIPELINE_LOCK_TIMEOUT: '0s', PIPELINE_SYNTH_DIR: synth });
      expect(r.code).toBe(4);
      expectSynthTaken(r, synth);
      expect(r.stderr).toContain('Error acquiring the state lock');
      expect(r.stderr).toContain('another run holds the state lock');
      expect(r.stderr).not.toContain('pipeline: apply:');
    });

    test('GIVEN a deploy holding the state lock WHEN another may wait THEN it waits, plans after the first applied, and no state is lost', async () => {
      try {
        const deadline = Date.now() + 300_000;
        while (!/pipeline: plan:[\s\S]*Acquiring state lock/.test(second.stderr) && second.child.exitCode === null && Date.now() < deadline)
          await sleep(200);
        await sleep(3000);
        expect({ waiting: second.child.exitCode === null, stderr: second.stderr }).toEqual({
          waiting: true,
          stderr: expect.stringContaining('Acquiring state lock'),
        });
      } finally {
        process.kill(heldPid, 'SIGCONT');
      }
      const [a, b] = await Promise.all([first.done, second.done]);
      expect({ code: a.code, out: describeRun(a) }).toEqual({ code: 0, out: expect.any(String) });
      expect({ code: b.code, out: describeRun(b) }).toEqual({ code: 0, out: expect.any(String) });
      for (const r of [a, b]) expect(`${r.stdout}${r.stderr}`).not.toContain(password);
      expect(a.stderr).toMatch(/pipeline: synth: .*cdktf synth --output/);
      expectSynthTaken(b, synth);
      expect(b.stdout).toContain('**No changes.**'); // planned from the state the first run left
      expect(stateRows()).toEqual(['default']);
      expect(domainMemoryMiB()).toBe(160);
      expect(volumeNames()).toEqual([`${PREFIX}base`, `${PREFIX}web-root`, `${PREFIX}web-seed`]);
      const plan = spawnSync(
        'terraform',
        [
          `-chdir=${path.join(b.out, 'synth', 'stacks', 'gitops')}`,
          'plan',
          '-detailed-exitcode',
          '-input=false',
          '-no-color',
          '-lock-timeout=60s',
        ],
        {
          encoding: 'utf8',
          env: { ...process.env, PGPASSFILE: db.passFile, ...provider.env() },
        },
      );
      expect({ code: plan.status, out: `${plan.stdout}${plan.stderr}` }).toEqual({ code: 0, out: expect.stringContaining('No changes.') });
    });
  });
});
