/** Deterministic gzip of user-data (cloud-init decompresses gzip user-data: magic 1f 8b). */
import type * as Zlib from 'node:zlib';

/** gzip with level 9; Node's zlib writes mtime 0 and no file name, so the output depends only on the input
 *  (and the zlib build). */
export function gzipDeterministic(data: Uint8Array): Uint8Array {
  // node:zlib is loaded only when user-data is gzipped (start-up time, issue #25)
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: node:zlib loads only when user-data is gzipped (issue #25)
  return new Uint8Array((require('node:zlib') as typeof Zlib).gzipSync(data, { level: 9 }));
}
