import type { CloudConfig, SeedFormat, SeedSpec } from '../../src/seed';
import { deriveInstanceId, validateSeed } from '../../src/seed';
import { Diagnostic, ValidationError } from '../../src/diagnostics';
import { CLOUDINIT_SEED_FIELDS, convertFields } from '../../src/fields';
import { dropUndefined } from '../../src/json';
import { containsTokens, pathTouchesToken } from './private/tokens';

/** One part of multipart MIME user-data. */
export interface UserDataPartProps {
  /** The part's body, UTF-8 text. */
  readonly content: string;
  /**
   * MIME type, e.g. `text/x-shellscript`.
   * @default 'text/plain' — cloud-init detects the type from the first line
   */
  readonly contentType?: string;
  /**
   * Attachment file name.
   * @default `part-NNN`
   */
  readonly filename?: string;
  /**
   * cloud-init `Merge-Type` header, e.g. `list(append)+dict(recurse_array)+str()`.
   * @default - cloud-init's default merge rules
   */
  readonly mergeType?: string;
}

/** A file written into the guest (a generated `write_files` entry). Give exactly one of `content`,
 *  `contentBase64`, `source`. */
export interface InjectedFileProps {
  /** Absolute path in the guest, e.g. `/etc/app.conf`. */
  readonly path: string;
  /**
   * UTF-8 text content.
   * @default - none; give `contentBase64` or `source`
   */
  readonly content?: string;
  /**
   * Content as base64 (binary files).
   * @default - none; give `content` or `source`
   */
  readonly contentBase64?: string;
  /**
   * A local file on the Terraform host, read by the provider when it builds the seed.
   * @default - none; give `content` or `contentBase64`
   */
  readonly source?: string;
  /**
   * `user:group` owner.
   * @default 'root:root'
   */
  readonly owner?: string;
  /**
   * Octal mode string, e.g. `'0644'`.
   * @default '0644'
   */
  readonly permissions?: string;
  /**
   * Write in the final stage, after users and packages exist.
   * @default false
   */
  readonly defer?: boolean;
  /**
   * Append to an existing file instead of replacing it.
   * @default false
   */
  readonly append?: boolean;
}

/** A block device of the guest, mounted at boot and/or linked at a stable raw-device path. */
export interface MountProps {
  /** Guest device, `vdb` or `/dev/vdb`. */
  readonly device: string;
  /**
   * Absolute mount point, e.g. `/data` (fstab entry and mount). At least one of `mountPoint` and `symlink`.
   * @default - not mounted (raw device; needs `symlink`)
   */
  readonly mountPoint?: string;
  /**
   * Absolute guest path made a symlink to the device at boot (`ln -sfn`), e.g. `/dev/disk/virtseed/data`: a stable
   * raw-device name for guests without udev.
   * @default - no link
   */
  readonly symlink?: string;
  /**
   * File system type.
   * @default 'auto'
   */
  readonly fsType?: string;
  /**
   * fstab mount options.
   * @default 'defaults,nofail'
   */
  readonly options?: string;
}

/** One guest network interface of a typed network configuration. */
export interface NetworkInterfaceProps {
  /**
   * Interface name in the guest, e.g. `eth0`.
   * @default `eth<index>`
   */
  readonly name?: string;
  /**
   * MAC address `aa:bb:cc:dd:ee:ff` the interface is matched by.
   * @default - matched by name
   */
  readonly mac?: string;
  /**
   * Configure IPv4 by DHCP.
   * @default false
   */
  readonly dhcp4?: boolean;
  /**
   * Configure IPv6 by DHCPv6.
   * @default false
   */
  readonly dhcp6?: boolean;
  /**
   * Static addresses in CIDR form, e.g. `['192.168.1.10/24']`.
   * @default - none
   */
  readonly addresses?: string[];
  /**
   * IPv4 default gateway.
   * @default - none
   */
  readonly gateway4?: string;
  /**
   * IPv6 default gateway.
   * @default - none
   */
  readonly gateway6?: string;
  /**
   * DNS server addresses.
   * @default - none
   */
  readonly nameservers?: string[];
  /**
   * DNS search domains.
   * @default - none
   */
  readonly search?: string[];
  /**
   * MTU in bytes.
   * @default - the interface's default
   */
  readonly mtu?: number;
}

/** A typed network configuration (network-config v1/v2 for NoCloud, network_data.json for ConfigDrive). */
export interface NetworkProps {
  /** network-config version written for NoCloud. */
  readonly version: 1 | 2;
  /**
   * Render every interface as DHCPv4 only, ignoring static addresses.
   * @default false
   */
  readonly forceDhcp?: boolean;
  /** At least one interface. */
  readonly interfaces: NetworkInterfaceProps[];
}

