/**
 * Write-only secrets never stored (issue 32): a real terraform (1.11) with a cloud-init seed and an Ignition
 * config whose secrets come from ephemeral variables into `_wo` attributes, each canary in the shape a user writes
 * it (inside cloud-config YAML, a MIME part, a `write_files` file, vendor-data, network-config, an Ignition file).
 * After plan (saved), apply of the saved plan, plan, -refresh-only, a changed canary and destroy, no canary occurs
 * in terraform.tfstate, the saved plan file (unzipped) or its `show -json`, `terraform show -json`, TF_LOG=trace
 * (which carries the provider's log), or terraform's output; the same with the state in PostgreSQL (`pg` backend).
 * A changed canary plans the seed's update with both instance-ids and no value; the plan after it is empty; a seed
 * volume changed outside Terraform is seen by a refresh (its bytes against the keyed digest).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TfWorkdir, type TfPlanJson } from '../helpers/terraform';
import { cleanupByPrefix } from '../helpers/guest';
import { dropSchema, ensurePostgres, psql, type PgDatabase } from '../helpers/postgres';

jest.setTimeout(600_000);

const PREFIX = 'vstest-wo-';
const BIN = path.resolve(__dirname, '..', '..', 'bin', 'virtseed');
const CANARIES = {
  passwordHash: 'CanaryWoHashQ8r7s6T5u4',
  plainPassword: 'CanaryWoPlain-3e9d',
  fileContent: 'CanaryWoFile-71ab',
  mimePart: 'CanaryWoPart-c0de',
  vendorData: 'CanaryWoVendor-5a5a',
  networkConfig: 'CanaryWoNet-9f00',
  ignition: 'CanaryWoIgnition-44e1',
};
const CHANGED_FILE = 'CanaryWoFileChanged-0c1d';

/** The ephemeral variables' values, as the environment gives them (TF_VAR_*): nothing of them is in main.tf. */
function secretEnv(file: string = CANARIES.fileContent): NodeJS.ProcessEnv {
  return {
    TF_VAR_cloud_config: [
      '#cloud-config',
      'users:',
      '  - name: ops',
      `    passwd: "$6$salt$${CANARIES.passwordHash}"`,
      'chpasswd:',
      '  expire: false',
      `  users: [{ name: root, password: ${CANARIES.plainPassword}, type: text }]`,
      '',
    ].join('\n'),
    TF_VAR_part: `#!/bin/sh\necho ${CANARIES.mimePart}\n`,
    TF_VAR_file: `token=${file}\n`,
    TF_VAR_vendor: `#cloud-config\nruncmd: [echo ${CANARIES.vendorData}]\n`,
    TF_VAR_network: `# ${CANARIES.networkConfig}\nversion: 2\nethernets:\n  eth0:\n    dhcp4: true\n`,
    TF_VAR_ignition: JSON.stringify({
      ignition: { version: '3.4.0' },
      storage: { files: [{ path: '/etc/secret', mode: 420, contents: { source: `data:,${CANARIES.ignition}` } }] },
    }),
  };
}

const HCL = (name: string) => `
variable "cloud_config" {
  type      = string
  ephemeral = true
}
variable "part" {
  type      = string
  ephemeral = true
}
variable "file" {
  type      = string
  ephemeral = true
}
variable "vendor" {
  type      = string
  ephemeral = true
}
variable "network" {
  type      = string
  ephemeral = true
}
variable "ignition" {
  type      = string
  ephemeral = true
}
resource "virtseed_cloudinit_seed" "s" {
  pool              = "default"
  name              = "${PREFIX}${name}-seed.iso"
  hostname          = "wo"
  user_data_wo      = var.cloud_config
  vendor_data_wo    = var.vendor
  network_config_wo = var.network
  file {
    path        = "/etc/app.conf"
    permissions = "0600"
    content_wo  = var.file
  }
  user_data_part {
    content_type = "text/x-shellscript"
    filename     = "part.sh"
    content_wo   = var.part
  }
}
resource "virtseed_ignition" "i" {
  pool       = "default"
  name       = "${PREFIX}${name}-cfg.ign"
  content_wo = var.ignition
}
output "instance_id" {
  value = virtseed_cloudinit_seed.s.instance_id
}
`;

