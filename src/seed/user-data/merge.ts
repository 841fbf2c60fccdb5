/**
 * Virtlet's merge rule for cloud-config sources (docs/FACTS.md, "Seeds"), applied in order: generated parts, the
 * user's `cloud_config`, cloud-config from `user_data`. Maps merge recursively, lists append, any other value is
 * replaced by the later source. With `overwrite`, a later source replaces each of its top-level keys wholesale.
 *
 * Only structure is copied (maps and lists); strings and other leaf values are shared with the inputs, since they
 * are immutable — a file payload of many MiB is never copied here.
 */
import type { CloudConfig } from '../model';
import { isPlainObject } from '../private/yaml';

/** Merges cloud-config documents left to right. Pure: the inputs are not modified. */
export function mergeCloudConfigs(sources: readonly CloudConfig[], options: { overwrite?: boolean } = {}): CloudConfig {
  const result: Record<string, unknown> = {};
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      if (value === undefined) continue;
      result[key] = options.overwrite || !(key in result) ? copyStructure(value) : mergeValue(result[key], value);
    }
  }
  return result as CloudConfig;
}

function mergeValue(earlier: unknown, later: unknown): unknown {
  if (Array.isArray(earlier) && Array.isArray(later)) return [...earlier, ...(copyStructure(later) as unknown[])];
  if (isPlainObject(earlier) && isPlainObject(later)) {
    const merged: Record<string, unknown> = { ...earlier };
    for (const [key, value] of Object.entries(later)) {
      if (value === undefined) continue;
      merged[key] = key in merged ? mergeValue(merged[key], value) : copyStructure(value);
    }
    return merged;
  }
  return copyStructure(later);
}

/** A copy of the maps and lists of a value; leaves (strings, numbers, dates, …) are shared. */
function copyStructure(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyStructure);
  if (isPlainObject(value) && isPlainPrototype(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (key === '__proto__')
        Object.defineProperty(out, key, { value: copyStructure(v), enumerable: true, writable: true, configurable: true });
      else out[key] = copyStructure(v);
    }
    return out;
  }
  return value;
}

function isPlainPrototype(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
