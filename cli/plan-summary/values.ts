/**
 * The changed attributes of one resource change (pure): `before` and `after` walked together with Terraform's
 * mirror structures (`after_unknown`, `before_sensitive`, `after_sensitive`), so that a sensitive value is never
 * carried out (only the fact that it changed) and an unknown one is shown as "known after apply".
 */
import type { JsonValue } from './plan-json';

/** A path inside a resource's value: attribute and block names, map keys, list indices. */
export type ValuePath = readonly (string | number)[];

/** One side of a change, as it may be shown. */
export type Shown =
  | { readonly kind: 'value'; readonly value: JsonValue }
  /** Sensitive (the schema or the configuration says so): the value is not carried. */
  | { readonly kind: 'sensitive' }
  /** Not known until apply. */
  | { readonly kind: 'unknown' }
  /** Not there (a block or list element that is added or removed, or a resource that does not exist). */
  | { readonly kind: 'absent' };

/** One changed value. */
export interface ValueChange {
  readonly path: ValuePath;
  readonly before: Shown;
  readonly after: Shown;
}

/** What `walk` looks at on each side. */
interface Side {
  readonly value: JsonValue | undefined;
  /** The mirror of the value (`true` = sensitive here and below). */
  readonly sensitive: JsonValue | undefined;
}

function isObject(v: unknown): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The mirror's node for `key` (undefined when the mirror says nothing about it). */
function below(mirror: JsonValue | undefined, key: string | number): JsonValue | undefined {
  if (Array.isArray(mirror) && typeof key === 'number') return mirror[key];
  if (isObject(mirror) && typeof key === 'string') return mirror[key];
  return undefined;
}

/** Deep equality of JSON values. */
function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => jsonEqual(a[k], b[k]));
  }
  return false;
}

/** Values that are walked into rather than compared whole: objects, and lists holding objects or lists (nested
 *  blocks). */
function isContainer(v: JsonValue | undefined): boolean {
  return isObject(v) || (Array.isArray(v) && v.some((x) => isObject(x) || Array.isArray(x)));
}

/** An `after_unknown` mirror to walk into: an object, or a list marking an element (`true`) or holding marks. */
function isMarkContainer(v: JsonValue | undefined): boolean {
  return isObject(v) || (Array.isArray(v) && v.some((x) => x === true || isObject(x) || Array.isArray(x)));
}

/**
 * The keys to walk when both sides are walkable the same way (lists by index, objects by key), else undefined.
 * `unknown` (the `after_unknown` mirror here) adds its keys: Terraform leaves a value known only after apply out of
 * `after` and marks it there alone.
 */
function keysToWalk(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  unknown: JsonValue | undefined,
): (string | number)[] | undefined {
  const marks = isObject(unknown) || Array.isArray(unknown) ? unknown : undefined;
  if (!isContainer(before) && !isContainer(after) && !isMarkContainer(marks)) return undefined;
  const b = before ?? null;
  const a = after ?? null;
  if ((Array.isArray(b) || b === null) && (Array.isArray(a) || a === null) && (Array.isArray(marks) || marks === undefined)) {
    const n = Math.max(b?.length ?? 0, a?.length ?? 0, marks?.length ?? 0);
    return Array.from({ length: n }, (_, i) => i);
  }
  if ((isObject(b) || b === null) && (isObject(a) || a === null) && (isObject(marks) || marks === undefined)) {
    return [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {}), ...Object.keys(marks ?? {})])].sort();
  }
  return undefined;
}

function shown(side: Side): Shown {
  if (side.sensitive === true) return { kind: 'sensitive' };
  if (side.value === undefined) return { kind: 'absent' };
  return { kind: 'value', value: side.value };
}

function walk(path: ValuePath, before: Side, after: Side, unknown: JsonValue | undefined, out: ValueChange[]): void {
  if (unknown === true) {
    out.push({ path, before: shown(before), after: { kind: 'unknown' } });
    return;
  }
  const keys = before.sensitive === true || after.sensitive === true ? undefined : keysToWalk(before.value, after.value, unknown);
  if (keys) {
    for (const k of keys) {
      walk(
        [...path, k],
        { value: below(before.value, k), sensitive: below(before.sensitive, k) },
        { value: below(after.value, k), sensitive: below(after.sensitive, k) },
        below(unknown, k),
        out,
      );
    }
    return;
  }
  // An absent value and a null one are the same "not set" to a reviewer.
  if (jsonEqual(before.value ?? null, after.value ?? null)) return;
  out.push({ path, before: shown(before), after: shown(after) });
}

/** The mirror structures of one change, as in `resource_changes[].change`. */
export interface ChangeValues {
  readonly before: JsonValue | undefined;
  readonly after: JsonValue | undefined;
  readonly after_unknown?: JsonValue;
  readonly before_sensitive?: JsonValue;
  readonly after_sensitive?: JsonValue;
}

/**
 * Every value that differs between `before` and `after`, leaf by leaf: attributes, then into nested blocks (list
 * elements by index) and maps (by key). A sensitive value is compared but never returned; an unknown one becomes
 * `{kind: 'unknown'}`. Lists of strings and other whole values are compared whole. Sorted by path as walked
 * (attribute names in alphabetical order, list elements in order).
 */
export function changedValues(change: ChangeValues): ValueChange[] {
  const out: ValueChange[] = [];
  walk(
    [],
    { value: change.before ?? undefined, sensitive: change.before_sensitive },
    { value: change.after ?? undefined, sensitive: change.after_sensitive },
    change.after_unknown,
    out,
  );
  return out;
}

/** `memory`, `disk[0].volume_id`, `environment["APP_ENV"]`. */
export function formatValuePath(path: ValuePath): string {
  let s = '';
  for (const seg of path) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(seg)) s += s === '' ? seg : `.${seg}`;
    else s += `[${JSON.stringify(seg)}]`;
  }
  return s;
}

/** Stands for a value known only after apply, where src/fields reads plan values (its rules take any symbol so). */
const UNKNOWN_VALUE: unique symbol = Symbol('known after apply');

/**
 * `after` with every position `after_unknown` marks (`true`) set to {@link UNKNOWN_VALUE}: the planned values as
 * the provider had them, for the field tables' rules (src/fields/changes.ts).
 */
export function withUnknowns(after: JsonValue | undefined, unknown: JsonValue | undefined): unknown {
  if (unknown === true) return UNKNOWN_VALUE;
  if (Array.isArray(unknown)) {
    const list = Array.isArray(after) ? after : [];
    return Array.from({ length: Math.max(list.length, unknown.length) }, (_, i) => withUnknowns(list[i], unknown[i]));
  }
  if (isObject(unknown)) {
    const obj: Record<string, unknown> = isObject(after) ? { ...after } : {};
    for (const [k, u] of Object.entries(unknown)) obj[k] = withUnknowns(isObject(after) ? after[k] : undefined, u);
    return obj;
  }
  return after;
}
