/**
 * The protocol layer end to end with real Terraform: the test-only `virtseed_test_thing` handler served by
 * test/provider/fixtures/provider-main.ts, installed into a temporary filesystem mirror named by a temporary
 * CLI config, driven through init / plan / apply / update / replace / drift / import / destroy. After init, every
 * command reattaches to one process of it (TF_REATTACH_PROVIDERS, test/helpers/reattach.ts; a tsx start costs
 * seconds of CPU), unless VIRTSEED_TEST_MANAGED_PROVIDER=1.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { managedReason, ProviderProcess } from '../helpers/reattach';
import { stringValue, type TfValues } from '../helpers/terraform';

const ROOT = path.resolve(__dirname, '..', '..');
const TSX_CJS = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cjs', 'index.cjs');
const ENTRY = path.join(ROOT, 'test', 'provider', 'fixtures', 'provider-main.ts');

let tmp: string;
let work: string;
let things: string;
let env: NodeJS.ProcessEnv;
/** The one provider process terraform reattaches to (test/helpers/reattach.ts), unless it runs managed. */
let provider: ProviderProcess | undefined;

function tf(...args: string[]): { code: number; out: string } {
  const r = spawnSync('terraform', args, { cwd: work, env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}
function tfOk(...args: string[]): string {
  const r = tf(...args);
  if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} exited ${r.code}:\n${r.out}`);
  return r.out;
}
function writeConfig(body: string): void {
  fs.writeFileSync(
    path.join(work, 'main.tf'),
    `terraform {\n  required_providers {\n    virtseed = { source = "virtseed/virtseed", version = "0.1.0" }\n  }\n}\nprovider "virtseed" {}\n${body}`,
  );
}
function thingConfig(over: { name?: string; size?: number; sizeGb?: number } = {}): string {
  return `resource "virtseed_test_thing" "a" {
  name   = "${over.name ?? 'alpha'}"
  size   = ${over.size ?? 1.5}
  secret = "hunter2"
  labels = { env = "test" }
  disk {
    label   = "root"
    size_gb = ${over.sizeGb ?? 10}
  }
}
`;
}
/** The values of the one resource in the state (`terraform show -json`). */
function shownValues(): TfValues {
  const shown = JSON.parse(tfOk('show', '-json')) as { values: { root_module: { resources: { values: TfValues }[] } } };
  return shown.values.root_module.resources[0].values;
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-tf-'));
  work = path.join(tmp, 'work');
  things = path.join(tmp, 'things');
  const mirror = path.join(tmp, 'plugins');
  const pluginDir = path.join(mirror, 'registry.terraform.io', 'virtseed', 'virtseed', '0.1.0', 'linux_amd64');
  fs.mkdirSync(pluginDir, { recursive: true });
  fs.mkdirSync(work);
  const exe = path.join(pluginDir, 'terraform-provider-virtseed_v0.1.0');
  fs.writeFileSync(exe, `#!/bin/sh\nexec "${process.execPath}" --require "${TSX_CJS}" "${ENTRY}" "$@"\n`, { mode: 0o755 });
  const cli = path.join(tmp, 'cli.tfrc');
  fs.writeFileSync(
    cli,
    `provider_installation {\n  filesystem_mirror {\n    path    = "${mirror}"\n    include = ["registry.terraform.io/virtseed/*"]\n  }\n  direct {\n    exclude = ["registry.terraform.io/virtseed/*"]\n  }\n}\n`,
  );
  env = {
    ...process.env,
    TF_CLI_CONFIG_FILE: cli,
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    VIRTSEED_TEST_THING_DIR: things,
    NO_COLOR: '1',
  };
  delete env.TF_PLUGIN_CACHE_DIR;
  delete env.TF_LOG;
  writeConfig(thingConfig());
  tfOk('init', '-input=false', '-no-color');
  if (managedReason([fs.readFileSync(path.join(work, 'main.tf'), 'utf8')], {}, undefined) === null) {
    provider = ProviderProcess.start(work, env, exe);
    env = { ...env, TF_REATTACH_PROVIDERS: provider.reattach };
  }
});

