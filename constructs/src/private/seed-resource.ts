import { Fn, Token } from 'cdktf';
import type { SeedSpec } from '../../../src/seed';
import type * as virtseed from '../../generated/virtseed';
import { stableJson } from './json';
import { containsTokens } from './tokens';

/** The `virtseed_cloudinit_seed` attributes for a spec (all but `pool` and `name`). */
export type SeedContentConfig = Omit<virtseed.cloudinitSeed.CloudinitSeedConfig, 'pool' | 'name'>;

/** A JSON attribute: sorted plain JSON, or `jsonencode(...)` evaluated by Terraform when the value holds tokens. */
function jsonAttribute(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return containsTokens(value) ? Token.asString(Fn.jsonencode(value)) : stableJson(value);
}

/** Maps a `SeedSpec` (src/seed) to the resource's attributes, 1:1 as CONTRACTS.md lists them. */
export function seedResourceConfig(spec: SeedSpec): SeedContentConfig {
  return {
    format: spec.format,
    instanceId: spec.instance_id,
    hostname: spec.hostname,
    fqdn: spec.fqdn,
    publicKeys: spec.public_keys,
    metaData: jsonAttribute(spec.meta_data),
    cloudConfig: jsonAttribute(spec.cloud_config),
    userData: spec.user_data,
    userDataBase64: spec.user_data_base64,
    userDataPart: spec.user_data_parts?.map((u) => ({
      content: u.content,
      contentType: u.content_type,
      filename: u.filename,
      mergeType: u.merge_type,
    })),
    userDataGzip: spec.user_data_gzip,
    mergeOverwrite: spec.merge_overwrite,
    environment: spec.environment,
    file: spec.files?.map((f) => ({
      path: f.path,
      content: f.content,
      contentBase64: f.content_base64,
      source: f.source,
      owner: f.owner,
      permissions: f.permissions,
      defer: f.defer,
      append: f.append,
    })),
    mount: spec.mounts?.map((m) => ({ device: m.device, mountPoint: m.mount_point, symlink: m.symlink, fsType: m.fs_type, options: m.options })),
    network: spec.network && {
      version: spec.network.version,
      forceDhcp: spec.network.force_dhcp,
      interface: spec.network.interfaces.map((i) => ({ ...i })),
    },
    networkConfig: spec.network_config,
    vendorData: typeof spec.vendor_data === 'string' || spec.vendor_data === undefined
      ? spec.vendor_data
      : `#cloud-config\n${stableJson(spec.vendor_data)}`,
  };
}
