import { error, ValidationError } from '../../diagnostics';
import { planImage } from './private/layout';
import { buildTree } from './private/tree';
import { writeImage } from './private/write';
import type { BuildIsoOptions, IsoInputFile } from './types';

const LABEL = /^[\x21-\x7e](?:[\x20-\x7e]{0,30}[\x21-\x7e])?$/;
const SYSTEM_ID = /^[\x20-\x7e]{0,32}$/;

/**
 * Builds an ISO 9660 image of `files`, as `genisoimage -J -r` would, byte-for-byte deterministic:
 * - primary volume descriptor (ECMA-119 8.4) with level-1 identifiers (`META_DAT.;1`, 8.3 d-characters, unique
 *   per directory), Joliet supplementary descriptor (escape `%/E`, exact names as UCS-2),
 *   terminator (8.3); L and M path tables for both trees (9.4), in path table order (6.9.1);
 * - Rock Ridge in the primary tree: SP and ER (`RRIP_1991A`, via a CE continuation area) in the root's "."
 *   record (SUSP 1.12 5.3, 5.5, 5.1), PX (mode 0444 files / 0555 directories, uid/gid 0; RRIP 1.12 4.1.1) and
 *   NM with the exact name (RRIP 1.12 4.1.4) on every record;
 * - every date is 1970-01-01 00:00:00 GMT; records sorted per ECMA-119 9.3; file data in path-table order.
 *
 * Returns the image bytes (a multiple of 2048). File contents are copied (or, for a `FileContent`, written) once
 * into a single buffer: a new one, or the one `opts.output` allocates (then written front to back, each finished
 * prefix reported to `opts.output.final`).
 * @throws ValidationError (an Error whose message names `volumeId` or the file path) for an invalid volume id or
 *   system id, an empty path or path segment, a `.`/`..` segment, a duplicate path, a name over 64 UCS-2
 *   characters or with a character Joliet forbids, more than 8 directory levels, a file of 4 GiB or more.
 * @throws Error when the image would exceed 4 GiB.
 */
export function buildIso(files: readonly IsoInputFile[], opts: BuildIsoOptions): Uint8Array {
  const systemId = opts.systemId ?? '';
  if (typeof opts.volumeId !== 'string' || !LABEL.test(opts.volumeId)) {
    throw new ValidationError([
      error(
        ['volumeId'],
        'Invalid volume id',
        `Got ${JSON.stringify(opts.volumeId)}; expected 1 to 32 printable ASCII characters without leading or trailing spaces, e.g. "cidata".`,
      ),
    ]);
  }
  if (!SYSTEM_ID.test(systemId)) {
    throw new ValidationError([
      error(['systemId'], 'Invalid system id', `Got ${JSON.stringify(systemId)}; expected at most 32 printable ASCII characters.`),
    ]);
  }
  return writeImage(planImage(buildTree(files)), opts.volumeId, systemId, opts.output);
}
