/**
 * The Go plugin-provider floor (bench/anchors/go-floor): the smallest tfplugin6 provider served by HashiCorp's
 * go-plugin, built from Debian's packages by bench/anchors/build-go-floor.sh. The benches time it beside ours as
 * the floor any plugin provider pays on this machine (terraform_data starts no plugin at all). The same provider
 * offers a second resource type, `floor_domain`, when its environment has FLOOR_DOMAIN_SCHEMA naming a JSON schema
 * file (one resource of `terraform providers schema -json`): the terraform bench writes virtseed_domain's there, so
 * floor_domain is an echo resource with exactly our schema, the floor a Go plugin pays in Terraform for it.
 */
import { join } from 'node:path';
import { terraformPlatform } from '../../cli/commands/provider-artifact';
import { run } from './command';

const ROOT = join(__dirname, '..', '..', '..');

/** Provider source address and version of the floor, as the build script lays it out. */
export const GO_FLOOR_SOURCE = 'virtseed/floor';
export const GO_FLOOR_VERSION = '0.1.0';

export type GoFloor =
  { readonly built: true; readonly mirror: string; readonly executable: string } | { readonly built: false; readonly reason: string };

/**
 * Builds the floor into the filesystem mirror `mirror` (registry.terraform.io/virtseed/floor/0.1.0/<os>_<arch>/),
 * installing Go and the Go packages from Debian when missing. Never throws: when the build cannot work here
 * (no apt, no Go, a compile error), returns `built: false` with the script's output as the reason.
 */
export function buildGoFloor(mirror: string): GoFloor {
  const platform = terraformPlatform();
  if (platform === undefined) return { built: false, reason: `no Terraform platform for ${process.platform}/${process.arch}` };
  try {
    run('bash', [join(ROOT, 'bench', 'anchors', 'build-go-floor.sh'), mirror]);
  } catch (err) {
    return { built: false, reason: (err as Error).message.trim() };
  }
  const executable = join(
    mirror,
    'registry.terraform.io',
    GO_FLOOR_SOURCE,
    GO_FLOOR_VERSION,
    platform,
    `terraform-provider-floor_v${GO_FLOOR_VERSION}`,
  );
  return { built: true, mirror, executable };
}
