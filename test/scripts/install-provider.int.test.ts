/**
 * scripts/install-provider.sh into a temporary HOME (VIRTSEED_SKIP_BUILD=1: needs a built dist/ with
 * dist/provider-artifact, as scripts/test-all.sh makes before the tests), then terraform init + schema through the
 * installed executable.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { unzipSync } from 'fflate';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'install-provider.sh');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const EXE = `terraform-provider-virtseed_v${VERSION}`;
const EXE_REL = `.terraform.d/plugins/registry.terraform.io/virtseed/virtseed/${VERSION}/linux_amd64/${EXE}`;
const ZIP = path.join(ROOT, 'dist', 'provider-artifact', `terraform-provider-virtseed_${VERSION}_linux_amd64.zip`);

jest.setTimeout(60_000);

let home: string;
let env: NodeJS.ProcessEnv;
const install = () => spawnSync('bash', [SCRIPT], { env, encoding: 'utf8' });

beforeAll(() => {
  if (!fs.existsSync(ZIP)) throw new Error(`${ZIP} is missing: run \`npm run build\` before this test`);
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-home-'));
  env = { ...process.env, HOME: home, TF_CLI_CONFIG_FILE: path.join(home, 'cli.tfrc'), VIRTSEED_SKIP_BUILD: '1', CHECKPOINT_DISABLE: '1' };
  delete env.TF_PLUGIN_CACHE_DIR;
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe('install-provider.sh', () => {
  it('GIVEN a fresh HOME WHEN installed THEN the mirror holds the executable and bundle of the artifact zip, byte for byte, naming no checkout', () => {
    const r = install();
    expect({ status: r.status, stderr: r.stderr }).toMatchObject({ status: 0 });
    const exe = path.join(home, EXE_REL);
    expect(fs.statSync(exe).mode & 0o777).toBe(0o755);
    const installed = fs.readFileSync(exe);
    expect(Buffer.compare(installed, Buffer.from(unzipSync(new Uint8Array(fs.readFileSync(ZIP)))[EXE]!))).toBe(0);
    expect(installed.toString('utf8', 0, 20)).toBe('#!/usr/bin/env node\n');
    expect(installed.includes(ROOT)).toBe(false);
    const bundle = path.join(path.dirname(exe), 'virtseed-provider.bundle.js');
    expect(fs.statSync(bundle).mode & 0o777).toBe(0o644);
    expect(
      Buffer.compare(fs.readFileSync(bundle), Buffer.from(unzipSync(new Uint8Array(fs.readFileSync(ZIP)))['virtseed-provider.bundle.js']!)),
    ).toBe(0);
    expect(fs.readFileSync(bundle).includes(ROOT)).toBe(false);
  });

  it('GIVEN TF_CLI_CONFIG_FILE did not exist WHEN installed THEN it takes virtseed from the mirror only', () => {
    const cfg = fs.readFileSync(env.TF_CLI_CONFIG_FILE!, 'utf8');
    expect(cfg).toContain(`path    = "${home}/.terraform.d/plugins"`);
    expect(cfg).toMatch(/direct \{\s*exclude = \["registry.terraform.io\/virtseed\/\*"\]/);
  });

  it('GIVEN an existing own CLI config WHEN installed again THEN it is left alone, a hint printed, the wrapper unchanged', () => {
    const exe = path.join(home, EXE_REL);
    const before = fs.readFileSync(exe, 'utf8');
    const cfg = env.TF_CLI_CONFIG_FILE!;
    const saved = fs.readFileSync(cfg, 'utf8');
    fs.writeFileSync(cfg, 'plugin_cache_dir = "/nowhere"\n');
    const r = install();
    const after = fs.readFileSync(cfg, 'utf8');
    fs.writeFileSync(cfg, saved);
    expect(r.status).toBe(0);
    expect(after).toBe('plugin_cache_dir = "/nowhere"\n');
    expect(r.stderr).toContain('left alone');
    expect(fs.readFileSync(exe, 'utf8')).toBe(before);
  });

  it('GIVEN the installed provider WHEN terraform inits offline and reads the schema THEN the provider block has uri', () => {
    const work = path.join(home, 'work');
    fs.mkdirSync(work);
    fs.writeFileSync(
      path.join(work, 'main.tf'),
      `terraform {\n  required_providers {\n    virtseed = { source = "virtseed/virtseed", version = "${VERSION}" }\n  }\n}\nprovider "virtseed" {}\n`,
    );
    const init = spawnSync('terraform', ['init', '-input=false', '-no-color'], { cwd: work, env, encoding: 'utf8' });
    expect({ status: init.status, out: init.stdout + init.stderr }).toMatchObject({ status: 0 });
    const schema = spawnSync('terraform', ['providers', 'schema', '-json'], { cwd: work, env, encoding: 'utf8' });
    const parsed = JSON.parse(schema.stdout);
    expect(parsed.provider_schemas['registry.terraform.io/virtseed/virtseed'].provider.block.attributes.uri).toMatchObject({
      type: 'string',
      optional: true,
    });
  });
});