/** Every canary (and the changed one) found in `text`, by name. */
function hits(text: string): string[] {
  return Object.entries({ ...CANARIES, changedFile: CHANGED_FILE })
    .filter(([, c]) => text.includes(c))
    .map(([n]) => n);
}

/** The text of every entry of a saved plan file (a zip), through `unzip -p`. */
function unzipped(file: string): string {
  const r = spawnSync('unzip', ['-p', file], { encoding: 'latin1', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`unzip -p ${file} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** A terraform work dir whose runs carry the secrets in the environment and log at trace level into `traces`. */
class SecretRuns {
  readonly tf: TfWorkdir;
  readonly seen: { where: string; text: string }[] = [];
  private n = 0;
  file: string = CANARIES.fileContent;

  constructor(
    label: string,
    private readonly extraEnv: NodeJS.ProcessEnv = {},
  ) {
    this.tf = new TfWorkdir(label, extraEnv);
  }

  /** Runs terraform with TF_LOG=trace; records its log and output; throws with them unless the exit code is allowed. */
  run(args: string[], allowed: readonly number[] = [0]): { code: number; out: string } {
    const log = path.join(this.tf.dir, `trace-${this.n++}.log`);
    const env = {
      ...process.env,
      ...this.extraEnv,
      ...secretEnv(this.file),
      CHECKPOINT_DISABLE: '1',
      NO_COLOR: '1',
      TF_LOG: 'trace',
      TF_LOG_PATH: log,
    };
    const r = spawnSync('terraform', [...args, '-no-color'], { cwd: this.tf.dir, env, encoding: 'utf8', timeout: 600_000 });
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    this.seen.push({ where: `terraform ${args.join(' ')} (output)`, text: out });
    this.seen.push({ where: `terraform ${args.join(' ')} (TF_LOG=trace)`, text: fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '' });
    if (!allowed.includes(r.status ?? -1)) throw new Error(`terraform ${args.join(' ')} exited ${r.status}:\n${out}`);
    return { code: r.status ?? -1, out };
  }

  /** Records a file of the work dir (or its absence). */
  record(name: string, text?: string): void {
    const file = path.join(this.tf.dir, name);
    this.seen.push({ where: name, text: text ?? (fs.existsSync(file) ? fs.readFileSync(file, 'latin1') : '') });
  }

  /** `terraform show -json [file]`, recorded. */
  showJson(file?: string): string {
    const out = this.run(['show', '-json', ...(file ? [file] : [])]).out;
    return out;
  }

  /** Where any canary occurs: `where: names`, one line each. */
  leaks(): string[] {
    return this.seen.flatMap(({ where, text }) => (hits(text).length ? [`${where}: ${hits(text).join(', ')}`] : []));
  }
}

/** A volume of pool `default`, through `virsh vol-download` (what the guest gets). */
function download(vol: string, dir: string): string {
  const file = path.join(dir, `${vol}.download`);
  const r = spawnSync('virsh', ['-c', 'qemu:///system', 'vol-download', '--pool', 'default', vol, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh vol-download ${vol} exited ${r.status}: ${r.stdout}${r.stderr}`);
  const text = fs.readFileSync(file, 'latin1');
  fs.rmSync(file);
  return text;
}

describe('write-only secrets (local state)', () => {
  let runs: SecretRuns;
  let firstPlan: TfPlanJson;
  let changePlan: TfPlanJson;
  let emptyAfterApply: number;
  let emptyAfterChange: number;
  let refreshOnly: string;
  let driftPlan: { code: number; out: string };
  let summaryText = '';
  const ids: { first?: string; changed?: string } = {};
  const onHost: { seed?: string; ignition?: string } = {};

  beforeAll(() => {
    cleanupByPrefix(PREFIX);
    runs = new SecretRuns('wo');
    runs.tf.write(HCL('local'));
    runs.tf.init();
    runs.run(['plan', '-input=false', '-out=first.tfplan']);
    runs.record('first.tfplan (unzipped)', unzipped(path.join(runs.tf.dir, 'first.tfplan')));
    firstPlan = JSON.parse(runs.showJson('first.tfplan')) as TfPlanJson;
    runs.run(['apply', '-input=false', 'first.tfplan']);
    runs.record('terraform.tfstate');
    runs.showJson();
    ids.first = runs.run(['output', '-raw', 'instance_id']).out.trim();
    onHost.seed = download(`${PREFIX}local-seed.iso`, runs.tf.dir);
    onHost.ignition = download(`${PREFIX}local-cfg.ign`, runs.tf.dir);
    emptyAfterApply = runs.run(['plan', '-detailed-exitcode', '-input=false'], [0, 2]).code;
    refreshOnly = runs.run(['plan', '-refresh-only', '-detailed-exitcode', '-input=false'], [0, 2]).out;
    runs.run(['apply', '-refresh-only', '-auto-approve', '-input=false']);
    runs.record('terraform.tfstate');
    // One canary changes: the plan says the seed changes and its instance-id with it, without the value.
    runs.file = CHANGED_FILE;
    runs.run(['plan', '-input=false', '-out=change.tfplan']);
    runs.record('change.tfplan (unzipped)', unzipped(path.join(runs.tf.dir, 'change.tfplan')));
    const changeJson = runs.showJson('change.tfplan');
    changePlan = JSON.parse(changeJson) as TfPlanJson;
    fs.writeFileSync(path.join(runs.tf.dir, 'change.json'), changeJson);
    const summary = spawnSync(BIN, ['plan-summary', path.join(runs.tf.dir, 'change.json')], { encoding: 'utf8' });
    if (summary.status !== 0) throw new Error(`virtseed plan-summary exited ${summary.status}: ${summary.stdout}${summary.stderr}`);
    summaryText = summary.stdout;
    runs.record('virtseed plan-summary', summaryText);
    runs.run(['apply', '-input=false', 'change.tfplan']);
    runs.record('terraform.tfstate');
    ids.changed = runs.run(['output', '-raw', 'instance_id']).out.trim();
    emptyAfterChange = runs.run(['plan', '-detailed-exitcode', '-input=false'], [0, 2]).code;
    // The seed volume changed outside Terraform: a refresh sees it by the keyed digest, the plan rewrites it.
    const vol = `${PREFIX}local-seed.iso`;
    const junk = path.join(runs.tf.dir, 'junk.iso');
    fs.writeFileSync(junk, Buffer.alloc(4096, 0x5a));
    const up = spawnSync('virsh', ['-c', 'qemu:///system', 'vol-upload', '--pool', 'default', vol, junk], { encoding: 'utf8' });
    if (up.status !== 0) throw new Error(`virsh vol-upload ${vol} exited ${up.status}: ${up.stdout}${up.stderr}`);
    driftPlan = runs.run(['plan', '-detailed-exitcode', '-input=false'], [0, 2]);
    runs.run(['apply', '-auto-approve', '-input=false']);
    runs.run(['destroy', '-auto-approve', '-input=false']);
    runs.record('terraform.tfstate');
    runs.record('terraform.tfstate.backup');
  });

  afterAll(() => {
    if (runs) {
      runs.run(['destroy', '-auto-approve', '-input=false'], [0, 1]);
      runs.tf.dispose();
    }
    cleanupByPrefix(PREFIX);
  });

  it('GIVEN the runs WHEN their trace logs are read THEN they carry the provider log and the secrets reached the provider', () => {
    const traces = runs.seen
      .filter((s) => s.where.includes('TF_LOG'))
      .map((s) => s.text)
      .join('\n');
    expect(traces).toContain('ApplyResourceChange');
    expect(traces).toMatch(/write-only inputs/);
  });

  it('GIVEN the first apply WHEN the volumes are read back from the host THEN they carry every canary (what the guest gets)', () => {
    const { ignition, ...seedCanaries } = CANARIES;
    expect(hits(onHost.seed ?? '').sort()).toEqual(Object.keys(seedCanaries).sort());
    expect(onHost.ignition).toContain(ignition);
  });

  it('GIVEN canaries in write-only attributes WHEN every artifact is read THEN no canary occurs in any', () => {
    expect(runs.seen.length).toBeGreaterThan(20);
    expect(runs.leaks()).toEqual([]);
  });

  it('GIVEN the first apply WHEN planning again and refreshing THEN nothing changes', () => {
    expect(emptyAfterApply).toBe(0);
    expect(refreshOnly).toMatch(/No changes/);
  });

  it('GIVEN the first plan WHEN it is read THEN the write-only attributes are null and the keyed values unknown', () => {
    const seed = firstPlan.resource_changes?.find((c) => c.address === 'virtseed_cloudinit_seed.s');
    const after = (seed?.change as { after?: Record<string, unknown> } | undefined)?.after ?? {};
    expect(after.user_data_wo ?? null).toBeNull();
    expect(after.sha256 ?? null).toBeNull();
  });

  it('GIVEN a changed canary WHEN planned THEN the seed updates with both instance-ids and the next plan is empty', () => {
    const seed = changePlan.resource_changes?.find((c) => c.address === 'virtseed_cloudinit_seed.s');
    expect(seed?.change.actions).toEqual(['update']);
    const change = seed?.change as { before?: Record<string, unknown>; after?: Record<string, unknown> };
    expect(change.before?.instance_id).toBe(ids.first);
    expect(change.after?.instance_id).toBe(ids.changed);
    expect(ids.changed).toMatch(/^iid-[0-9a-f]{16}$/);
    expect(ids.changed).not.toBe(ids.first);
    expect(summaryText).toMatch(/`keyed_digest` \| \*\(secret\)\* \| \*\*secret changed\*\*/);
    expect(summaryText).not.toMatch(/hmac-sha256:/);
    const ign = changePlan.resource_changes?.find((c) => c.address === 'virtseed_ignition.i');
    expect(ign?.change.actions).toEqual(['no-op']);
    expect(emptyAfterChange).toBe(0);
  });

  it('GIVEN the seed volume overwritten outside Terraform WHEN planning THEN the plan rewrites it', () => {
    expect(driftPlan.code).toBe(2);
    expect(driftPlan.out).toMatch(/virtseed_cloudinit_seed\.s will be updated in-place/);
  });
});

describe('write-only secrets (pg backend)', () => {
  let runs: SecretRuns;
  let db: PgDatabase;
  const schema = `vstest_wo_${process.pid}`;
  let rows: string;

  beforeAll(() => {
    cleanupByPrefix(`${PREFIX}pg-`);
    db = ensurePostgres('vstest_wo');
    dropSchema(db, schema);
    runs = new SecretRuns('wo-pg', { PGPASSFILE: db.passFile });
    runs.tf.write(HCL('pg'));
    fs.writeFileSync(
      path.join(runs.tf.dir, 'backend.tf'),
      `terraform {\n  backend "pg" {\n    conn_str    = "${db.connStr}"\n    schema_name = "${schema}"\n  }\n}\n`,
    );
    runs.tf.init();
    runs.run(['apply', '-auto-approve', '-input=false']);
    rows = psql(db, `SELECT data FROM "${schema}".states`);
    runs.record('pg states', rows);
    runs.run(['plan', '-detailed-exitcode', '-input=false']);
  });

  afterAll(() => {
    if (runs) {
      runs.run(['destroy', '-auto-approve', '-input=false'], [0, 1]);
      runs.tf.dispose();
    }
    if (db) dropSchema(db, schema);
    cleanupByPrefix(`${PREFIX}pg-`);
  });

  it('GIVEN the state in PostgreSQL WHEN its rows are read THEN they hold the resources and no canary', () => {
    expect(rows).toContain('virtseed_cloudinit_seed');
    expect(rows).toContain('hmac-sha256:');
    expect(runs.leaks()).toEqual([]);
  });
});
