/**
 * Typed model of an Ignition config, spec 3.x (coreos/ignition `config/v3_N`). Keys are Ignition's own JSON key
 * names (camelCase), so a raw config object and typed input have the same shape. Fields added after 3.0.0 are
 * marked with the first spec version that has them; validation rejects them for older versions.
 */

/** Supported Ignition spec versions (output). */
export type IgnitionVersion = '3.0.0' | '3.1.0' | '3.2.0' | '3.3.0' | '3.4.0' | '3.5.0';

/** `verification` of a fetched resource: `hash` is `sha512-<hex>` (3.0+) or `sha256-<hex>` (3.1+). */
export interface IgnitionVerification {
  hash?: string | null;
}

/** An HTTP header sent when fetching a resource (3.1+). `value` null/absent removes a parent's header. */
export interface IgnitionHttpHeader {
  name: string;
  value?: string | null;
}

/**
 * A fetched resource (`contents`, `append[]`, `config.merge[]`, `keyFile`, certificate authority).
 * `source` is a URL: `data:` (RFC 2397), `http`, `https`, `tftp`, `s3`, `gs` (3.2+), `arn` (3.4+).
 * `compression`: `gzip` or null/empty (config references and CAs: 3.1+).
 */
export interface IgnitionResource {
  source?: string | null;
  compression?: string | null;
  httpHeaders?: IgnitionHttpHeader[]; // 3.1+
  verification?: IgnitionVerification;
}

/** Owner or group of a node: either `id` or `name`, not both. */
export interface IgnitionNodeOwner {
  id?: number | null;
  name?: string | null;
}

/** Fields shared by files, directories and links. `path` is absolute. */
export interface IgnitionNode {
  path: string;
  overwrite?: boolean | null;
  user?: IgnitionNodeOwner;
  group?: IgnitionNodeOwner;
}

/** `storage.files[]`. `mode` is decimal permission bits (0o644 = 420); special bits need 3.4+. */
export interface IgnitionFile extends IgnitionNode {
  contents?: IgnitionResource;
  append?: IgnitionResource[];
  mode?: number | null;
}

/** `storage.directories[]`. */
export interface IgnitionDirectory extends IgnitionNode {
  mode?: number | null;
}

/** `storage.links[]`: a symbolic link to `target`, or a hard link when `hard` is true. */
export interface IgnitionLink extends IgnitionNode {
  target?: string | null;
  hard?: boolean | null;
}

/** `storage.disks[].partitions[]`. Sizes in MiB. */
export interface IgnitionPartition {
  label?: string | null;
  number?: number;
  sizeMiB?: number | null;
  startMiB?: number | null;
  typeGuid?: string | null;
  guid?: string | null;
  wipePartitionEntry?: boolean | null;
  shouldExist?: boolean | null;
  resize?: boolean | null; // 3.2+
}

/** `storage.disks[]`. */
export interface IgnitionDisk {
  device: string;
  wipeTable?: boolean | null;
  partitions?: IgnitionPartition[];
}

/** `storage.raid[]`. `level` and `devices` are required before 3.4. */
export interface IgnitionRaid {
  name: string;
  level?: string | null;
  devices?: string[];
  spares?: number | null;
  options?: string[];
}

/** `storage.filesystems[]`. */
export interface IgnitionFilesystem {
  device: string;
  format?: string | null;
  path?: string | null;
  wipeFilesystem?: boolean | null;
  label?: string | null;
  uuid?: string | null;
  options?: string[];
  mountOptions?: string[]; // 3.1+
}

/** `storage.luks[].clevis.tang[]` (3.2+; `advertisement` 3.4+). */
export interface IgnitionTang {
  url: string;
  thumbprint?: string | null;
  advertisement?: string | null;
}

/** `storage.luks[]` (3.2+; `discard`, `openOptions` 3.4+; `cex` 3.5+). */
export interface IgnitionLuks {
  name: string;
  device?: string | null;
  keyFile?: IgnitionResource;
  label?: string | null;
  uuid?: string | null;
  options?: string[];
  wipeVolume?: boolean | null;
  discard?: boolean | null;
  openOptions?: string[];
  clevis?: {
    tang?: IgnitionTang[];
    tpm2?: boolean | null;
    threshold?: number | null;
    custom?: { pin?: string | null; config?: string | null; needsNetwork?: boolean | null };
  };
  cex?: { enabled?: boolean | null };
}

/** `storage`. */
export interface IgnitionStorage {
  disks?: IgnitionDisk[];
  raid?: IgnitionRaid[];
  luks?: IgnitionLuks[];
  filesystems?: IgnitionFilesystem[];
  files?: IgnitionFile[];
  directories?: IgnitionDirectory[];
  links?: IgnitionLink[];
}

/** `systemd.units[].dropins[]`: `name` ends in `.conf`. */
export interface IgnitionDropin {
  name: string;
  contents?: string | null;
}

/** `systemd.units[]`: `name` carries a unit type suffix (`.service`, `.timer`, ...). */
export interface IgnitionUnit {
  name: string;
  enabled?: boolean | null;
  mask?: boolean | null;
  contents?: string | null;
  dropins?: IgnitionDropin[];
}

/** `passwd.users[]`. */
export interface IgnitionUser {
  name: string;
  passwordHash?: string | null;
  sshAuthorizedKeys?: string[];
  uid?: number | null;
  gecos?: string | null;
  homeDir?: string | null;
  noCreateHome?: boolean | null;
  primaryGroup?: string | null;
  groups?: string[];
  noUserGroup?: boolean | null;
  noLogInit?: boolean | null;
  shell?: string | null;
  system?: boolean | null;
  shouldExist?: boolean | null; // 3.2+
}

/** `passwd.groups[]`. */
export interface IgnitionGroup {
  name: string;
  gid?: number | null;
  passwordHash?: string | null;
  system?: boolean | null;
  shouldExist?: boolean | null; // 3.2+
}

/** `ignition` section. `version` is filled in by `renderIgnition`. */
export interface IgnitionSection {
  version?: string;
  config?: { merge?: IgnitionResource[]; replace?: IgnitionResource };
  timeouts?: { httpResponseHeaders?: number | null; httpTotal?: number | null };
  security?: { tls?: { certificateAuthorities?: IgnitionResource[] } };
  proxy?: { httpProxy?: string | null; httpsProxy?: string | null; noProxy?: string[] }; // 3.1+
}

/** A whole Ignition 3.x config document. */
export interface IgnitionConfig {
  ignition: IgnitionSection;
  storage?: IgnitionStorage;
  systemd?: { units?: IgnitionUnit[] };
  passwd?: { users?: IgnitionUser[]; groups?: IgnitionGroup[] };
  kernelArguments?: { shouldExist?: string[]; shouldNotExist?: string[] }; // 3.3+
}

/**
 * Typed input of `renderIgnition`: an Ignition config whose `ignition` section may be omitted, plus the spec
 * `version` to write (default `3.3.0`). Same shape as the raw JSON document.
 */
export interface IgnitionSpec extends Omit<IgnitionConfig, 'ignition'> {
  version?: IgnitionVersion;
  ignition?: IgnitionSection;
}

/** Result of `renderIgnition`: canonical JSON text, its spec version and the sha256 (hex) of its UTF-8 bytes. */
export interface RenderedIgnition {
  json: string;
  version: IgnitionVersion;
  sha256: string;
}
