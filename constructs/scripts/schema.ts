/**
 * Obtains the virtseed provider's schema the way `cdktf get` does: a throw-away Terraform configuration that
 * requires the provider, `terraform init` (offline, from the filesystem mirror that scripts/install-provider.sh
 * fills), then `terraform providers schema -json` and `terraform version -json` for the selected version.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { repoVersion } from '../../packages/build/repo';

/** Where the provider comes from and which version the bindings are generated for. */
export const PROVIDER_SOURCE = 'virtseed/virtseed';
export const PROVIDER_VERSION: string = repoVersion();
export const PROVIDER_NAME = 'virtseed';
/** The fully qualified provider name as Terraform prints it in schemas. */
export const PROVIDER_FQPN = `registry.terraform.io/${PROVIDER_SOURCE}`;

/** The JSON printed by `terraform providers schema -json` (plus `provider_versions`, as cdktf adds it). */
export interface ProviderSchemaJson {
  format_version: string;
  provider_schemas?: Record<string, unknown>;
  provider_versions?: Record<string, string>;
}

/** The Terraform binary: `TERRAFORM_BINARY_NAME` (as cdktf honours it, e.g. `tofu`), else `terraform`. */
export function terraformBinary(): string {
  return process.env.TERRAFORM_BINARY_NAME || 'terraform';
}

/**
 * Runs Terraform in a temporary directory and returns the provider's schema.
 * @throws Error naming the failed Terraform command and its output (e.g. the provider is not installed: run
 *   scripts/install-provider.sh, or generate from a file with `--schema FILE`).
 */
export function readProviderSchemaFromTerraform(): ProviderSchemaJson {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'virtseed-schema-'));
  try {
    const config = {
      terraform: { required_providers: { [PROVIDER_NAME]: { source: PROVIDER_SOURCE, version: PROVIDER_VERSION } } },
    };
    fs.writeFileSync(path.join(dir, 'main.tf.json'), JSON.stringify(config, null, 2));
    runTerraform(dir, ['init', '-input=false', '-no-color']);
    const schema = JSON.parse(runTerraform(dir, ['providers', 'schema', '-json'])) as ProviderSchemaJson;
    const version = JSON.parse(runTerraform(dir, ['version', '-json'])) as { provider_selections?: Record<string, string> };
    schema.provider_versions = version.provider_selections ?? {};
    return schema;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads a schema JSON file in the format of `terraform providers schema -json`. */
export function readProviderSchemaFromFile(file: string): ProviderSchemaJson {
  const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as ProviderSchemaJson;
  if (!schema.provider_schemas || !(PROVIDER_FQPN in schema.provider_schemas)) {
    throw new Error(
      `schema file ${file} has no provider '${PROVIDER_FQPN}' in provider_schemas; expected the output of ` +
        '`terraform providers schema -json` for a configuration requiring virtseed/virtseed',
    );
  }
  return schema;
}

function runTerraform(cwd: string, args: string[]): string {
  const bin = terraformBinary();
  try {
    return execFileSync(bin, args, {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' },
    });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `\`${bin} ${args.join(' ')}\` failed: ${(err.stderr || err.stdout || err.message).trim()}\n` +
        'Is the provider installed? Run scripts/install-provider.sh, or generate from a schema file with --schema FILE.',
    );
  }
}

/**
 * Paths Terraform searches implicitly for a local provider mirror on Linux, plus `filesystem_mirror` paths named
 * in the CLI config (`TF_CLI_CONFIG_FILE` or ~/.terraformrc).
 */
export function providerMirrorDirs(): string[] {
  const home = os.homedir();
  const dirs = [
    path.join(home, '.terraform.d', 'plugins'),
    path.join(process.env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'terraform', 'plugins'),
    '/usr/local/share/terraform/plugins',
    '/usr/share/terraform/plugins',
  ];
  const cliConfig = process.env.TF_CLI_CONFIG_FILE || path.join(home, '.terraformrc');
  if (fs.existsSync(cliConfig)) {
    const text = fs.readFileSync(cliConfig, 'utf8');
    for (const m of text.matchAll(/filesystem_mirror\s*\{[^}]*?path\s*=\s*"([^"]+)"/g)) dirs.push(m[1]);
  }
  return dirs;
}

/** True when some mirror holds `terraform-provider-virtseed` version {@link PROVIDER_VERSION}. */
export function isProviderInstalled(): boolean {
  return providerMirrorDirs().some((d) => fs.existsSync(path.join(d, PROVIDER_FQPN, PROVIDER_VERSION)));
}
