/** sha256 helpers. */
import { createHash } from 'node:crypto';

/** Lower-case hex sha256 of the bytes (or the UTF-8 encoding of a string). */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
