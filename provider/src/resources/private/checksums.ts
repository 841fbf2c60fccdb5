/**
 * Verified cloud images: a distribution's checksum file (GNU coreutils `sha256sum`/`sha512sum` output as in
 * `SHA256SUMS`/`SHA512SUMS`, or the BSD tagged form `SHA256 (name) = hex` as in Fedora's `CHECKSUM`), optionally
 * signed with OpenPGP (RFC 9580; a detached signature such as `SHA256SUMS.gpg`, or a clearsigned checksum file),
 * read for the entry of the image's file name. The parsing is pure; fetching and the signature check use the
 * network and OpenPGP.js (the `openpgp` package, loaded on first use).
 *
 * Messages name files by their name (the last path step of the URL), never the whole URL: a URL may carry
 * credentials.
 */
import type * as OpenPGP from 'openpgp';
import { openSource } from './image-source';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, for start-up time (issue #15)
const openpgp = (): typeof OpenPGP => require('openpgp') as typeof OpenPGP;

/** The digests a checksum file may list. */
export type DigestAlgorithm = 'sha256' | 'sha512';

/** Hex digits of each algorithm's digest. */
const HEX_LENGTH: Record<DigestAlgorithm, number> = { sha256: 64, sha512: 128 };

/** One line of a checksum file. `algorithm` is set by the BSD form's tag, or guessed from the digest's length. */
export interface ChecksumEntry {
  readonly name: string;
  readonly algorithm: DigestAlgorithm;
  /** Lowercase hex. */
  readonly digest: string;
}

/** What a checksum file says about one file: its name, the algorithm and the expected digest (lowercase hex). */
export interface ExpectedDigest {
  readonly fileName: string;
  readonly algorithm: DigestAlgorithm;
  readonly digest: string;
}

/** Thrown when a checksum file or its signature does not give a digest for the image (the message says why). */
export class ChecksumFileError extends Error {
  constructor(
    /** What is wrong: the checksum file (`checksum`), or its signature (`signature`). */
    readonly part: 'checksum' | 'signature',
    message: string,
  ) {
    super(message);
    this.name = 'ChecksumFileError';
  }
}

function algorithmOfLength(hex: string): DigestAlgorithm | undefined {
  return hex.length === 64 ? 'sha256' : hex.length === 128 ? 'sha512' : undefined;
}

/**
 * The entries of a checksum file: `HEX  NAME` and `HEX *NAME` (coreutils, text and binary mode) and
 * `SHA256 (NAME) = HEX` / `SHA512 (NAME) = HEX` (BSD tags). Blank lines, comments (`#`) and lines of other
 * digests are skipped. Pure.
 */
export function parseChecksumFile(text: string): ChecksumEntry[] {
  const out: ChecksumEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const bsd = /^(SHA256|SHA512) \((.+)\) = ([0-9A-Fa-f]+)$/.exec(line);
    if (bsd) {
      const algorithm = bsd[1]!.toLowerCase() as DigestAlgorithm;
      if (bsd[3]!.length === HEX_LENGTH[algorithm]) out.push({ name: bsd[2]!, algorithm, digest: bsd[3]!.toLowerCase() });
      continue;
    }
    const gnu = /^([0-9A-Fa-f]+) [ *](.+)$/.exec(line);
    const algorithm = gnu ? algorithmOfLength(gnu[1]!) : undefined;
    if (gnu && algorithm) out.push({ name: gnu[2]!, algorithm, digest: gnu[1]!.toLowerCase() });
  }
  return out;
}

