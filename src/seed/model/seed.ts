/**
 * The typed input of a cloud-init seed (`SeedSpec`) and its rendered form (`RenderedSeed`).
 *
 * Keys are snake_case and mirror the Terraform resource `virtseed_cloudinit_seed` one to one (docs/CONTRACTS.md,
 * "Seed generator"), so the provider passes its configuration through unchanged. Cloud-config keys keep
 * cloud-init's own names (cloud-init docs, "Module reference").
 */
import type { CLOUDINIT_SEED_FIELDS, ValuesOf } from '../../fields';
import type { SeedFile } from '../iso9660';
import type { CloudConfig } from './cloud-config';
import type { NetworkSpec } from './network';

export type { SeedFile } from '../iso9660';

/**
 * Seed layout understood by cloud-init:
 * - `nocloud`: volume label `cidata`, files `meta-data`, `user-data`, `network-config`, `vendor-data`
 *   (cloud-init DataSourceNoCloud).
 * - `configdrive`: volume label `config-2`, files under `openstack/latest/` (`meta_data.json`, `user_data`,
 *   `network_data.json`, `vendor_data.json`) (cloud-init DataSourceConfigDrive, OpenStack config drive v2).
 */
export type SeedFormat = ValuesOf<(typeof CLOUDINIT_SEED_FIELDS)['fields']['format']>;

/** The volume label of each seed format. */
export const VOLUME_IDS = { nocloud: 'cidata', configdrive: 'config-2' } as const;

/** MIME type of one part of multipart user-data (cloud-init docs, "User data formats"). */
export type UserDataContentType =
  | 'text/cloud-config'
  | 'text/x-shellscript'
  | 'text/cloud-boothook'
  | 'text/jinja2'
  | 'text/part-handler'
  | 'text/x-include-url'
  | 'text/x-include-once-url'
  | 'text/cloud-config-archive'
  | 'text/x-shellscript-per-boot'
  | 'text/x-shellscript-per-instance'
  | 'text/x-shellscript-per-once'
  | (string & {});

/** One part of multipart MIME user-data (like terraform-provider-cloudinit's `cloudinit_config.part`). */
export interface UserDataPart {
  /** The part's body, UTF-8 text. */
  content: string;
  /** MIME type of the part. @default 'text/plain' — cloud-init then detects the type from the first line. */
  content_type?: UserDataContentType;
  /** `Content-Disposition: attachment; filename=…`. @default `part-NNN` (1-based, zero-padded to 3 digits). */
  filename?: string;
  /** `Merge-Type` header, cloud-init's merge rules for this part, e.g. `list(append)+dict(recurse_array)+str()`. */
  merge_type?: string;
}

/** A file written into the guest by cloud-init's `write_files` module. Exactly one of `content`,
 *  `content_base64`, `source` must be set. */
export interface SeedInjectedFile {
  /** Absolute path in the guest, e.g. `/etc/app.conf`. */
  path: string;
  /** UTF-8 text content. */
  content?: string;
  /** Content as base64 (for binary files). */
  content_base64?: string;
  /**
   * A local file read at build time by `loadSeedSources` (src/seed/io.ts), which replaces it with `content_base64`.
   * The pure renderer rejects a spec that still has `source`.
   */
  source?: string;
  /** `user:group` owner. @default - cloud-init's default, `root:root` */
  owner?: string;
  /** Octal mode string, 3 or 4 digits, e.g. `'0644'`. @default - cloud-init's default, `0644` */
  permissions?: string;
  /** Write in the final stage, after users and packages exist. @default false */
  defer?: boolean;
  /** Append to an existing file instead of replacing it. @default false */
  append?: boolean;
}

/** A block device of the guest mounted at boot. */
export interface BlockDeviceMount {
  /** Guest device, `vdb` or `/dev/vdb` (a bare name means `/dev/<name>`). */
  device: string;
  /**
   * Absolute mount point, e.g. `/data`: an fstab entry plus a mount by the generated mount script. Optional when
   * `symlink` is set (a raw device: no fstab entry, no mount). At least one of `mount_point` and `symlink`.
   */
  mount_point?: string;
  /**
   * Absolute guest path made a symlink to the device by the generated mount script (`mkdir -p` of its directory,
   * then `ln -sfn DEVICE PATH`), e.g. `/dev/disk/virtseed/data` — stable raw-device names for guests without
   * udev, as Virtlet writes them.
   */
  symlink?: string;
  /** File system type for fstab and mount. @default 'auto' (the kernel probes the existing file system) */
  fs_type?: string;
  /** fstab mount options. @default 'defaults,nofail' */
  options?: string;
}

