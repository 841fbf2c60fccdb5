/**
 * Canonical JSON shared by the seed generator and the constructs: object keys sorted at every level and
 * `undefined` members dropped, so equal input always renders to the same text.
 */

/** True for `{}`-style objects (not arrays, class instances such as CDKTF tokens, or buffers). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value));
}

/** A copy of `value` without `undefined` members in plain objects, at every level; other values as they are. */
export function dropUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(dropUndefined) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = dropUndefined(v);
  return out as T;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}

/** Canonical JSON on one line (attribute values, hashes). */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** Canonical JSON as a file: 2-space indent, trailing newline (seed files such as `meta_data.json`). */
export function stableJsonFile(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}
