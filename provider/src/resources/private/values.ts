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

/** Deep equality of plain values (UNKNOWN equals only itself). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ea = Object.entries(a).filter(([, v]) => v !== undefined);
    const mb = new Map(Object.entries(b).filter(([, v]) => v !== undefined));
    return ea.length === mb.size && ea.every(([k, v]) => mb.has(k) && deepEqual(v, mb.get(k)));
  }
  return false;
}

/** Error message of anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
