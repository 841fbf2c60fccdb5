/**
 * The image layout, computed before any byte is written: identifiers, record sizes, and the sector of every
 * directory, path table, continuation area and file. Sector map (ECMA-119 6.2, 6.7):
 *
 *   0–15 system area · 16 primary VD · 17 Joliet SVD · 18 terminator · L, M path tables (primary) ·
 *   L, M path tables (Joliet) · primary directories · Joliet directories · SUSP continuation areas · file data
 */
import {
  DIR_RECORD_HEADER,
  DIR_RECORD_MAX,
  FIRST_DESCRIPTOR_SECTOR,
  FLAG_DIRECTORY,
  MAX_IMAGE_BYTES,
  RR_DIR_MODE,
  RR_FILE_MODE,
  SECTOR_SIZE,
} from './constants';
import { utf16be } from './fields';
import { assignLevel1Ids, compareIds, jolietId } from './names';
import { CE_LENGTH, erEntry, nmEntry, pxEntry, spEntry } from './susp';
import type { DirNode, FileNode, TreeNode } from './tree';

/** Where a continuation area (SUSP 1.12 5.1) lies, relative to the first continuation sector. */
export interface ContinuationPlan {
  readonly bytes: Uint8Array;
  readonly sector: number;
  readonly offset: number;
}

export interface RecordPlan {
  /** File Identifier bytes (ECMA-119 9.1.11): 0x00 for ".", 0x01 for "..". */
  readonly id: Uint8Array;
  readonly flags: number;
  readonly target: DirPlan | FileNode;
  /** System Use entries written in the record itself (the CE entry, if any, is added when writing). */
  readonly systemUse: Uint8Array[];
  readonly continuation?: ContinuationPlan;
  /** Total record length, even, ≤ 254. */
  readonly length: number;
  /** Byte offset of the record in its directory's extent. */
  readonly offset: number;
}

export interface DirPlan {
  readonly node: DirNode;
  /** Directory Identifier for the path table (ECMA-119 9.4.5); 0x00 for the root. */
  readonly id: Uint8Array;
  /** Directory number (ECMA-119 9.4.6): position in the path table, from 1. */
  readonly number: number;
  readonly parent: DirPlan;
  records: RecordPlan[];
  sectors: number;
  extent: number;
}

export interface PathTablePlan {
  readonly size: number;
  readonly lExtent: number;
  readonly mExtent: number;
}

export interface ImagePlan {
  readonly primaryDirs: DirPlan[];
  readonly jolietDirs: DirPlan[];
  readonly primaryPathTable: PathTablePlan;
  readonly jolietPathTable: PathTablePlan;
  readonly continuationExtent: number;
  readonly continuations: ContinuationPlan[];
  readonly files: FileNode[];
  readonly fileExtents: Map<FileNode, number>;
  readonly totalSectors: number;
}

const sectorsFor = (bytes: number) => Math.ceil(bytes / SECTOR_SIZE);
const ascii = (text: string) => Uint8Array.from(text, (ch) => ch.charCodeAt(0));
const DOT = Uint8Array.of(0);
const DOTDOT = Uint8Array.of(1);

type Naming = (children: readonly TreeNode[]) => Map<TreeNode, Uint8Array>;

const primaryNaming: Naming = (children) => {
  const ids = assignLevel1Ids(children);
  const sorted = [...ids].sort(([, a], [, b]) => compareIds(a, b));
  return new Map(sorted.map(([node, id]) => [node, ascii(id)]));
};

const jolietNaming: Naming = (children) => {
  const sorted = children.map((node) => [node, jolietId(node)] as const).sort(([, a], [, b]) => compareIds(a, b));
  return new Map(sorted.map(([node, id]) => [node, utf16be(id)]));
};

interface TreePlan {
  dirs: DirPlan[];
  /** Each directory's children with identifiers, in directory-record order. */
  children: Map<DirPlan, Map<TreeNode, Uint8Array>>;
}

/** Path-table order (ECMA-119 6.9.1): breadth-first, children in identifier order. */
function planTree(root: DirNode, naming: Naming): TreePlan {
  const rootPlan = { node: root, id: DOT, number: 1, records: [], sectors: 0, extent: 0 } as unknown as DirPlan;
  (rootPlan as { parent: DirPlan }).parent = rootPlan;
  const dirs: DirPlan[] = [rootPlan];
  const children = new Map<DirPlan, Map<TreeNode, Uint8Array>>();
  for (let i = 0; i < dirs.length; i++) {
    const dir = dirs[i];
    const named = naming([...dir.node.children.values()]);
    children.set(dir, named);
    for (const [node, id] of named) {
      if (node.kind === 'dir') {
        dirs.push({ node, id, number: dirs.length + 1, parent: dir, records: [], sectors: 0, extent: 0 });
      }
    }
  }
  return { dirs, children };
}

const subdirCount = (dir: DirNode) => [...dir.children.values()].filter((c) => c.kind === 'dir').length;
const dirPx = (dir: DirNode) => pxEntry(RR_DIR_MODE, 2 + subdirCount(dir), 0, 0);

/** Places continuation areas so that none crosses a block boundary. */
class ContinuationAllocator {
  readonly areas: ContinuationPlan[] = [];
  private sector = 0;
  private offset = 0;

  place(bytes: Uint8Array): ContinuationPlan {
    if (this.offset + bytes.length > SECTOR_SIZE) {
      this.sector++;
      this.offset = 0;
    }
    const plan = { bytes, sector: this.sector, offset: this.offset };
    this.offset += bytes.length;
    this.areas.push(plan);
    return plan;
  }

