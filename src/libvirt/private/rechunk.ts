/**
 * Regroups an async byte source into chunks of exactly `size` bytes (the last may be shorter), pulling from
 * the source only as fast as the consumer takes chunks, so a multi-GB source is never buffered whole.
 */
export async function* rechunk(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array, void, undefined> {
  if (!Number.isInteger(size) || size <= 0) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    let rest = piece;
    while (rest.length > 0) {
      if (pendingBytes === 0 && rest.length >= size) {
        yield rest.subarray(0, size);
        rest = rest.subarray(size);
        continue;
      }
      const take = Math.min(size - pendingBytes, rest.length);
      pending.push(Buffer.from(rest.subarray(0, take))); // copy: sources may reuse their buffers
      pendingBytes += take;
      rest = rest.subarray(take);
      if (pendingBytes === size) {
        yield Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

/** An async iterable over one in-memory byte array. */
export async function* fromBytes(bytes: Uint8Array): AsyncGenerator<Uint8Array, void, undefined> {
  yield bytes;
}
