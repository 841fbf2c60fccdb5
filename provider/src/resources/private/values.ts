/**
 * Helpers for the plain-JS resource values the protocol layer hands to handlers (provider/src/plugin/cty.ts):
 * known-ness checks and typed reads of optional attributes.
 */
import { UNKNOWN } from '../../plugin/cty';

export { UNKNOWN };

/** True when `v` and everything inside it is known. */
export function isWhollyKnown(v: unknown): boolean {
  if (v === UNKNOWN) return false;
  if (Array.isArray(v)) {
    for (const x of v) if (!isWhollyKnown(x)) return false;
    return true;
  }
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!isWhollyKnown(o[k])) return false;
  }
  return true;
}

/**
 * `v` with every unknown value, at any depth, made null: a partial new state returned with an error after an apply
 * half done, whose computed attributes were not all learned (Terraform stores no unknown value).
 */
export function unknownsAsNull<T>(v: T): T {
  if (v === UNKNOWN) return null as T;
  if (Array.isArray(v)) return v.map(unknownsAsNull) as T;
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o)) out[k] = unknownsAsNull(o[k]);
    return out as T;
  }
  return v;
}

/** The string value, or undefined when null/unknown. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The number value, or undefined when null/unknown. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** The boolean value, or undefined when null/unknown. */
export function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

/** The known value (typed as the attribute's own, e.g. a union of allowed values), or undefined when null/unknown. */
export function known<T>(v: T | null | undefined | typeof UNKNOWN): T | undefined {
  return v === null || v === undefined || v === UNKNOWN ? undefined : v;
}

/** The list value ([] when null or unknown). */
export function list<T>(v: readonly T[] | null | undefined | typeof UNKNOWN): T[] {
  return Array.isArray(v) ? [...v] : [];
}

/**
 * Deep equality of plain values (UNKNOWN equals only itself): arrays element by element (holes skipped), objects by
 * their own enumerable string keys, a key whose value is `undefined` counting as absent. Walks without building
 * arrays or maps (a plan compares whole states: issue #38).
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  return deepEqualExcept(a, b, undefined);
}

/** {@link deepEqual} with the top-level keys in `skip` left out of both objects (nested values compare whole). */
export function deepEqualExcept(a: unknown, b: unknown, skip: ReadonlySet<string> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (i in x && !deepEqualExcept(x[i], y[i], undefined)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (v === undefined || skip?.has(k)) continue;
    count++;
    const w = isEnumerable.call(y, k) ? y[k] : undefined;
    if (w === undefined || !deepEqualExcept(v, w, undefined)) return false;
  }
  for (const k of Object.keys(y)) if (y[k] !== undefined && !skip?.has(k)) count--;
  return count === 0;
}

const isEnumerable = Object.prototype.propertyIsEnumerable;

/** Error message of anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
