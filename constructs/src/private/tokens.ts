import { Token } from 'cdktf';

/** True when `value` (recursively through arrays and plain objects) holds an unresolved cdktf token. */
export function containsTokens(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string' || typeof value === 'number') return Token.isUnresolved(value);
  if (Array.isArray(value)) return Token.isUnresolved(value) || value.some(containsTokens);
  if (typeof value === 'object') {
    if (Token.isUnresolved(value)) return true;
    return Object.values(value as Record<string, unknown>).some(containsTokens);
  }
  return false;
}

/** The value at `path` inside `root`, or undefined when the path leaves the structure. */
export function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let cur: unknown = root;
  for (const step of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[step];
  }
  return cur;
}

/** True when the value at `path`, or any value on the way to it, holds a token (so a diagnostic there may be
 *  about a placeholder, not the real value, and is left to the provider at plan time). */
export function pathTouchesToken(root: unknown, path: readonly (string | number)[]): boolean {
  for (let i = path.length; i >= 1; i--) {
    const v = valueAt(root, path.slice(0, i));
    if (typeof v === 'string' || typeof v === 'number' ? Token.isUnresolved(v) : i === path.length && containsTokens(v)) {
      return true;
    }
  }
  return false;
}
