/**
 * `virtseed_cloudinit_seed`: a NoCloud (`cidata`) or ConfigDrive v2 (`config-2`) ISO in a libvirt storage pool,
 * built in process by src/seed. The ISO, its sha256 and the instance-id are computed at plan whenever the inputs
 * are known, so a plan shows whether the guest will see a new instance-id (re-provision) or only new content.
 * Content changes update the volume in place (same file); see docs/CONTRACTS.md "Provider resources".
 */
import { Diagnostic, hasErrors, warning } from '../../../src/diagnostics';
import { buildSeedIso, validateSeed } from '../../../src/seed';
import { t } from '../plugin/cty';
import type { ResourceHandler } from '../plugin/handler';
import type { ResourceSchema } from '../plugin/schema';
import { mapDiagnostics } from './private/paths';
import { SEED_PATHS, seedSpecFromConfig } from './private/seed-spec';
import { deleteVolume, inspectRawVolume, storeRawVolume, volumeExistsDiagnostic } from './private/storage';
import { clientOf } from './private/client';
import { plannedVolumeChecks } from './private/plan-checks';
import { isWhollyKnown, str, UNKNOWN } from './private/values';

type State = Record<string, unknown>;

const COMPUTED_ONLY = ['id', 'path', 'size', 'sha256'];

