/**
 * Composition of the final user-data from every user-data input of a SeedSpec.
 *
 * Rules (Virtlet's order, docs/DESIGN.md "Facts: seeds"):
 * 1. cloud-config sources are merged in this order: generated parts (environment, files, mounts, fqdn), the
 *    user's `cloud_config`, then `user_data` when it is `#cloud-config` YAML — maps recursively, lists appended;
 *    with `merge_overwrite` a later source replaces each of its top-level keys wholesale.
 * 2. `user_data` that is neither cloud-config nor MIME (a `#!` script, `#include`, `#cloud-boothook`, …) replaces
 *    the user-data entirely; generated parts and `cloud_config` are dropped (a warning names them).
 * 3. `user_data` that is MIME is passed through unchanged (it is not re-wrapped, so the user's own boundaries and
 *    headers reach cloud-init as written); dropped inputs are named in a warning.
 * 4. With `user_data_parts` (and user_data not raw/MIME — validation rejects that mix), the result is
 *    `multipart/mixed`: the merged cloud-config as part `cloud-config.yaml` (omitted when empty), then each part
 *    in order.
 * 5. `user_data_gzip` gzips the final bytes.
 */
import { warning, type Diagnostic } from '../../diagnostics';
import type { SeedSpec } from '../model';
import type { CloudConfig } from './cloud-config-model';
import { classifyUserData } from './classify';
import { renderCloudConfig, renderCloudConfigPieces } from './cloud-config';
import { generatedParts } from './generated';
import { gzipDeterministic } from './gzip';
import { mergeCloudConfigs } from './merge';
import { renderMultipart, type MimePart } from './mime';
import { utf8, utf8OfPieces } from '../private/bytes';
import { isPlainObject, parseYaml } from '../private/yaml';

/** The final user-data. */
export interface ComposedUserData {
  /** The bytes of the user-data file (gzip-compressed when `user_data_gzip`). */
  bytes: Uint8Array;
  /** The merged cloud-config, when user-data carries one (not for raw or MIME `user_data`). */
  cloudConfig?: CloudConfig;
  /** Warnings about dropped inputs. */
  diagnostics: Diagnostic[];
}

/** Filename of the merged cloud-config part in multipart user-data. */
export const CLOUD_CONFIG_PART_FILENAME = 'cloud-config.yaml';

/** The cloud-config sources in merge order, named by SeedSpec key. `user_data` must already be valid YAML. */
export function cloudConfigSources(spec: SeedSpec): { name: string; config: CloudConfig }[] {
  const sources: { name: string; config: CloudConfig }[] = generatedParts(spec).map((p) => ({ name: p.name, config: p.config }));
  if (spec.cloud_config && Object.keys(spec.cloud_config).length > 0) sources.push({ name: 'cloud_config', config: spec.cloud_config });
  if (classifyUserData(spec.user_data) === 'cloud-config') {
    const parsed = parseYaml(spec.user_data as string).value;
    if (isPlainObject(parsed)) sources.push({ name: 'user_data', config: parsed as CloudConfig });
  }
  return sources;
}

/** Builds the user-data of a validated spec (expects `files[].source` loaded). Pure and deterministic. */
export function composeUserData(spec: SeedSpec): ComposedUserData {
  const diagnostics: Diagnostic[] = [];
  const kind = classifyUserData(spec.user_data);
  let text: string | string[];
  let cloudConfig: CloudConfig | undefined;
  if (kind === 'raw' || kind === 'mime') {
    const dropped = [
      ...generatedParts(spec).map((p) => p.name),
      ...(spec.cloud_config && Object.keys(spec.cloud_config).length > 0 ? ['cloud_config'] : []),
    ];
    if (dropped.length > 0) {
      diagnostics.push(
        warning(
          ['user_data'],
          kind === 'raw' ? 'User-data replaced by a raw script' : 'MIME user-data passed through unchanged',
          `user_data is ${kind === 'raw' ? 'not cloud-config (e.g. a #! script)' : 'MIME multipart'}, so it becomes the whole user-data and these inputs do not reach the guest: ${dropped.join(', ')}. Use a #cloud-config user_data, or user_data_parts, to combine them.`,
        ),
      );
    }
    text = spec.user_data as string;
  } else {
    cloudConfig = mergeCloudConfigs(
      cloudConfigSources(spec).map((s) => s.config),
      { overwrite: spec.merge_overwrite === true },
    );
    const parts = spec.user_data_parts ?? [];
    if (parts.length === 0) {
      text = renderCloudConfigPieces(cloudConfig);
    } else {
      const mime: MimePart[] = [];
      if (Object.keys(cloudConfig).length > 0) {
        mime.push({ content: renderCloudConfig(cloudConfig), contentType: 'text/cloud-config', filename: CLOUD_CONFIG_PART_FILENAME });
      }
      parts.forEach((p, i) =>
        mime.push({
          content: p.content,
          contentType: p.content_type ?? 'text/plain',
          filename: p.filename ?? `part-${String(i + 1).padStart(3, '0')}`,
          ...(p.merge_type !== undefined ? { mergeType: p.merge_type } : {}),
        }),
      );
      text = renderMultipart(mime);
    }
  }
  const plain = typeof text === 'string' ? utf8(text) : utf8OfPieces(text);
  return { bytes: spec.user_data_gzip ? gzipDeterministic(plain) : plain, ...(cloudConfig ? { cloudConfig } : {}), diagnostics };
}