afterAll(() => {
  if (tmp) {
    if (fs.existsSync(path.join(work, 'terraform.tfstate'))) tf('destroy', '-auto-approve', '-no-color');
    provider?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

jest.setTimeout(120_000);

describe('terraform with the protocol layer', () => {
  it('GIVEN a new thing WHEN planned THEN the sensitive value is hidden and computed values are unknown', () => {
    const out = tfOk('plan', '-no-color', '-input=false');
    expect(out).toContain('secret   = (sensitive value)');
    expect(out).toContain('id       = (known after apply)');
    expect(out).not.toContain('hunter2');
  });

  it('GIVEN a new thing WHEN applied THEN terraform show has every value, nested block included', () => {
    tfOk('apply', '-auto-approve', '-no-color', '-input=false');
    expect(shownValues()).toEqual({
      id: expect.stringMatching(/^thing-[0-9a-f]{12}$/),
      name: 'alpha',
      size: 1.5,
      secret: 'hunter2',
      labels: { env: 'test' },
      revision: 1,
      disk: [{ label: 'root', size_gb: 10, serial: 'root-0' }],
    });
  });

  it('GIVEN an applied thing and unchanged config WHEN planned THEN there are no changes', () => {
    expect(tf('plan', '-detailed-exitcode', '-no-color', '-input=false').code).toBe(0);
  });

  it('GIVEN a changed size WHEN applied THEN the thing is updated in place', () => {
    const before = shownValues().id;
    writeConfig(thingConfig({ size: 2 }));
    const out = tfOk('apply', '-auto-approve', '-no-color', '-input=false');
    expect(out).toContain('1 changed');
    expect(shownValues()).toMatchObject({ id: before, size: 2, revision: 2 });
  });

  it('GIVEN a changed name WHEN planned THEN a replacement is planned because of the name', () => {
    writeConfig(thingConfig({ name: 'beta', size: 2 }));
    const out = tfOk('plan', '-no-color', '-input=false');
    expect(out).toContain('must be replaced');
    expect(out).toMatch(/name\s+= "alpha" -> "beta" # forces replacement/);
  });

  it('GIVEN a changed name WHEN applied THEN the new thing has a new id', () => {
    const before = shownValues().id;
    tfOk('apply', '-auto-approve', '-no-color', '-input=false');
    expect(shownValues()).toMatchObject({ name: 'beta', revision: 1 });
    expect(shownValues().id).not.toBe(before);
  });

  it('GIVEN a negative nested disk size WHEN planned THEN the handler diagnostic points at that attribute', () => {
    writeConfig(thingConfig({ name: 'beta', size: 2, sizeGb: -1 }));
    const r = tf('plan', '-no-color', '-input=false');
    writeConfig(thingConfig({ name: 'beta', size: 2 }));
    expect(r.code).toBe(1);
    expect(r.out).toContain('Negative disk size');
    expect(r.out).toMatch(/size_gb = -1/); // Terraform quotes the config line the attribute path resolved to
  });

  it('GIVEN the backing file deleted outside terraform WHEN planned THEN the thing is planned for creation', () => {
    fs.rmSync(path.join(things, `${shownValues().id}.json`));
    const out = tfOk('plan', '-no-color', '-input=false');
    expect(out).toContain('1 to add');
    tfOk('apply', '-auto-approve', '-no-color', '-input=false');
  });

  it('GIVEN a thing removed from state WHEN imported THEN a plan shows no changes', () => {
    const id = stringValue(shownValues(), 'id');
    tfOk('state', 'rm', 'virtseed_test_thing.a');
    tfOk('import', '-no-color', '-input=false', 'virtseed_test_thing.a', id);
    expect(tf('plan', '-detailed-exitcode', '-no-color', '-input=false').code).toBe(0);
  });

  it('GIVEN an applied thing WHEN destroyed THEN its backing file is gone', () => {
    tfOk('destroy', '-auto-approve', '-no-color', '-input=false');
    expect(fs.readdirSync(things)).toEqual([]);
  });
});

describe('the provider started by hand', () => {
  it('GIVEN no magic cookie WHEN started THEN it explains itself on stderr, prints nothing on stdout and exits 1', () => {
    const r = spawnSync(process.execPath, ['--require', TSX_CJS, ENTRY], {
      env: { PATH: process.env.PATH, VIRTSEED_TEST_THING_DIR: os.tmpdir() },
      encoding: 'utf8',
    });
    expect({ code: r.status, stdout: r.stdout }).toEqual({ code: 1, stdout: '' });
    expect(r.stderr).toContain('plugin for Terraform');
  });
});