export const CLOUDINIT_SEED_SCHEMA: ResourceSchema = {
  version: 0,
  description:
    'A cloud-init seed ISO (NoCloud `cidata` or ConfigDrive v2 `config-2`) in a libvirt storage pool, built in process. ' +
    'Changing content updates the volume in place; changing the instance-id makes cloud-init re-provision the guest ' +
    '(the domain\'s `reprovision` policy decides how).',
  attributes: {
    id: { type: t.string, computed: true, description: 'libvirt volume key of the ISO.' },
    pool: { type: t.string, required: true, description: 'Storage pool name.' },
    name: { type: t.string, required: true, description: 'Volume name, e.g. `web1-seed.iso`.' },
    format: { type: t.string, optional: true, description: '`nocloud` (default) or `configdrive`.' },
    instance_id: {
      type: t.string,
      optional: true,
      computed: true,
      description: 'cloud-init instance-id. Default: `iid-` + 16 hex digits of a sha256 over everything the seed carries, so any content change gives a new id.',
    },
    hostname: { type: t.string, optional: true, description: 'Host name (meta-data `local-hostname`).' },
    fqdn: { type: t.string, optional: true, description: 'Fully qualified domain name.' },
    public_keys: { type: t.list(t.string), optional: true, description: 'SSH public keys for the default user.' },
    meta_data: { type: t.string, optional: true, description: 'Extra meta-data keys: a JSON or YAML map.' },
    cloud_config: { type: t.string, optional: true, sensitive: true, description: 'cloud-config as JSON (`jsonencode({...})`) or YAML, merged after the generated parts.' },
    user_data: {
      type: t.string,
      optional: true,
      sensitive: true,
      description:
        'Raw user-data: `#cloud-config` YAML (written byte for byte when given alone; merged last, and re-rendered, when other cloud-config inputs are set — the plan warns), a `#!` script (replaces all other user-data), or MIME. Exclusive with `user_data_base64`.',
    },
    user_data_base64: {
      type: t.string,
      optional: true,
      sensitive: true,
      description:
        'Raw user-data as base64 (`base64encode()`, `filebase64()`), for exact bytes: text that must reach the guest unchanged, or gzip-compressed/binary user-data. Decoded, it is treated like `user_data`. Exclusive with `user_data`.',
    },
    user_data_gzip: { type: t.bool, optional: true, description: 'gzip the user-data.' },
    merge_overwrite: { type: t.bool, optional: true, description: 'Later cloud-config sources replace top-level keys instead of merging (Virtlet\'s overwrite switch).' },
    environment: { type: t.map(t.string), optional: true, sensitive: true, description: 'Written to `/etc/cloud/environment` as `KEY=value` lines.' },
    network_config: { type: t.string, optional: true, description: 'Raw network-config (v1/v2 YAML; for ConfigDrive, network_data.json content). Exclusive with `network`.' },
    vendor_data: { type: t.string, optional: true, sensitive: true, description: 'Raw vendor-data.' },
    path: { type: t.string, computed: true, description: 'Host path of the ISO.' },
    size: { type: t.number, computed: true, description: 'ISO size in bytes.' },
    sha256: { type: t.string, computed: true, description: 'sha256 (hex) of the ISO bytes.' },
  },
  blocks: {
    user_data_part: {
      nesting: 'list',
      block: {
        description: 'A part of multipart MIME user-data.',
        attributes: {
          content: { type: t.string, required: true, sensitive: true, description: 'The part\'s body (UTF-8 text), kept byte for byte.' },
          content_type: { type: t.string, optional: true, description: 'MIME type of the part, e.g. `text/x-shellscript`. Default: `text/plain` (cloud-init then detects the type from the first line, e.g. `#cloud-config` or `#!`).' },
          filename: { type: t.string, optional: true, description: 'The part\'s `Content-Disposition` file name. Default: `part-NNN` (1-based, 3 digits).' },
          merge_type: { type: t.string, optional: true, description: 'cloud-init merge type, e.g. `list(append)+dict(recurse_array)+str()`.' },
        },
      },
    },
    file: {
      nesting: 'list',
      block: {
        description: 'A file written into the guest (cloud-config `write_files`). One of `content`, `content_base64`, `source`.',
        attributes: {
          path: { type: t.string, required: true, description: 'Absolute path in the guest, e.g. `/etc/app.conf`.' },
          content: { type: t.string, optional: true, sensitive: true, description: 'UTF-8 text content.' },
          content_base64: { type: t.string, optional: true, sensitive: true, description: 'Content as base64 (for binary files).' },
          source: { type: t.string, optional: true, description: 'Local file read at plan and apply.' },
          owner: { type: t.string, optional: true, description: '`user:group` owner. Default: cloud-init\'s, `root:root`.' },
          permissions: { type: t.string, optional: true, description: 'Octal string, e.g. `0600`.' },
          defer: { type: t.bool, optional: true, description: 'Write the file in cloud-init\'s final stage, after users and packages exist. Default: `false`.' },
          append: { type: t.bool, optional: true, description: 'Append to an existing file instead of replacing it. Default: `false`.' },
        },
      },
    },
    mount: {
      nesting: 'list',
      block: {
        description: 'A block device of the guest: mounted at `mount_point`, linked at `symlink` (raw device), or both.',
        attributes: {
          device: { type: t.string, required: true, description: '`vdb` or `/dev/vdb`.' },
          mount_point: { type: t.string, optional: true, description: 'Absolute mount point (fstab entry and mount). At least one of `mount_point`, `symlink`.' },
          symlink: { type: t.string, optional: true, description: 'Absolute guest path made a symlink to the device (`ln -sfn`), e.g. `/dev/disk/virtseed/data`.' },
          fs_type: { type: t.string, optional: true, description: 'File system type for fstab and mount. Default: `auto` (the kernel probes the existing file system).' },
          options: { type: t.string, optional: true, description: 'fstab mount options. Default: `defaults,nofail`.' },
        },
      },
    },
    network: {
      nesting: 'single',
      block: {
        description: 'Typed network configuration, rendered as network-config v1 or v2 (and network_data.json for ConfigDrive).',
        attributes: {
          version: { type: t.number, optional: true, description: '1 or 2 (default 2).' },
          force_dhcp: { type: t.bool, optional: true, description: 'DHCP on every interface, ignoring static settings.' },
        },
        blocks: {
          interface: {
            nesting: 'list',
            block: {
              description: 'A guest network interface; at least one.',
              attributes: {
                name: { type: t.string, optional: true, description: 'Interface name in the guest, e.g. `eth0`; with `mac`, the name the interface is given (v2 `set-name`). Default: `eth<index>`.' },
                mac: { type: t.string, optional: true, description: 'MAC address `aa:bb:cc:dd:ee:ff`: matches the interface by hardware address.' },
                dhcp4: { type: t.bool, optional: true, description: 'Configure IPv4 by DHCP. Default: `false`.' },
                dhcp6: { type: t.bool, optional: true, description: 'Configure IPv6 by DHCPv6. Default: `false`.' },
                addresses: { type: t.list(t.string), optional: true, description: 'CIDR addresses, e.g. `192.168.1.10/24`.' },
                gateway4: { type: t.string, optional: true, description: 'IPv4 default gateway, e.g. `192.168.1.1`.' },
                gateway6: { type: t.string, optional: true, description: 'IPv6 default gateway.' },
                nameservers: { type: t.list(t.string), optional: true, description: 'DNS server addresses.' },
                search: { type: t.list(t.string), optional: true, description: 'DNS search domains.' },
                mtu: { type: t.number, optional: true, description: 'MTU in bytes (68-65535).' },
              },
            },
          },
        },
      },
    },
  },
};