/** Typed cloud-init seed content: the `virtseed_cloudinit_seed` attributes, camelCase. */
export interface CloudInitProps {
  /**
   * Seed layout: NoCloud (`cidata`) or OpenStack ConfigDrive v2 (`config-2`).
   * @default 'nocloud'
   */
  readonly format?: SeedFormat;
  /**
   * cloud-init instance-id; cloud-init re-runs its per-instance modules when it changes.
   * @default - derived from the content (src/seed deriveInstanceId), so a content change re-provisions
   */
  readonly instanceId?: string;
  /**
   * Host name (NoCloud `local-hostname`).
   * @default - the image's
   */
  readonly hostname?: string;
  /**
   * Fully qualified domain name.
   * @default - none
   */
  readonly fqdn?: string;
  /**
   * SSH public keys for the default user.
   * @default - none
   */
  readonly publicKeys?: string[];
  /**
   * Extra meta-data keys.
   * @default - none
   */
  readonly metaData?: Record<string, unknown>;
  /**
   * Typed cloud-config (cloud-init's own snake_case keys), e.g. `{ users: [...], runcmd: [...] }`.
   * @default - none
   */
  readonly cloudConfig?: CloudConfig;
  /**
   * Raw user-data: `#cloud-config` YAML (written byte for byte when given alone; merged after `cloudConfig`, and
   * re-rendered, when other cloud-config inputs are set), a `#!` script or MIME (replace it).
   * @default - none
   */
  readonly userData?: string;
  /**
   * Raw user-data as base64, for exact bytes: text that must reach the guest unchanged, or gzip-compressed or
   * binary user-data. Decoded, it is treated like `userData`; exclusive with it.
   * @default - none
   */
  readonly userDataBase64?: string;
  /**
   * Extra multipart MIME parts.
   * @default - none
   */
  readonly userDataParts?: UserDataPartProps[];
  /**
   * gzip the final user-data.
   * @default false
   */
  readonly gzip?: boolean;
  /**
   * Later cloud-config sources replace top-level keys instead of merging (Virtlet's overwrite switch). The generated
   * inputs (`environment`, `files`, `mounts`, `fqdn`) reach the guest whole or not at all: one whose keys
   * `cloudConfig` or the raw user-data set is dropped, with a warning naming it.
   * @default false
   */
  readonly mergeOverwrite?: boolean;
  /**
   * Variables written to `/etc/cloud/environment`.
   * @default - none
   */
  readonly environment?: Record<string, string>;
  /**
   * Files written into the guest.
   * @default - none
   */
  readonly files?: InjectedFileProps[];
  /**
   * Block devices mounted in the guest.
   * @default - none
   */
  readonly mounts?: MountProps[];
  /**
   * Typed network configuration; exclusive with `networkConfig`.
   * @default - cloud-init's fallback (DHCP on the first interface)
   */
  readonly network?: NetworkProps;
  /**
   * Raw network configuration (YAML); exclusive with `network`.
   * @default - none
   */
  readonly networkConfig?: string;
  /**
   * Raw vendor-data.
   * @default - none
   */
  readonly vendorData?: string;
}

/** Diagnostics of a cloud-init configuration, split by severity. */
export interface CloudInitValidation {
  readonly errors: Diagnostic[];
  readonly warnings: Diagnostic[];
}

/**
 * The content of a cloud-init seed. Value object: create with {@link CloudInit.fromConfig} or
 * {@link CloudInit.fromUserData}; a {@link CloudInitSeed} (or a {@link VirtualMachine}) renders and validates it
 * at synth.
 */
export class CloudInit {
  /** Typed content (meta-data, cloud-config, user-data parts, files, network...). */
  static fromConfig(props: CloudInitProps): CloudInit {
    return new CloudInit(toSeedSpec(props));
  }

  /** Raw user-data only: `#cloud-config` YAML, a `#!` script, or a MIME multipart document. */
  static fromUserData(userData: string): CloudInit {
    return new CloudInit({ user_data: userData });
  }

  /**
   * Raw user-data only, as base64 (exact bytes reach the seed: text, gzip-compressed or binary user-data), like
   * KubeVirt's `userDataBase64`.
   */
  static fromUserDataBase64(userDataBase64: string): CloudInit {
    return new CloudInit({ user_data_base64: userDataBase64 });
  }

  private constructor(private readonly spec: SeedSpec) {}

  /** The content as the shared seed generator's `SeedSpec` (snake_case, as the provider receives it). */
  toSeedSpec(): SeedSpec {
    return this.spec;
  }

  /**
   * The instance-id the seed will carry: the explicit `instanceId`, else `deriveInstanceId` of the content.
   * `undefined` when it cannot be known at synth (the content holds tokens, or files read from the host, or has
   * errors).
   */
  knownInstanceId(): string | undefined {
    const explicit = this.spec.instance_id;
    if (explicit !== undefined) return containsTokens(explicit) ? undefined : explicit;
    if (containsTokens(this.spec) || (this.spec.files ?? []).some((f) => f.source !== undefined)) return undefined;
    try {
      return deriveInstanceId(this.spec);
    } catch (e) {
      if (e instanceof ValidationError) return undefined; // invalid content: validate() reports it at synth
      throw e;
    }
  }

  /**
   * Validates the content with `validateSeed` (src/seed). Diagnostics about values that are still tokens are
   * dropped: the provider checks those at plan time.
   */
  validate(): CloudInitValidation {
    const found = validateSeed(this.spec).filter((d) => !pathTouchesToken(this.spec, d.path));
    return {
      errors: found.filter((d) => d.severity === 'error'),
      warnings: found.filter((d) => d.severity === 'warning'),
    };
  }
}

/** The SeedSpec of the props: names mapped through the seed's field table (src/fields/cloudinit-seed.ts). */
function toSeedSpec(p: CloudInitProps): SeedSpec {
  return dropUndefined(convertFields(CLOUDINIT_SEED_FIELDS.fields, p, 'prop', 'spec')) as SeedSpec;
}
