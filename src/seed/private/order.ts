/** Orderings the seed's outputs are sorted by (stable across runs and locales). */

/** Compares strings by UTF-16 code units (JavaScript's `<`), not by locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders entries by `path`, by code units. */
export function byPath(a: { readonly path: string }, b: { readonly path: string }): number {
  return compareCodeUnits(a.path, b.path);
}