/** The name a checksum file lists an image under: the last path step of its URL or path, percent-decoded. */
export function fileNameOf(source: string): string {
  const path = /^https?:\/\//i.test(source) ? new URL(source).pathname : source;
  const last = path.replace(/\/+$/, '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * The entry for `fileName` (also matched as `./name` or any `dir/name` path), of `algorithm` when given.
 * @throws ChecksumFileError naming the checksum file, the file looked for and some names it does list.
 */
export function entryFor(
  entries: readonly ChecksumEntry[],
  fileName: string,
  checksumFile: string,
  algorithm?: DigestAlgorithm,
): ExpectedDigest {
  const base = (n: string) => n.split('/').pop() ?? n;
  const candidates = entries.filter((e) => (e.name === fileName || base(e.name) === fileName) && (!algorithm || e.algorithm === algorithm));
  const found = candidates[0];
  if (!found) {
    const listed = entries.slice(0, 5).map((e) => e.name);
    throw new ChecksumFileError(
      'checksum',
      `${checksumFile} has no ${algorithm ?? 'sha256 or sha512'} entry for ${fileName}` +
        (listed.length
          ? ` (it lists ${listed.join(', ')}${entries.length > 5 ? ', ...' : ''})`
          : ' (it lists no sha256 or sha512 digests)') +
        '. Check that checksum_url is the checksum file published beside the image, and checksum_algorithm.',
    );
  }
  return { fileName, algorithm: found.algorithm, digest: found.digest };
}

/** True when `text` is an OpenPGP cleartext signed message (RFC 9580 section 7). */
function isClearsigned(text: string): boolean {
  return text.trimStart().startsWith('-----BEGIN PGP SIGNED MESSAGE-----');
}

/**
 * Checks the OpenPGP signature of a checksum file with the armored public key `armoredKey`: the detached
 * `signature` (armored or binary) over `checksumBytes`, or, without one, the file's own clearsigned signature.
 * Returns the signed text (the checksum lines). Throws ChecksumFileError (part `signature`) naming `checksumFile`
 * and what OpenPGP.js found wrong.
 */
export async function verifySignature(
  checksumBytes: Uint8Array,
  checksumFile: string,
  armoredKey: string,
  signature?: { bytes: Uint8Array; file: string },
): Promise<string> {
  const pgp = openpgp();
  let key: OpenPGP.PublicKey;
  try {
    key = await pgp.readKey({ armoredKey });
  } catch (err) {
    throw new ChecksumFileError('signature', `signature_key is not an armored OpenPGP public key: ${messageOf(err)}`);
  }
  const text = Buffer.from(checksumBytes).toString('utf8');
  try {
    if (signature) {
      const sigText = Buffer.from(signature.bytes).toString('latin1');
      const sig = sigText.includes('-----BEGIN PGP SIGNATURE-----')
        ? await pgp.readSignature({ armoredSignature: sigText })
        : await pgp.readSignature({ binarySignature: signature.bytes });
      const message = await pgp.createMessage({ binary: checksumBytes });
      const result = await pgp.verify({ message, signature: sig, verificationKeys: key, expectSigned: true, format: 'binary' });
      await result.signatures[0]?.verified;
      return text;
    }
    if (!isClearsigned(text))
      throw new ChecksumFileError(
        'signature',
        `${checksumFile} is not clearsigned and no signature_url was given: give the detached signature's URL (e.g. ${checksumFile}.gpg or .sign).`,
      );
    const message = await pgp.readCleartextMessage({ cleartextMessage: text });
    const result = await pgp.verify({ message, verificationKeys: key, expectSigned: true });
    await result.signatures[0]?.verified;
    return String(result.data);
  } catch (err) {
    if (err instanceof ChecksumFileError) throw err;
    const of = signature ? `the signature ${signature.file} of ${checksumFile}` : `the clearsigned ${checksumFile}`;
    throw new ChecksumFileError('signature', `${of} does not verify with signature_key (${key.getKeyID().toHex()}): ${messageOf(err)}`);
  }
}

/** Reads a local file or http(s) URL whole (checksum files and signatures are small). */
async function readAll(location: string, signal?: AbortSignal): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of await openSource(location, signal)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

/** Where the expected digest of a source comes from. */
export interface ChecksumSource {
  /** The checksum file (URL or local path). */
  readonly checksumUrl: string;
  /** Which entry to take when the file lists several digests of the image. */
  readonly algorithm?: DigestAlgorithm;
  /** The detached signature of the checksum file (URL or local path). */
  readonly signatureUrl?: string;
  /** Armored OpenPGP public key: when given, the checksum file must be signed by it. */
  readonly signatureKey?: string;
}

/**
 * The digest the checksum file lists for `source`'s file name, after checking its signature when a key is given.
 * Throws ChecksumFileError (the message names the files and the problem), or Error when a file cannot be read.
 */
export async function expectedDigest(source: string, from: ChecksumSource, signal?: AbortSignal): Promise<ExpectedDigest> {
  const checksumFile = fileNameOf(from.checksumUrl);
  const bytes = await readAll(from.checksumUrl, signal).catch((err: unknown) => {
    throw new ChecksumFileError('checksum', `cannot read the checksum file ${checksumFile}: ${messageOf(err)}`);
  });
  let text = Buffer.from(bytes).toString('utf8');
  if (from.signatureKey) {
    let signature: { bytes: Uint8Array; file: string } | undefined;
    if (from.signatureUrl) {
      const file = fileNameOf(from.signatureUrl);
      const sig = await readAll(from.signatureUrl, signal).catch((err: unknown) => {
        throw new ChecksumFileError('signature', `cannot read the signature ${file}: ${messageOf(err)}`);
      });
      signature = { bytes: sig, file };
    }
    text = await verifySignature(bytes, checksumFile, from.signatureKey, signature);
  }
  return entryFor(parseChecksumFile(text), fileNameOf(source), checksumFile, from.algorithm);
}

/** The shared cache volume of a verified image in a pool: named by its digest, so every volume on it finds it. */
export function cacheVolumeName(d: { algorithm: DigestAlgorithm; digest: string }): string {
  return `virtseed-image-${d.algorithm}-${d.digest}`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
