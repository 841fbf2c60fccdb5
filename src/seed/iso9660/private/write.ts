/** Writes a planned image into one buffer. */
import { FIRST_DESCRIPTOR_SECTOR, JOLIET_MAX_VOLUME_ID, SECTOR_SIZE } from './constants';
import { writeTerminator, writeVolumeDescriptor } from './descriptors';
import type { IsoOutput } from '../types';
import type { DirPlan, ImagePlan, PathTablePlan, RecordPlan } from './layout';
import { type Extent, writeDirectoryRecord, writePathTable } from './records';
import { ceEntry } from './susp';

function extentOf(plan: ImagePlan, record: RecordPlan): Extent {
  const target = record.target;
  if ('content' in target) return { block: plan.fileExtents.get(target) ?? 0, size: target.content.length };
  return { block: target.extent, size: target.sectors * SECTOR_SIZE };
}

function writeDirectories(bytes: Uint8Array, view: DataView, plan: ImagePlan, dirs: readonly DirPlan[]): void {
  for (const dir of dirs) {
    const base = dir.extent * SECTOR_SIZE;
    for (const record of dir.records) {
      const systemUse = [...record.systemUse];
      const c = record.continuation;
      if (c) systemUse.push(ceEntry(plan.continuationExtent + c.sector, c.offset, c.bytes.length));
      writeDirectoryRecord(bytes, view, base + record.offset, record.length, record.id, record.flags, extentOf(plan, record), systemUse);
    }
  }
}

function writePathTables(view: DataView, table: PathTablePlan, dirs: readonly DirPlan[]): void {
  const entries = dirs.map((d) => ({ id: d.id, block: d.extent, parentNumber: d.parent.number }));
  writePathTable(view, table.lExtent * SECTOR_SIZE, entries, true);
  writePathTable(view, table.mExtent * SECTOR_SIZE, entries, false);
}

/** Bytes of a file's content copied between two progress reports. */
const CHUNK_BYTES = 1024 * 1024;

/** Copies `content` to `bytes` at `offset`; with `written`, in chunks, reporting the bytes copied after each. */
function copyContent(bytes: Uint8Array, offset: number, content: Uint8Array, written?: (n: number) => void): void {
  if (!written) return bytes.set(content, offset);
  for (let at = 0; at < content.length; at += CHUNK_BYTES) {
    const end = Math.min(at + CHUNK_BYTES, content.length);
    bytes.set(content.subarray(at, end), offset + at);
    written(end);
  }
}

/** A new zero-filled buffer of `length` bytes, or the one `output` allocates (checked). */
function allocate(length: number, output?: IsoOutput): Uint8Array {
  if (!output) return new Uint8Array(length);
  const bytes = output.allocate(length);
  if (bytes.length !== length) throw new Error(`IsoOutput.allocate(${length}) returned ${bytes.length} bytes`);
  return bytes;
}

/**
 * Allocates the image buffer (zero-filled; `output.allocate` when given) and writes every structure of `plan`, then
 * the file contents in extent order, copied with `set` (or written by their `writeInto`). Front to back: the
 * structures lie before the first file's extent and files follow in ascending extents, so with `output` each
 * finished prefix is reported to `output.final` (before each file, every MiB or so within one, at the end).
 */
export function writeImage(plan: ImagePlan, volumeId: string, systemId: string, output?: IsoOutput): Uint8Array {
  const bytes = allocate(plan.totalSectors * SECTOR_SIZE, output);
  const view = new DataView(bytes.buffer);
  const descriptor = (dirs: DirPlan[], table: PathTablePlan) => ({
    volumeSpaceSize: plan.totalSectors,
    pathTableSize: table.size,
    lPathTable: table.lExtent,
    mPathTable: table.mExtent,
    root: { block: dirs[0].extent, size: dirs[0].sectors * SECTOR_SIZE },
  });
  writeVolumeDescriptor(
    bytes,
    view,
    FIRST_DESCRIPTOR_SECTOR * SECTOR_SIZE,
    { volumeId, systemId, ...descriptor(plan.primaryDirs, plan.primaryPathTable) },
    false,
  );
  writeVolumeDescriptor(
    bytes,
    view,
    (FIRST_DESCRIPTOR_SECTOR + 1) * SECTOR_SIZE,
    {
      volumeId: volumeId.slice(0, JOLIET_MAX_VOLUME_ID),
      systemId: systemId.slice(0, JOLIET_MAX_VOLUME_ID),
      ...descriptor(plan.jolietDirs, plan.jolietPathTable),
    },
    true,
  );
  writeTerminator(bytes, (FIRST_DESCRIPTOR_SECTOR + 2) * SECTOR_SIZE);
  writePathTables(view, plan.primaryPathTable, plan.primaryDirs);
  writePathTables(view, plan.jolietPathTable, plan.jolietDirs);
  writeDirectories(bytes, view, plan, plan.primaryDirs);
  writeDirectories(bytes, view, plan, plan.jolietDirs);
  for (const area of plan.continuations) {
    bytes.set(area.bytes, (plan.continuationExtent + area.sector) * SECTOR_SIZE + area.offset);
  }
  for (const file of plan.files) {
    if (!file.content.length) continue;
    const offset = (plan.fileExtents.get(file) as number) * SECTOR_SIZE;
    output?.final(offset);
    const written = output && ((n: number) => output.final(offset + n));
    if (file.content instanceof Uint8Array) copyContent(bytes, offset, file.content, written);
    else file.content.writeInto(bytes, offset, written);
  }
  output?.final(bytes.length);
  return bytes;
}
