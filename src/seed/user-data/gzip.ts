/** Deterministic gzip of user-data (cloud-init decompresses gzip user-data: magic 1f 8b). */
import { gzipSync } from 'node:zlib';

/** gzip with level 9; Node's zlib writes mtime 0 and no file name, so the output depends only on the input
 *  (and the zlib build). */
export function gzipDeterministic(data: Uint8Array): Uint8Array {
  return new Uint8Array(gzipSync(data, { level: 9 }));
}