/** The inputs of the seed: everything in the config but the computed-only attributes. */
function inputsOf(v: State): State {
  const out: State = {};
  for (const [k, val] of Object.entries(v)) if (!COMPUTED_ONLY.includes(k)) out[k] = val;
  return out;
}

/** Builds the ISO of a known config; diagnostics on bad input (then `built` is undefined). */
function build(config: State): { built?: ReturnType<typeof buildSeedIso>; diagnostics: Diagnostic[] } {
  const { spec, diagnostics } = seedSpecFromConfig(config);
  if (hasErrors(diagnostics)) return { diagnostics };
  const all = [...diagnostics, ...mapDiagnostics(validateSeed(spec), SEED_PATHS)];
  if (hasErrors(all)) return { diagnostics: all };
  return { built: buildSeedIso(spec), diagnostics: all };
}

export const cloudinitSeed: ResourceHandler<State> = {
  typeName: 'virtseed_cloudinit_seed',
  schema: CLOUDINIT_SEED_SCHEMA,

  validate(config) {
    if (!isWhollyKnown(inputsOf(config))) return [];
    return build(config).diagnostics;
  },

  async plan({ prior, proposed, config }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    const planned: State = { ...proposed };
    const diagnostics: Diagnostic[] = [];
    if (isWhollyKnown(inputsOf(config))) {
      const r = build(config);
      diagnostics.push(...r.diagnostics);
      if (!r.built) return { planned, requiresReplace: [], diagnostics };
      planned.instance_id = r.built.instanceId;
      planned.sha256 = r.built.sha256;
      planned.size = r.built.iso.length;
    } else {
      planned.instance_id = str(config.instance_id) ?? UNKNOWN;
      planned.sha256 = UNKNOWN;
      planned.size = UNKNOWN;
    }
    const requiresReplace: (string | number)[][] = [];
    if (!prior) {
      planned.id = UNKNOWN;
      planned.path = UNKNOWN;
    } else {
      planned.id = prior.id;
      planned.path = prior.path;
      if (prior.pool !== planned.pool) requiresReplace.push(['pool']);
      if (prior.name !== planned.name) requiresReplace.push(['name']);
      if (requiresReplace.length) {
        planned.id = UNKNOWN;
        planned.path = UNKNOWN;
      }
      const from = str(prior.instance_id);
      const to = planned.instance_id;
      if (from && typeof to === 'string' && from !== to) {
        diagnostics.push(
          warning(['instance_id'], 'instance-id changes: the guest will be re-provisioned',
            `The seed's instance-id changes from ${from} to ${to}; cloud-init runs its per-instance modules again on the next boot. The domain's reprovision policy decides when that boot happens.`),
        );
      } else if (from && to === from && prior.sha256 !== planned.sha256 && typeof planned.sha256 === 'string') {
        diagnostics.push(
          warning([], 'seed content changes, instance-id stays',
            `The seed is updated in place; its instance-id stays ${from}, so cloud-init will not re-provision the guest (per-boot modules still see the new content).`),
        );
      }
    }
    diagnostics.push(...(await plannedVolumeChecks(ctx, 'Seed', prior, planned, requiresReplace.length > 0, volumeExistsDiagnostic)));
    return { planned, requiresReplace, diagnostics };
  },

  async apply({ prior, planned, config }, ctx) {
    const client = await clientOf(ctx);
    const opts = { signal: ctx.signal };
    if (!planned) {
      if (prior && str(prior.id)) await deleteVolume(client, prior.id as string, opts);
      return { newState: null, diagnostics: [] };
    }
    const r = build(config ?? planned);
    if (!r.built) return { newState: prior, diagnostics: r.diagnostics };
    const { iso, instanceId, sha256 } = r.built;
    const target = { key: str(prior?.id), pool: planned.pool as string, name: planned.name as string };
    const stored = await storeRawVolume(client, target, iso, opts);
    if (!stored) return { newState: prior, diagnostics: [volumeExistsDiagnostic(target.pool, target.name)] };
    ctx.log.info(`seed ${planned.name}: ${iso.length} bytes, instance-id ${instanceId}`);
    return { newState: { ...planned, id: stored.vol.key, path: stored.path, instance_id: instanceId, sha256, size: iso.length }, diagnostics: [] };
  },

  async read({ current }, ctx) {
    const client = await clientOf(ctx);
    const found = str(current.id) ? await inspectRawVolume(client, current.id as string, { signal: ctx.signal }) : null;
    return { newState: found ? { ...current, ...found } : null, diagnostics: [] };
  },
};
