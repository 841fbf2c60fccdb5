/**
 * Write-only secrets never stored (issue 32): a real terraform (1.11) with a cloud-init seed, an Ignition config,
 * a volume downloaded from a URL with credentials and a domain with a display password, whose secrets come from
 * ephemeral variables into `_wo` attributes, each canary in the shape a user writes it (inside cloud-config YAML, a
 * MIME part, a `write_files` file, vendor-data, network-config, an Ignition file, a URL's `user:password@`, a VNC
 * password). After plan (saved), apply of the saved plan, plan, -refresh-only, a changed canary, import and destroy,
 * no canary occurs in terraform.tfstate, the saved plan file (unzipped) or its `show -json`, `terraform show
 * -json`, terraform's TF_LOG=trace, the provider's log at trace level, terraform's output or `virtseed
 * plan-summary`; the same with the state in PostgreSQL (`pg` backend). A changed canary plans the seed's update with
 * both instance-ids and the display's password change, with no value; the plan after it is empty; a seed volume
 * changed outside Terraform is seen by a refresh (its bytes against the keyed digest). Where the secrets must
 * arrive, they do: the volumes carry the seed and Ignition canaries, the image came through the server only with the
 * credentials (test/helpers/file-server.ts), and libvirt holds the display password (`virsh dumpxml
 * --security-info`). Terraform reattaches to one provider process per work dir (SecretRuns); the managed start of
 * the provider is covered by the other provider tests.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TfWorkdir, type TfPlanJson } from '../helpers/terraform';
import { cleanupByPrefix } from '../helpers/guest';
import { dropSchema, ensurePostgres, psql, type PgDatabase } from '../helpers/postgres';
import { serveFiles, type FileServer } from '../helpers/file-server';

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
const IMAGE_USER = 'alice';
/** The canaries outside the seed and Ignition volumes: the image URL's password (and the basic-auth token it
 *  makes), the display password (VNC: at most 8 characters) and the one it changes to. */
const OTHER_CANARIES = {
  urlPassword: 'CanaryWoUrl-8d2f',
  urlToken: Buffer.from(`${IMAGE_USER}:CanaryWoUrl-8d2f`).toString('base64'),
  vncPassword: 'Cv8n2Qx7',
  changedVnc: 'Qz4m9Kw1',
};