/** The whole typed input of a cloud-init seed. */
export interface SeedSpec {
  /** Seed layout. @default 'nocloud' */
  format?: SeedFormat;
  /**
   * cloud-init instance-id: cloud-init runs its per-instance modules whenever it changes. 1–128 characters of
   * `[A-Za-z0-9._:-]`. @default - derived from the content (see `deriveInstanceId`)
   */
  instance_id?: string;
  /** Host name (RFC 1123 label(s)): NoCloud `local-hostname`, ConfigDrive `hostname` and `name`. */
  hostname?: string;
  /** Fully qualified domain name: set through cloud-config `fqdn` (a generated part). */
  fqdn?: string;
  /** SSH public keys for the default user: NoCloud `public-keys`, ConfigDrive `public_keys` ({key-N: key}). */
  public_keys?: string[];
  /** Extra meta-data keys merged into meta-data (may not redefine the keys above). */
  meta_data?: Record<string, unknown>;
  /** Typed cloud-config (the user's part, merged after the generated parts). */
  cloud_config?: CloudConfig;
  /**
   * Raw user-data. `#cloud-config` YAML given alone is written byte for byte; with other cloud-config inputs it is
   * merged last (after `cloud_config`) and re-rendered (warning). A `#!` script or any other non-cloud-config,
   * non-MIME text replaces all other user-data (warning); MIME is passed through unchanged (warning when other
   * user-data inputs are dropped).
   */
  user_data?: string;
  /**
   * Raw user-data as base64, for exact bytes: text whose bytes must not change, gzip-compressed or other binary
   * user-data (cloud-init decompresses gzip itself). Exclusive with `user_data`; the decoded bytes are treated as
   * `user_data` is (UTF-8 `#cloud-config` is validated and merged when there is something to merge with; anything
   * else is passed through byte for byte).
   */
  user_data_base64?: string;
  /** Extra multipart MIME parts; when set, user-data is `multipart/mixed` with the merged cloud-config first. */
  user_data_parts?: UserDataPart[];
  /** gzip the final user-data (deterministic: mtime 0); cloud-init decompresses it. @default false */
  user_data_gzip?: boolean;
  /** Merge rule switch: later cloud-config sources replace a top-level key wholesale instead of merging
   *  (maps recursively, lists appended). @default false */
  merge_overwrite?: boolean;
  /** Environment variables written to `/etc/cloud/environment` as sorted `KEY=value` lines. */
  environment?: Record<string, string>;
  /** Files written into the guest (generated `write_files` entries). */
  files?: SeedInjectedFile[];
  /** Block devices mounted in the guest (cloud-config `mounts` plus a mount script run by `runcmd`). */
  mounts?: BlockDeviceMount[];
  /** Typed network configuration; exclusive with `network_config`. */
  network?: NetworkSpec;
  /**
   * Raw network configuration (YAML). NoCloud: network-config v1 or v2 (`version` key, optionally under
   * `network:`). ConfigDrive: OpenStack `network_data.json` content (JSON or YAML of `{links, networks, services}`).
   */
  network_config?: string;
  /** Vendor-data: raw text (any user-data format) or a cloud-config object. */
  vendor_data?: string | CloudConfig;
}

/** The files of a seed, ready for an ISO. */
export interface RenderedSeed {
  format: SeedFormat;
  /** The instance-id written into meta-data (explicit or derived). */
  instanceId: string;
  /** Files sorted by path. */
  files: SeedFile[];
  /** Volume label cloud-init looks for. */
  volumeId: 'cidata' | 'config-2';
}

/** A built seed image. */
export interface BuiltSeedIso {
  /** ISO 9660 image bytes (deterministic for the same spec). For a large image, a view of a SharedArrayBuffer
   *  (its sha256 was computed on a worker thread while it was written). */
  iso: Uint8Array;
  instanceId: string;
  /** Lower-case hex sha256 of `iso`. */
  sha256: string;
}
