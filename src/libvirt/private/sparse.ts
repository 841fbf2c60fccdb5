/**
 * Hole detection for sparse stream uploads (libvirt VIR_STORAGE_VOL_UPLOAD_SPARSE_STREAM): a byte source becomes
 * a sequence of data chunks and holes, where a hole is a run of whole all-zero blocks. Writing a hole on the
 * daemon seeks instead of writing, so a regular file target stays unallocated there. Zero blocks are what matters
 * for allocation, whatever the source file's own holes are (Node has no SEEK_DATA/SEEK_HOLE).
 */

/** A run of `hole` zero bytes that the daemon skips instead of writing. */
export interface Hole {
  readonly hole: number;
}

/** What a sparse upload sends: data bytes, or a hole. */
export type StreamSegment = Uint8Array | Hole;

/** Detection granularity in bytes: the usual file system block (allocation happens per block). */
export const HOLE_BLOCK_SIZE = 4096;

export function isHole(segment: StreamSegment): segment is Hole {
  return !(segment instanceof Uint8Array);
}

/** True when `bytes[start, end)` are all zero. Checks the ends first so dense data is rejected at once. */
export function isZero(bytes: Uint8Array, start: number, end: number): boolean {
  if (start >= end) return true;
  if (bytes[start] !== 0 || bytes[end - 1] !== 0) return false;
  let zeros = ZEROS;
  if (end - start > zeros.length) zeros = ZEROS = Buffer.alloc(end - start);
  const view = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
  return view.equals(zeros.subarray(0, end - start)); // memcmp
}

/** Zero bytes compared against (grown on demand, never written). */
let ZEROS = Buffer.alloc(HOLE_BLOCK_SIZE);

/**
 * Splits one chunk into alternating data and zero runs at `blockSize` granularity (block boundaries counted from
 * the chunk's start; a last partial block counts like a whole one). Returns `[start, end, zero]` triples covering
 * the chunk in order, adjacent runs of the same kind merged.
 */
export function zeroRuns(chunk: Uint8Array, blockSize = HOLE_BLOCK_SIZE): [number, number, boolean][] {
  if (!Number.isInteger(blockSize) || blockSize <= 0) throw new RangeError(`block size must be a positive integer, got ${blockSize}`);
  const runs: [number, number, boolean][] = [];
  for (let start = 0; start < chunk.length; start += blockSize) {
    const end = Math.min(start + blockSize, chunk.length);
    const zero = isZero(chunk, start, end);
    const last = runs[runs.length - 1];
    if (last && last[2] === zero) last[1] = end;
    else runs.push([start, end, zero]);
  }
  return runs;
}

/**
 * Turns chunks (as the stream packets will carry them) into segments: data pieces (views of the chunks, not
 * copies) and holes, adjacent holes merged across chunks. Total length is preserved.
 */
export async function* toSparseSegments(
  chunks: AsyncIterable<Uint8Array>,
  blockSize = HOLE_BLOCK_SIZE,
): AsyncGenerator<StreamSegment, void, undefined> {
  let pendingHole = 0;
  for await (const chunk of chunks) {
    for (const [start, end, zero] of zeroRuns(chunk, blockSize)) {
      if (zero) {
        pendingHole += end - start;
        continue;
      }
      if (pendingHole > 0) {
        yield { hole: pendingHole };
        pendingHole = 0;
      }
      yield chunk.subarray(start, end);
    }
  }
  if (pendingHole > 0) yield { hole: pendingHole };
}

/** Every chunk as a data segment (a dense upload). */
export async function* toDenseSegments(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<StreamSegment, void, undefined> {
  yield* chunks;
}
