/**
 * Canonical form of a config for rendering: object keys in the order of the spec's schema (then unknown keys in
 * code-point order), `undefined` dropped. Ignition ignores key order; this only makes output bytes stable.
 */
import type { Schema } from '../schemas/common';

export function canonicalize(value: unknown, schema: Schema | undefined): unknown {
  if (Array.isArray(value)) {
    const itemSchema = schema?.items as Schema | undefined;
    return value.map((v) => canonicalize(v, itemSchema));
  }
  if (value === null || typeof value !== 'object') return value;
  const src = value as Record<string, unknown>;
  const props = (schema?.properties ?? {}) as Record<string, Schema>;
  const known = Object.keys(props).filter((k) => k in src);
  const unknown = Object.keys(src)
    .filter((k) => !(k in props))
    .sort();
  const out: Record<string, unknown> = {};
  for (const k of [...known, ...unknown]) {
    if (src[k] !== undefined) out[k] = canonicalize(src[k], props[k]);
  }
  return out;
}
