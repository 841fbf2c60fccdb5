/**
 * Terraform working folders for the benches that plan real configurations (fleet.ts, terraform.ts): this
 * checkout's provider installed into a mirror of the bench's own, a CLI config pointing at it, `terraform init`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, type RunResult } from './command';

const ROOT = join(__dirname, '..', '..', '..');

/** A folder `terraform init` ran in, and the environment its commands run with. */
export interface Workdir {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The environment of Terraform runs under `base` (CLI config `base/terraformrc`, no plugin cache, no checkpoint or
 * TF_LOG), with this checkout's built provider installed into the mirror `base/plugins` (scripts/install-provider.sh).
 * @throws Error with the script's output when the install fails.
 */
export function terraformEnv(base: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TF_CLI_CONFIG_FILE: join(base, 'terraformrc'),
    TF_PLUGIN_CACHE_DIR: '',
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
  };
  delete env.TF_LOG;
  run('bash', [join(ROOT, 'scripts', 'install-provider.sh')], {
    env: { ...env, VIRTSEED_SKIP_BUILD: '1', VIRTSEED_MIRROR: join(base, 'plugins') },
  });
  return env;
}

/** `base/name` holding `config` as main.tf.json (Terraform JSON), initialised. */
export function workdir(base: string, name: string, config: object, env: NodeJS.ProcessEnv): Workdir {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'main.tf.json'), JSON.stringify(config, null, 1));
  run('terraform', ['init', '-input=false', '-no-color'], { cwd: dir, env });
  return { dir, env };
}

/** `terraform ARGS -input=false -no-color` in `w`; exit statuses in `allow` (default 0) count as success. */
export function tf(w: Workdir, args: string[], allow?: number[]): RunResult {
  return run('terraform', [...args, '-input=false', '-no-color'], { cwd: w.dir, env: w.env, allow });
}
