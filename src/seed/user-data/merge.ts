/**
 * Virtlet's merge rule for cloud-config sources (applied in order: generated parts, the user's `cloud_config`,
 * cloud-config from `user_data`): maps merge recursively, lists append, any other value is replaced by the later
 * source. With `overwrite`, a later source replaces each of its top-level keys wholesale.
 */
import type { CloudConfig } from './cloud-config-model';
import { isPlainObject } from '../private/yaml';

/** Merges cloud-config documents left to right. Pure: the inputs are not modified. */
export function mergeCloudConfigs(sources: readonly CloudConfig[], options: { overwrite?: boolean } = {}): CloudConfig {
  const result: Record<string, unknown> = {};
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      if (value === undefined) continue;
      result[key] = options.overwrite || !(key in result) ? structuredClone(value) : mergeValue(result[key], value);
    }
  }
  return result as CloudConfig;
}

function mergeValue(earlier: unknown, later: unknown): unknown {
  if (Array.isArray(earlier) && Array.isArray(later)) return [...earlier, ...structuredClone(later)];
  if (isPlainObject(earlier) && isPlainObject(later)) {
    const merged: Record<string, unknown> = { ...earlier };
    for (const [key, value] of Object.entries(later)) {
      if (value === undefined) continue;
      merged[key] = key in merged ? mergeValue(merged[key], value) : structuredClone(value);
    }
    return merged;
  }
  return structuredClone(later);
}
