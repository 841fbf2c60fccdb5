/**
 * The seed size rule (docs/seed-fidelity.md, "Seed size rule").
 *
 * cloud-init's NoCloud and ConfigDrive readers load every seed file whole into memory (`util.load_file`), and
 * user-data is then held several times over: the raw bytes, the decompressed text, the MIME tree, the parsed YAML
 * (PyYAML's pure-Python loader, which cloud-init uses, peaks at about 8–10× the text: measured 158 MiB RSS and
 * 8 s for a 16 MiB cloud-config on the development host, and TCG guests are many times slower), plus the copies it
 * writes under /var/lib/cloud. So:
 * - every seed file cloud-init reads (meta-data, user-data — measured after gzip decompression —, vendor-data,
 *   network-config) may be at most {@link SEED_FILE_MAX_BYTES} (64 MiB: about 600 MiB of guest memory while
 *   cloud-init parses it, what a 1 GiB guest still tolerates);
 * - the seed's files together at most {@link SEED_MAX_BYTES} (128 MiB);
 * - user-data over {@link USER_DATA_WARN_BYTES} (1 MiB) is a warning (slow to parse; a data volume is better).
 * Larger payloads belong on a data volume (`virtseed_volume`), mounted with `mounts`.
 * The checks that apply it: src/seed/checks/size-rule.ts.
 */
import type * as Zlib from 'node:zlib';

/** Largest seed file cloud-init is asked to read (bytes; user-data after decompression). */
export const SEED_FILE_MAX_BYTES = 64 * 1024 * 1024;
/** Largest total of a seed's files (bytes). */
export const SEED_MAX_BYTES = 128 * 1024 * 1024;
/** user-data size above which a warning is given (bytes, after decompression). */
export const USER_DATA_WARN_BYTES = 1024 * 1024;

/** Size of user-data as cloud-init reads it: gzip data decompressed (up to just past the limit). */
export function decompressedLength(bytes: Uint8Array): number {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.length;
  try {
    // node:zlib is loaded only for gzip data (start-up time of the CLI and the provider, issue #25)
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: node:zlib loads only for gzip data (issue #25)
    return (require('node:zlib') as typeof Zlib).gunzipSync(bytes, { maxOutputLength: SEED_FILE_MAX_BYTES + 1 }).length;
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) return SEED_FILE_MAX_BYTES + 1;
    return bytes.length; // not valid gzip: cloud-init passes it on as is
  }
}
