import { SECTOR_SIZE } from './private/constants';
import { fromUtf16be } from './private/fields';
import {
  type DirectoryRecord,
  isDirectory,
  isMultiExtent,
  isSelfOrParent,
  need,
  readDirectory,
  readSystemUse,
  readVolumes,
} from './private/parse';
import type { Extent } from './private/records';
import type { ReadIsoResult, SeedFile } from './types';
import { byPath } from '../private/order';

type Naming = (record: DirectoryRecord) => { name: string; skip?: boolean; childLink?: number } | undefined;

const MAX_DEPTH = 64;
const stripVersion = (id: string) => id.replace(/;\d*$/, '');
const plainName = (record: DirectoryRecord) => stripVersion(String.fromCharCode(...record.id)).replace(/\.$/, '');

function walk(image: Uint8Array, dir: Extent, prefix: string, naming: Naming, out: SeedFile[], seen: Set<number>, depth: number): void {
  if (depth > MAX_DEPTH || seen.has(dir.block)) throw new Error(`Invalid ISO image: directory loop at block ${dir.block}`);
  seen.add(dir.block);
  let pending: { name: string; parts: Uint8Array[] } | undefined;
  for (const record of readDirectory(image, dir)) {
    if (isSelfOrParent(record)) continue;
    const named = pending ? { name: pending.name } : naming(record);
    if (!named || named.skip) continue;
    const path = prefix + named.name;
    if (named.childLink !== undefined) {
      const self = readDirectory(image, { block: named.childLink, size: SECTOR_SIZE })[0];
      walk(image, { block: named.childLink, size: self?.extent.size ?? SECTOR_SIZE }, `${path}/`, naming, out, seen, depth + 1);
    } else if (isDirectory(record)) {
      walk(image, record.extent, `${path}/`, naming, out, seen, depth + 1);
    } else {
      const start = record.extent.block * SECTOR_SIZE;
      need(image, start, record.extent.size, `content of "${path}"`);
      const part = image.subarray(start, start + record.extent.size);
      const parts = [...(pending?.parts ?? []), part];
      if (isMultiExtent(record)) {
        pending = { name: named.name, parts };
        continue;
      }
      pending = undefined;
      out.push({ path, content: parts.length === 1 ? part.slice() : new Uint8Array(Buffer.concat(parts)) });
    }
  }
  seen.delete(dir.block);
}

/**
 * Reads the regular files of an ISO 9660 image: ours, or one made by genisoimage/mkisofs or xorriso.
 * Names come from Rock Ridge NM entries when the root's "." record carries SUSP SP and Rock Ridge entries (SUSP
 * 1.12 5.3, RRIP 1.12 4.1.4; CL/RE relocations followed, symbolic links skipped), else from the Joliet tree
 * (UCS-2, Joliet 3.3), else from the primary tree (ECMA-119 7.5, version `;1` and a trailing '.' removed).
 * Multi-extent files (ECMA-119 6.5.1) are joined. Empty directories are not listed.
 * @returns the PVD volume id (trailing spaces removed) and the files sorted by path; contents are copies.
 * @throws Error when the image is not ISO 9660, or a structure points beyond the image or loops.
 */
export function readIso(image: Uint8Array): ReadIsoResult {
  const volumes = readVolumes(image);
  const rootRecords = readDirectory(image, volumes.primaryRoot);
  const rootInfo = rootRecords.length ? readSystemUse(image, rootRecords[0].systemUse, 0) : undefined;
  const rockRidge = rootInfo?.skip !== undefined && (rootInfo.extensions.length > 0 || rootInfo.hasRockRidgeEntries);
  const files: SeedFile[] = [];
  if (rockRidge) {
    const skip = rootInfo?.skip ?? 0;
    const naming: Naming = (record) => {
      const rr = readSystemUse(image, record.systemUse, skip);
      if (rr.relocated || rr.symlink) return { name: '', skip: true };
      return { name: rr.name ?? plainName(record), childLink: rr.childLink };
    };
    walk(image, volumes.primaryRoot, '', naming, files, new Set(), 0);
  } else if (volumes.jolietRoot) {
    walk(image, volumes.jolietRoot, '', (record) => ({ name: stripVersion(fromUtf16be(record.id)) }), files, new Set(), 0);
  } else {
    walk(image, volumes.primaryRoot, '', (record) => ({ name: plainName(record) }), files, new Set(), 0);
  }
  files.sort(byPath);
  return { volumeId: volumes.volumeId, files };
}
