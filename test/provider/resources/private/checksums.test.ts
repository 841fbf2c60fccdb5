/**
 * Checksum files and their OpenPGP signatures (provider/src/resources/private/checksums.ts): the coreutils and BSD
 * forms, the entry for an image's file name, and detached and clearsigned signatures made here with OpenPGP.js by
 * a key the test generates (and one it does not trust).
 */
import * as openpgp from 'openpgp';
import {
  cacheVolumeName,
  ChecksumFileError,
  entryFor,
  fileNameOf,
  parseChecksumFile,
  verifySignature,
} from '../../../../provider/src/resources/private/checksums';

const A = 'ab'.repeat(32);
const B = 'cd'.repeat(64);
const SUMS = Buffer.from(`${A}  disk.qcow2\n${'ef'.repeat(32)} *other.img\n`);

async function key(name: string): Promise<{ publicKey: string; privateKey: openpgp.PrivateKey }> {
  const k = await openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name }], format: 'armored' });
  return { publicKey: k.publicKey, privateKey: await openpgp.readPrivateKey({ armoredKey: k.privateKey }) };
}

async function detached(bytes: Uint8Array, signer: openpgp.PrivateKey): Promise<Buffer> {
  const sig = await openpgp.sign({
    message: await openpgp.createMessage({ binary: bytes }),
    signingKeys: signer,
    detached: true,
    format: 'armored',
  });
  return Buffer.from(sig);
}

describe('parseChecksumFile', () => {
  it('GIVEN coreutils lines in text and binary mode WHEN parsed THEN each name with its sha256', () => {
    expect(parseChecksumFile(SUMS.toString())).toEqual([
      { name: 'disk.qcow2', algorithm: 'sha256', digest: A },
      { name: 'other.img', algorithm: 'sha256', digest: 'ef'.repeat(32) },
    ]);
  });

  it('GIVEN BSD tagged lines, comments and an upper-case sha512 WHEN parsed THEN tags decide the algorithm', () => {
    expect(
      parseChecksumFile(`# Fedora-Cloud CHECKSUM\nSHA256 (f.qcow2) = ${A}\nSHA512 (f.raw) = ${B.toUpperCase()}\nMD5 (f.iso) = 00\n`),
    ).toEqual([
      { name: 'f.qcow2', algorithm: 'sha256', digest: A },
      { name: 'f.raw', algorithm: 'sha512', digest: B },
    ]);
  });
});

describe('entryFor', () => {
  const entries = parseChecksumFile(`${A}  ./disk.qcow2\n${B}  disk.qcow2\n`);

  it('GIVEN a ./name entry WHEN looked up by file name THEN it is found', () => {
    expect(entryFor(entries, 'disk.qcow2', 'SUMS')).toEqual({ fileName: 'disk.qcow2', algorithm: 'sha256', digest: A });
  });

  it('GIVEN an algorithm WHEN looked up THEN the entry of that algorithm', () => {
    expect(entryFor(entries, 'disk.qcow2', 'SUMS', 'sha512').digest).toBe(B);
  });

  it('GIVEN a name the file lacks WHEN looked up THEN ChecksumFileError names the file, the name and what it lists', () => {
    expect(() => entryFor(entries, 'nope.img', 'SHA256SUMS')).toThrow(
      /SHA256SUMS has no sha256 or sha512 entry for nope\.img \(it lists \.\/disk\.qcow2, disk\.qcow2\)/,
    );
  });
});

describe('fileNameOf / cacheVolumeName', () => {
  it('GIVEN a URL with a query and escapes WHEN named THEN the decoded last path step', () => {
    expect(fileNameOf('https://u:p@example.net/images/debian%2012.qcow2?x=1')).toBe('debian 12.qcow2');
  });

  it('GIVEN a digest WHEN a cache volume is named THEN the name carries algorithm and hex', () => {
    expect(cacheVolumeName({ algorithm: 'sha256', digest: A })).toBe(`virtseed-image-sha256-${A}`);
  });
});

describe('verifySignature', () => {
  let good: Awaited<ReturnType<typeof key>>;
  let other: Awaited<ReturnType<typeof key>>;
  beforeAll(async () => {
    [good, other] = await Promise.all([key('vstest-surface signer'), key('vstest-surface stranger')]);
  });

  it('GIVEN a detached signature by the key WHEN verified THEN the checksum text is returned', async () => {
    const sig = await detached(SUMS, good.privateKey);
    expect(await verifySignature(SUMS, 'SHA256SUMS', good.publicKey, { bytes: sig, file: 'SHA256SUMS.gpg' })).toBe(SUMS.toString());
  });

  it('GIVEN a clearsigned checksum file WHEN verified THEN the signed lines are returned', async () => {
    const clear = await openpgp.sign({
      message: await openpgp.createCleartextMessage({ text: SUMS.toString() }),
      signingKeys: good.privateKey,
    });
    expect(parseChecksumFile(await verifySignature(Buffer.from(clear), 'SHA256SUMS', good.publicKey))[0]!.digest).toBe(A);
  });

  it('GIVEN a checksum file changed after signing WHEN verified THEN a signature error names both files', async () => {
    const sig = await detached(SUMS, good.privateKey);
    const changed = Buffer.from(SUMS.toString().replace(A, 'ff'.repeat(32)));
    await expect(verifySignature(changed, 'SHA256SUMS', good.publicKey, { bytes: sig, file: 'SHA256SUMS.gpg' })).rejects.toThrow(
      /^the signature SHA256SUMS\.gpg of SHA256SUMS does not verify with signature_key/,
    );
  });

  it('GIVEN a signature by another key WHEN verified THEN ChecksumFileError of the signature', async () => {
    const sig = await detached(SUMS, other.privateKey);
    const err = await verifySignature(SUMS, 'SHA256SUMS', good.publicKey, { bytes: sig, file: 'SHA256SUMS.gpg' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChecksumFileError);
    expect(err).toMatchObject({ part: 'signature' });
  });

  it('GIVEN no signature URL and a file that is not clearsigned WHEN verified THEN the error asks for the signature', async () => {
    await expect(verifySignature(SUMS, 'SHA256SUMS', good.publicKey)).rejects.toThrow(/is not clearsigned and no signature_url was given/);
  });

  it('GIVEN a key that is not a key WHEN verified THEN the error says signature_key is not an OpenPGP public key', async () => {
    await expect(verifySignature(SUMS, 'SHA256SUMS', 'not a key')).rejects.toThrow(/signature_key is not an armored OpenPGP public key/);
  });
});