  get sectors(): number {
    return this.areas.length ? this.sector + 1 : 0;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Sizes one record (ECMA-119 9.1): header, identifier, padding byte when the identifier length is even, then
 * System Use entries. Entries that do not fit in 254 bytes move, from the last one backwards, to a continuation
 * area reached through a CE entry (SUSP 1.12 5.1).
 */
function sizeRecord(idLength: number, entries: Uint8Array[], continuations: ContinuationAllocator) {
  const base = DIR_RECORD_HEADER + idLength + (idLength % 2 === 0 ? 1 : 0);
  const inline = [...entries];
  const moved: Uint8Array[] = [];
  const used = () => base + inline.reduce((n, e) => n + e.length, 0);
  if (used() > DIR_RECORD_MAX) {
    while (inline.length && used() + CE_LENGTH > DIR_RECORD_MAX) moved.unshift(inline.pop() as Uint8Array);
  }
  const continuation = moved.length ? continuations.place(concat(moved)) : undefined;
  const raw = used() + (continuation ? CE_LENGTH : 0);
  return { systemUse: inline, continuation, length: raw + (raw % 2) };
}

/** Lays out records in an extent: a record never crosses a sector boundary (ECMA-119 6.8.1.1). */
interface RecordSpec {
  id: Uint8Array;
  flags: number;
  target: DirPlan | FileNode;
  entries: Uint8Array[];
}

function placeRecords(dir: DirPlan, specs: RecordSpec[], continuations: ContinuationAllocator): void {
  let offset = 0;
  dir.records = specs.map((spec) => {
    const sized = sizeRecord(spec.id.length, spec.entries, continuations);
    const inSector = offset % SECTOR_SIZE;
    if (inSector + sized.length > SECTOR_SIZE) offset += SECTOR_SIZE - inSector;
    const record: RecordPlan = { id: spec.id, flags: spec.flags, target: spec.target, ...sized, offset };
    offset += sized.length;
    return record;
  });
  dir.sectors = Math.max(1, sectorsFor(offset));
}

function recordSpecs(tree: TreePlan, dir: DirPlan, rockRidge: boolean): RecordSpec[] {
  const byNode = new Map(tree.dirs.map((d) => [d.node as TreeNode, d]));
  const rr = (entries: () => Uint8Array[]) => (rockRidge ? entries() : []);
  const isRoot = dir.parent === dir;
  const specs: RecordSpec[] = [
    {
      id: DOT,
      flags: FLAG_DIRECTORY,
      target: dir,
      entries: rr(() => (isRoot ? [spEntry(), dirPx(dir.node), erEntry()] : [dirPx(dir.node)])),
    },
    { id: DOTDOT, flags: FLAG_DIRECTORY, target: dir.parent, entries: rr(() => [dirPx(dir.parent.node)]) },
  ];
  for (const [node, id] of tree.children.get(dir) ?? []) {
    if (node.kind === 'dir') {
      specs.push({ id, flags: FLAG_DIRECTORY, target: byNode.get(node) as DirPlan, entries: rr(() => [dirPx(node), nmEntry(node.name)]) });
    } else {
      specs.push({ id, flags: 0, target: node, entries: rr(() => [pxEntry(RR_FILE_MODE, 1, 0, 0), nmEntry(node.name)]) });
    }
  }
  return specs;
}

/** Path table size (ECMA-119 9.4): 8 bytes + identifier + padding to even, per directory. */
function pathTableSize(dirs: readonly DirPlan[]): number {
  return dirs.reduce((n, d) => n + 8 + d.id.length + (d.id.length % 2), 0);
}

/**
 * Computes the whole layout of the image of `root`.
 * @throws Error when the image would reach 4 GiB (block addresses and sizes are 32-bit, ECMA-119 7.3.3).
 */
export function planImage(root: DirNode): ImagePlan {
  const primary = planTree(root, primaryNaming);
  const joliet = planTree(root, jolietNaming);
  const continuations = new ContinuationAllocator();
  for (const dir of primary.dirs) placeRecords(dir, recordSpecs(primary, dir, true), continuations);
  for (const dir of joliet.dirs) placeRecords(dir, recordSpecs(joliet, dir, false), continuations);

  let next = FIRST_DESCRIPTOR_SECTOR + 3;
  const allocate = (sectors: number) => {
    const at = next;
    next += sectors;
    return at;
  };
  const pathTable = (dirs: DirPlan[]): PathTablePlan => {
    const size = pathTableSize(dirs);
    return { size, lExtent: allocate(sectorsFor(size)), mExtent: allocate(sectorsFor(size)) };
  };
  const primaryPathTable = pathTable(primary.dirs);
  const jolietPathTable = pathTable(joliet.dirs);
  for (const dir of [...primary.dirs, ...joliet.dirs]) dir.extent = allocate(dir.sectors);
  const continuationExtent = allocate(continuations.sectors);

  const files: FileNode[] = [];
  for (const dir of primary.dirs) {
    for (const record of dir.records) if ('content' in record.target) files.push(record.target);
  }
  const fileExtents = new Map<FileNode, number>();
  for (const file of files) {
    // An empty file has no extent; its Location of Extent is 0 (ECMA-119 9.1.3 is silent; readers ignore it).
    fileExtents.set(file, file.content.length ? allocate(sectorsFor(file.content.length)) : 0);
    if (next * SECTOR_SIZE > MAX_IMAGE_BYTES) {
      throw new Error(`ISO image too large: adding "${file.path}" makes it over 4 GiB (ISO 9660 block numbers and sizes are 32-bit)`);
    }
  }
  return {
    primaryDirs: primary.dirs,
    jolietDirs: joliet.dirs,
    primaryPathTable,
    jolietPathTable,
    continuationExtent,
    continuations: continuations.areas,
    files,
    fileExtents,
    totalSectors: next,
  };
}
