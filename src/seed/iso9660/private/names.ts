/** File and directory identifiers of the primary (ISO 9660 level 1) and Joliet trees, and their sort order. */
import type { TreeNode } from './tree';
import { compareCodeUnits } from '../../private/order';

const D_CHAR = /[A-Z0-9_]/;
const LEVEL1_NAME = 8;
const LEVEL1_EXT = 3;

function toDChars(text: string): string {
  let out = '';
  for (const ch of text.toUpperCase()) out += D_CHAR.test(ch) ? ch : '_';
  return out;
}

/**
 * Level-1 identifier candidates for one node (ECMA-119 7.5.1, 7.6.1, 10.1): d-characters only (other characters
 * become '_', letters upper-cased); a file is `NAME.EXT;1` with at most 8 + 3 characters (the '.' is always
 * written), a directory is at most 8 characters. `suffix` (for uniqueness) replaces the name's tail.
 */
function level1Id(node: TreeNode, suffix: string): string {
  if (node.kind === 'dir') {
    const base = toDChars(node.name) || '_';
    return base.slice(0, LEVEL1_NAME - suffix.length) + suffix;
  }
  const dot = node.name.lastIndexOf('.');
  const rawBase = dot > 0 ? node.name.slice(0, dot) : node.name;
  const rawExt = dot > 0 ? node.name.slice(dot + 1) : '';
  const base = toDChars(rawBase) || '_';
  const ext = toDChars(rawExt).slice(0, LEVEL1_EXT);
  return `${base.slice(0, LEVEL1_NAME - suffix.length)}${suffix}.${ext};1`;
}

/**
 * Gives each child of one directory a unique level-1 identifier. Children are taken in UTF-16 order of their
 * real names; a clash gets a decimal counter in place of the name's last characters (`META_DA1.;1`).
 * Deterministic: the same set of names always gets the same identifiers.
 */
export function assignLevel1Ids(children: readonly TreeNode[]): Map<TreeNode, string> {
  const ordered = [...children].sort((a, b) => compareCodeUnits(a.name, b.name));
  const used = new Set<string>();
  const ids = new Map<TreeNode, string>();
  for (const node of ordered) {
    let id = level1Id(node, '');
    for (let n = 1; used.has(id); n++) id = level1Id(node, String(n));
    used.add(id);
    ids.set(node, id);
  }
  return ids;
}

/** Joliet identifier (Joliet 3.3): the name itself, no version suffix (as genisoimage and xorrisofs write). */
export function jolietId(node: TreeNode): string {
  return node.name;
}

function splitId(id: string): [string, string, number] {
  const semi = id.lastIndexOf(';');
  const version = semi >= 0 ? Number(id.slice(semi + 1)) || 0 : 0;
  const nameExt = semi >= 0 ? id.slice(0, semi) : id;
  const dot = nameExt.lastIndexOf('.');
  return dot >= 0 ? [nameExt.slice(0, dot), nameExt.slice(dot + 1), version] : [nameExt, '', version];
}

function comparePadded(a: string, b: string): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const ca = i < a.length ? a.charCodeAt(i) : 0x20;
    const cb = i < b.length ? b.charCodeAt(i) : 0x20;
    if (ca !== cb) return ca - cb;
  }
  return 0;
}

/**
 * Order of identifiers within a directory and in the path table (ECMA-119 9.3, 6.9.1): by name, then by
 * extension, the shorter padded with spaces, by code value; then by version, highest first. Applied to Joliet
 * identifiers by UCS-2 code value.
 */
export function compareIds(a: string, b: string): number {
  const [na, ea, va] = splitId(a);
  const [nb, eb, vb] = splitId(b);
  return comparePadded(na, nb) || comparePadded(ea, eb) || vb - va;
}
