/**
 * `virtseed_cloudinit_seed`'s fields (see ./model.ts), with their src/seed `SeedSpec` keys and `CloudInit` props
 * where those differ from the defaults: the provider's schema, its config → SeedSpec mapping and the constructs'
 * props → SeedSpec → config mapping all come from this one table.
 */
import { HOST_FIELD } from './host-field';
import type { ResourceFields } from './model';
import { writeOnlyTwin } from './write-only';

export const CLOUDINIT_SEED_FIELDS = {
  version: 0,
  description:
    "A cloud-init seed ISO (NoCloud `cidata` or ConfigDrive v2 `config-2`) in a libvirt storage pool, built in process. Changing content updates the volume in place; changing the instance-id makes cloud-init re-provision the guest (the domain's `reprovision` policy decides how).",
  object: 'seed',
  whenUnknown: 'replace',
  fields: {
    id: { type: 'string', computed: true, spec: null, description: 'libvirt volume key of the ISO.' },
    pool: { type: 'string', required: true, spec: null, replace: true, description: 'Storage pool name.' },
    name: { type: 'string', required: true, spec: null, replace: true, description: 'Volume name, e.g. `web1-seed.iso`.' },
    host: HOST_FIELD,
    format: {
      type: 'string',
      optional: true,
      values: { nocloud: 'NoCloud, volume label `cidata`; the default', configdrive: 'ConfigDrive v2, volume label `config-2`' },
      impact: 'next-boot',
      description: 'Seed format.',
    },
    instance_id: {
      impact: 'next-boot',
      type: 'string',
      optional: true,
      computed: true,
      default: { derived: '`iid-` + 16 hex digits of a sha256 over everything the seed carries, so any content change gives a new id' },
      description: "cloud-init instance-id. A new one re-provisions the guest by the domain's `reprovision` policy.",
    },
    hostname: { type: 'string', optional: true, impact: 'next-boot', description: 'Host name (meta-data `local-hostname`).' },
    fqdn: { type: 'string', optional: true, impact: 'next-boot', description: 'Fully qualified domain name.' },
    public_keys: { type: 'list(string)', optional: true, impact: 'next-boot', description: 'SSH public keys for the default user.' },
    meta_data: {
      type: 'string',
      optional: true,
      impact: 'next-boot',
      json: true,
      description: 'Extra meta-data keys: a JSON or YAML map.',
    },
    cloud_config: {
      impact: 'next-boot',
      type: 'string',
      optional: true,
      sensitive: true,
      json: true,
      description: 'cloud-config as JSON (`jsonencode({...})`) or YAML, merged after the generated parts.',
    },
    user_data: {
      impact: 'next-boot',
      type: 'string',
      optional: true,
      sensitive: true,
      description:
        'Raw user-data: `#cloud-config` YAML (written byte for byte when given alone; merged last, and re-rendered, when other cloud-config inputs are set — the plan warns), a `#!` script (replaces all other user-data), or MIME. Exclusive with `user_data_base64`.',
    },
    user_data_base64: {
      impact: 'next-boot',
      type: 'string',
      optional: true,
      sensitive: true,
      description:
        'Raw user-data as base64 (`base64encode()`, `filebase64()`), for exact bytes: text that must reach the guest unchanged, or gzip-compressed/binary user-data. Decoded, it is treated like `user_data`. Exclusive with `user_data`.',
    },
    user_data_gzip: { type: 'bool', optional: true, impact: 'next-boot', prop: 'gzip', description: 'gzip the user-data.' },
    merge_overwrite: {
      impact: 'next-boot',
      type: 'bool',
      optional: true,
      description:
        "Later cloud-config sources replace top-level keys instead of merging (Virtlet's overwrite switch). The generated inputs (`environment`, `file`, `mount`, `fqdn`) reach the guest whole or not at all: one whose keys `cloud_config` or `user_data` set is dropped, and the plan warns naming it.",
    },
    environment: {
      impact: 'next-boot',
      type: 'map(string)',
      optional: true,
      sensitive: true,
      description: 'Written to `/etc/cloud/environment` as `KEY=value` lines.',
    },
    network_config: {
      impact: 'next-boot',
      type: 'string',
      optional: true,
      description: 'Raw network-config (v1/v2 YAML; for ConfigDrive, network_data.json content). Exclusive with `network`.',
    },
    vendor_data: { type: 'string', optional: true, impact: 'next-boot', sensitive: true, description: 'Raw vendor-data.' },
    cloud_config_wo: writeOnlyTwin('cloud_config', 'string', { spec: null, impact: 'next-boot' }),
    user_data_wo: writeOnlyTwin('user_data', 'string', { spec: null, impact: 'next-boot' }),
    user_data_base64_wo: writeOnlyTwin('user_data_base64', 'string', { spec: null, impact: 'next-boot' }),
    environment_wo: writeOnlyTwin('environment', 'map(string)', { spec: null, impact: 'next-boot' }),
    network_config_wo: writeOnlyTwin('network_config', 'string', { spec: null, impact: 'next-boot' }),
    vendor_data_wo: writeOnlyTwin('vendor_data', 'string', { spec: null, impact: 'next-boot' }),
    path: { type: 'string', computed: true, spec: null, description: 'Host path of the ISO.' },
    size: { type: 'number', computed: true, spec: null, description: 'ISO size in bytes.' },
    sha256: {
      type: 'string',
      computed: true,
      spec: null,
      description: 'sha256 (hex) of the ISO bytes; null when the seed has write-only inputs (then `keyed_digest` stands for it).',
    },
    keyed_digest: {
      type: 'string',
      computed: true,
      sensitive: true,
      secretDigest: true,
      spec: null,
      description:
        'With write-only inputs: `hmac-sha256:` + the HMAC-SHA256 (hex) of the ISO bytes under a random key of this resource kept in its private state, so a plan and a refresh tell a changed or drifted seed without the state holding a plain hash of its content (docs/write-only.md). Null otherwise.',
    },
    user_data_part: {
      impact: 'next-boot',
      nesting: 'list',
      spec: 'user_data_parts',
      description: 'A part of multipart MIME user-data.',
      fields: {
        content: {
          type: 'string',
          optional: true,
          sensitive: true,
          description: "The part's body (UTF-8 text), kept byte for byte. One of `content`, `content_wo`.",
        },
        content_wo: writeOnlyTwin('content', 'string', { spec: null, description: "The part's body as a write-only value." }),
        content_type: {
          type: 'string',
          optional: true,
          description:
            'MIME type of the part, e.g. `text/x-shellscript`. Default: `text/plain` (cloud-init then detects the type from the first line, e.g. `#cloud-config` or `#!`).',
        },
        filename: {
          type: 'string',
          optional: true,
          description: "The part's `Content-Disposition` file name. Default: `part-NNN` (1-based, 3 digits).",
        },
        merge_type: {
          type: 'string',
          optional: true,
          description: 'cloud-init merge type, e.g. `list(append)+dict(recurse_array)+str()`.',
        },
      },
    },
    file: {
      impact: 'next-boot',
      nesting: 'list',
      spec: 'files',
      description: 'A file written into the guest (cloud-config `write_files`). One of `content`, `content_base64`, `source`.',
      fields: {
        path: { type: 'string', required: true, description: 'Absolute path in the guest, e.g. `/etc/app.conf`.' },
        content: { type: 'string', optional: true, sensitive: true, description: 'UTF-8 text content.' },
        content_base64: { type: 'string', optional: true, sensitive: true, description: 'Content as base64 (for binary files).' },
        content_wo: writeOnlyTwin('content', 'string', { spec: null }),
        content_base64_wo: writeOnlyTwin('content_base64', 'string', { spec: null }),
        source: { type: 'string', optional: true, description: 'Local file read at plan and apply.' },
        owner: { type: 'string', optional: true, description: "`user:group` owner. Default: cloud-init's, `root:root`." },
        permissions: { type: 'string', optional: true, description: 'Octal string, e.g. `0600`.' },
        defer: {
          type: 'bool',
          optional: true,
          description: "Write the file in cloud-init's final stage, after users and packages exist. Default: `false`.",
        },
        append: { type: 'bool', optional: true, description: 'Append to an existing file instead of replacing it. Default: `false`.' },
      },
    },
    mount: {
      impact: 'next-boot',
      nesting: 'list',
      spec: 'mounts',
      description: 'A block device of the guest: mounted at `mount_point`, linked at `symlink` (raw device), or both.',
      fields: {
        device: { type: 'string', required: true, description: '`vdb` or `/dev/vdb`.' },
        mount_point: {
          type: 'string',
          optional: true,
          description: 'Absolute mount point (fstab entry and mount). At least one of `mount_point`, `symlink`.',
        },
        symlink: {
          type: 'string',
          optional: true,
          description: 'Absolute guest path made a symlink to the device (`ln -sfn`), e.g. `/dev/disk/virtseed/data`.',
        },
        fs_type: {
          type: 'string',
          optional: true,
          description: 'File system type for fstab and mount. Default: `auto` (the kernel probes the existing file system).',
        },
        options: { type: 'string', optional: true, description: 'fstab mount options. Default: `defaults,nofail`.' },
      },
    },
    network: {
      impact: 'next-boot',
      nesting: 'single',
      description: 'Typed network configuration, rendered as network-config v1 or v2 (and network_data.json for ConfigDrive).',
      fields: {
        version: { type: 'number', optional: true, description: '1 or 2 (default 2).' },
        force_dhcp: { type: 'bool', optional: true, description: 'DHCP on every interface, ignoring static settings.' },
        interface: {
          nesting: 'list',
          spec: 'interfaces',
          description: 'A guest network interface; at least one.',
          fields: {
            name: {
              type: 'string',
              optional: true,
              description:
                'Interface name in the guest, e.g. `eth0`; with `mac`, the name the interface is given (v2 `set-name`). Default: `eth<index>`.',
            },
            mac: {
              type: 'string',
              optional: true,
              description: 'MAC address `aa:bb:cc:dd:ee:ff`: matches the interface by hardware address.',
            },
            dhcp4: { type: 'bool', optional: true, description: 'Configure IPv4 by DHCP. Default: `false`.' },
            dhcp6: { type: 'bool', optional: true, description: 'Configure IPv6 by DHCPv6. Default: `false`.' },
            addresses: { type: 'list(string)', optional: true, description: 'CIDR addresses, e.g. `192.168.1.10/24`.' },
            gateway4: { type: 'string', optional: true, description: 'IPv4 default gateway, e.g. `192.168.1.1`.' },
            gateway6: { type: 'string', optional: true, description: 'IPv6 default gateway.' },
            nameservers: { type: 'list(string)', optional: true, description: 'DNS server addresses.' },
            search: { type: 'list(string)', optional: true, description: 'DNS search domains.' },
            mtu: { type: 'number', optional: true, description: 'MTU in bytes (68-65535).' },
          },
        },
      },
    },
  },
} as const satisfies ResourceFields;