/** The ephemeral variables' values, as the environment gives them (TF_VAR_*): nothing of them is in main.tf. */
function secretEnv(file: string = CANARIES.fileContent, vnc: string = OTHER_CANARIES.vncPassword): NodeJS.ProcessEnv {
  return {
    TF_VAR_image_password: OTHER_CANARIES.urlPassword,
    TF_VAR_vnc_password: vnc,
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

/** The image server (basic auth) every describe downloads from. */
let server: FileServer;
let imageSha = '';
const serverRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-wo-images-'));

beforeAll(async () => {
  const image = path.join(serverRoot, 'image.qcow2');
  execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', image, '16M']);
  imageSha = createHash('sha256').update(fs.readFileSync(image)).digest('hex');
  server = await serveFiles(serverRoot, undefined, { user: IMAGE_USER, password: OTHER_CANARIES.urlPassword });
});

afterAll(() => {
  server?.stop();
  fs.rmSync(serverRoot, { recursive: true, force: true });
});

const HCL = (name: string) => `
variable "image_password" {
  type      = string
  ephemeral = true
}
variable "vnc_password" {
  type      = string
  ephemeral = true
}
resource "virtseed_volume" "img" {
  pool      = "default"
  name      = "${PREFIX}${name}-img.qcow2"
  source_wo = "http://${IMAGE_USER}:\${var.image_password}@127.0.0.1:${server.port}/image.qcow2"
}
resource "virtseed_domain" "d" {
  name    = "${PREFIX}${name}-dom"
  memory  = 128
  running = false
  graphics {
    type        = "vnc"
    password_wo = var.vnc_password
  }
}
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
  return Object.entries({ ...CANARIES, changedFile: CHANGED_FILE, ...OTHER_CANARIES })
    .filter(([, c]) => text.includes(c))
    .map(([n]) => n);
}

/** The text of every entry of a saved plan file (a zip), through `unzip -p`. */
function unzipped(file: string): string {
  const r = spawnSync('unzip', ['-p', file], { encoding: 'latin1', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`unzip -p ${file} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/**
 * A terraform work dir whose runs carry the secrets in the environment and log at trace level: terraform's log
 * (TF_LOG=trace, TF_LOG_PATH) and the provider's. The commands reattach to the work dir's one provider process
 * (test/helpers/reattach.ts), started with TF_LOG=trace: its log is its stderr, read after each command, where
 * terraform would have relayed the log of each provider it started into its own.
 */
class SecretRuns {
  readonly tf: TfWorkdir;
  readonly seen: { where: string; text: string }[] = [];
  private n = 0;
  /** How much of the provider process's log is recorded already. */
  private providerLogRead = 0;
  file: string = CANARIES.fileContent;
  vnc: string = OTHER_CANARIES.vncPassword;

  constructor(label: string, extraEnv: NodeJS.ProcessEnv = {}) {
    this.tf = new TfWorkdir(label, extraEnv, { providerEnv: { TF_LOG: 'trace' } });
  }

  /** Runs terraform with TF_LOG=trace; records its log and output and the provider's log; throws with them unless
   *  the exit code is allowed. */
  run(args: string[], allowed: readonly number[] = [0]): { code: number; out: string } {
    const log = path.join(this.tf.dir, `trace-${this.n++}.log`);
    const env = { ...this.tf.envFor(args), ...secretEnv(this.file, this.vnc), TF_LOG: 'trace', TF_LOG_PATH: log };
    const r = spawnSync('terraform', [...args, '-no-color'], { cwd: this.tf.dir, env, encoding: 'utf8', timeout: 600_000 });
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    this.seen.push({ where: `terraform ${args.join(' ')} (output)`, text: out });
    this.seen.push({ where: `terraform ${args.join(' ')} (TF_LOG=trace)`, text: fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '' });
    this.recordProviderLog(`terraform ${args.join(' ')}`);
    if (!allowed.includes(r.status ?? -1)) throw new Error(`terraform ${args.join(' ')} exited ${r.status}:\n${out}`);
    return { code: r.status ?? -1, out };
  }

  /** Records what the provider process logged since the last record (after `what`); with `stop`, stops it first
   *  (all it logged until its exit). */
  recordProviderLog(what: string, stop = false): void {
    const text = stop ? this.tf.stopProvider() : this.tf.providerLog();
    if (text.length < this.providerLogRead) this.providerLogRead = 0; // another process: the last one died
    this.seen.push({ where: `${what} (the provider's log, TF_LOG=trace)`, text: text.slice(this.providerLogRead) });
    this.providerLogRead = stop ? 0 : text.length;
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

/** The display password libvirt holds for domain `name` (`virsh dumpxml --security-info`: VIR_DOMAIN_XML_SECURE). */
function libvirtPassword(name: string): string | undefined {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', 'dumpxml', '--security-info', name], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh dumpxml --security-info ${name} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return /<graphics type='vnc'[^>]*passwd='([^']*)'/.exec(r.stdout)?.[1];
}

/** sha256 (hex) of a volume of pool `default`, through `virsh vol-download`. */
function volumeSha(vol: string, dir: string): string {
  const file = path.join(dir, `${vol}.sha.download`);
  const r = spawnSync('virsh', ['-c', 'qemu:///system', 'vol-download', '--pool', 'default', vol, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh vol-download ${vol} exited ${r.status}: ${r.stdout}${r.stderr}`);
  const sha = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  fs.rmSync(file);
  return sha;
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
  const onHost: { seed?: string; ignition?: string; imageSha?: string; vnc?: string; changedVnc?: string } = {};
  let imageGets: { auth: boolean }[] = [];
  let importPlan: { code: number; out: string };
  let emptyAfterImport: number;

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
    onHost.imageSha = volumeSha(`${PREFIX}local-img.qcow2`, runs.tf.dir);
    onHost.vnc = libvirtPassword(`${PREFIX}local-dom`);
    imageGets = server.requests().filter((r) => r.method === 'GET' && r.url === '/image.qcow2');
    emptyAfterApply = runs.run(['plan', '-detailed-exitcode', '-input=false'], [0, 2]).code;
    refreshOnly = runs.run(['plan', '-refresh-only', '-detailed-exitcode', '-input=false'], [0, 2]).out;
    runs.run(['apply', '-refresh-only', '-auto-approve', '-input=false']);
    runs.record('terraform.tfstate');
    // Two canaries change: the plan says the seed changes and its instance-id with it, and the display's password
    // changes, without the values.
    runs.file = CHANGED_FILE;
    runs.vnc = OTHER_CANARIES.changedVnc;
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
    onHost.changedVnc = libvirtPassword(`${PREFIX}local-dom`);
    emptyAfterChange = runs.run(['plan', '-detailed-exitcode', '-input=false'], [0, 2]).code;
    // Import: the volume and the domain forgotten and imported again; the write-only values are not read back,
    // so the first apply after the import gives them once (the domain's password, the volume's keyed digest).
    runs.run(['state', 'rm', 'virtseed_volume.img', 'virtseed_domain.d']);
    runs.run(['import', '-input=false', 'virtseed_volume.img', `default/${PREFIX}local-img.qcow2`]);
    runs.run(['import', '-input=false', 'virtseed_domain.d', `${PREFIX}local-dom`]);
    runs.record('terraform.tfstate');
    importPlan = runs.run(['plan', '-detailed-exitcode', '-input=false'], [0, 2]);
    runs.run(['apply', '-auto-approve', '-input=false']);
    runs.record('terraform.tfstate');
    emptyAfterImport = runs.run(['plan', '-detailed-exitcode', '-input=false'], [0, 2]).code;
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
    runs.recordProviderLog('the provider process stopped', true);
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

  it('GIVEN source_wo with credentials WHEN applied THEN the image came through the server only with them, byte for byte', () => {
    expect(imageGets.length).toBeGreaterThan(0);
    expect(imageGets.every((r) => r.auth)).toBe(true);
    expect(onHost.imageSha).toBe(imageSha);
  });

  it('GIVEN password_wo WHEN applied and changed THEN libvirt holds each password in turn (VIR_DOMAIN_XML_SECURE)', () => {
    expect(onHost.vnc).toBe(OTHER_CANARIES.vncPassword);
    expect(onHost.changedVnc).toBe(OTHER_CANARIES.changedVnc);
  });

  it('GIVEN the volume and the domain imported WHEN planned and applied THEN the apply gives the secrets once and the next plan is empty', () => {
    expect(importPlan.out).not.toMatch(/must be replaced/);
    expect(emptyAfterImport).toBe(0);
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
    const img = changePlan.resource_changes?.find((c) => c.address === 'virtseed_volume.img');
    expect(img?.change.actions).toEqual(['no-op']);
    const dom = changePlan.resource_changes?.find((c) => c.address === 'virtseed_domain.d');
    expect(dom?.change.actions).toEqual(['update']);
    expect(summaryText).toMatch(/`graphics\[0\]\.password_keyed_digest` \| \*\(secret\)\* \| \*\*secret changed\*\*/);
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
    runs.recordProviderLog('the provider process stopped', true);
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
    expect(rows).toContain('virtseed_volume');
    expect(rows).toContain('virtseed_domain');
    expect(rows).toContain('hmac-sha256:');
    expect(runs.leaks()).toEqual([]);
  });
});
