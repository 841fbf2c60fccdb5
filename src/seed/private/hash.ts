/** sha256 helpers. node:crypto is loaded on first use: a seed built from cloud-localds's arguments needs no hash,
 *  and loading it costs every `virtseed seed build` process a few ms (start-up time, issue #25). */
import type * as Crypto from 'node:crypto';

let crypto: typeof Crypto | undefined;

/** A new sha256 hash (node:crypto's `createHash('sha256')`). */
export function createSha256(): Crypto.Hash {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: loaded when a hash is first needed (issue #25)
  crypto ??= require('node:crypto') as typeof Crypto;
  return crypto.createHash('sha256');
}

/** Lower-case hex sha256 of the bytes (or the UTF-8 encoding of a string). */
export function sha256Hex(data: Uint8Array | string): string {
  return createSha256().update(data).digest('hex');
}
