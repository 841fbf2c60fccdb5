/**
 * Placement of rendered seed content into the files of a seed format (cloud-init DataSourceNoCloud and
 * DataSourceConfigDrive / OpenStack config drive v2).
 *
 * NoCloud (`cidata`):
 *   `meta-data` (YAML: `instance-id`, `local-hostname`, `public-keys` list, extra keys), `user-data` (always
 *   written; NoCloud requires it), `network-config`, `vendor-data` (only when given).
 * ConfigDrive (`config-2`), all under `openstack/latest/`:
 *   `meta_data.json` (`uuid` = instance-id, `hostname`, `name` = hostname, `public_keys` `{key-N: key}`, extra
 *   keys), `user_data` (when not empty), `network_data.json`, `vendor_data.json` (`{"cloud-init": vendor-data}`).
 */
import type { SeedFile } from './iso9660';
import type { SeedFormat } from './model';
import { utf8, type SeedBytes } from './private/bytes';
import { stableJsonFile as stableJson } from '../json';
import { stableYaml } from './private/yaml';
import { byPath } from './private/order';

/** Format-neutral rendered content of a seed. */
export interface SeedContent {
  /** The instance-id; `null` leaves it out (used to hash everything else, see `deriveInstanceId`). */
  instanceId: string | null;
  hostname?: string;
  publicKeys?: readonly string[];
  /** Extra meta-data keys (validated not to clash with the keys above). */
  extraMetaData?: Record<string, unknown>;
  /** Final user-data bytes. */
  userData: Uint8Array;
  /** Network file text (network-config YAML or network_data.json). */
  network?: string;
  /** Raw vendor-data text. */
  vendorData?: string;
}

/** {@link SeedContent} whose user-data may still be pieces (src/seed/private/bytes.ts, `Utf8Pieces`). */
export type PendingSeedContent<B extends SeedBytes = SeedBytes> = Omit<SeedContent, 'userData'> & { userData: B };

/** A seed file whose content may still be pieces. */
export interface PendingSeedFile<B extends SeedBytes = SeedBytes> {
  path: string;
  content: Uint8Array | B;
}

/** The files of `content` laid out for `format`, sorted by path. Pure. */
export function toLayout(content: SeedContent, format: SeedFormat): SeedFile[] {
  return layoutFiles(content, format);
}

/** {@link toLayout} for content whose user-data may still be pieces (passed through as is). Pure. */
export function layoutFiles<B extends SeedBytes>(content: PendingSeedContent<B>, format: SeedFormat): PendingSeedFile<B>[] {
  const files = format === 'nocloud' ? noCloudFiles(content) : configDriveFiles(content);
  return files.sort(byPath);
}

function noCloudFiles<B extends SeedBytes>(c: PendingSeedContent<B>): PendingSeedFile<B>[] {
  const md: Record<string, unknown> = { ...(c.extraMetaData ?? {}) };
  if (c.instanceId !== null) md['instance-id'] = c.instanceId;
  if (c.hostname !== undefined) md['local-hostname'] = c.hostname;
  if (c.publicKeys && c.publicKeys.length > 0) md['public-keys'] = [...c.publicKeys];
  const files: PendingSeedFile<B>[] = [
    { path: 'meta-data', content: utf8(stableYaml(md)) },
    { path: 'user-data', content: c.userData },
  ];
  if (c.network !== undefined) files.push({ path: 'network-config', content: utf8(c.network) });
  if (c.vendorData !== undefined) files.push({ path: 'vendor-data', content: utf8(c.vendorData) });
  return files;
}

const OS_DIR = 'openstack/latest';

function configDriveFiles<B extends SeedBytes>(c: PendingSeedContent<B>): PendingSeedFile<B>[] {
  const md: Record<string, unknown> = { ...(c.extraMetaData ?? {}) };
  if (c.instanceId !== null) md['uuid'] = c.instanceId;
  if (c.hostname !== undefined) {
    md['hostname'] = c.hostname;
    md['name'] = c.hostname;
  }
  if (c.publicKeys && c.publicKeys.length > 0) {
    md['public_keys'] = Object.fromEntries(c.publicKeys.map((k, i) => [`key-${i}`, k]));
  }
  const files: PendingSeedFile<B>[] = [{ path: `${OS_DIR}/meta_data.json`, content: utf8(stableJson(md)) }];
  if (c.userData.length > 0) files.push({ path: `${OS_DIR}/user_data`, content: c.userData });
  if (c.network !== undefined) files.push({ path: `${OS_DIR}/network_data.json`, content: utf8(c.network) });
  if (c.vendorData !== undefined)
    files.push({ path: `${OS_DIR}/vendor_data.json`, content: utf8(stableJson({ 'cloud-init': c.vendorData })) });
  return files;
}

/** The seed format a volume label stands for (case-insensitive, as blkid matches labels); `undefined` if none. */
export function formatOfVolumeId(volumeId: string): SeedFormat | undefined {
  const label = volumeId.trim().toLowerCase();
  if (label === 'cidata') return 'nocloud';
  if (label === 'config-2') return 'configdrive';
  return undefined;
}
