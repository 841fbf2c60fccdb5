/**
 * Builds the signed release of the provider and the static registry that serves it (issue #36):
 *
 *   node dist/packages/build/release.js --key FILE [--out DIR]      (default DIR: dist/release)
 *
 * FILE is an ASCII-armored OpenPGP private key (`gpg --armor --export-secret-keys KEYID`), also taken from
 * `$VIRTSEED_SIGNING_KEY_FILE`; its passphrase, if any, from `$VIRTSEED_SIGNING_KEY_PASSPHRASE` (never an argument:
 * arguments are visible to other users). Writes, under DIR (replacing it):
 *   terraform-provider-virtseed_<v>_<os>_<arch>.zip    one entry, the single executable (packages/build/sea.ts), 0755
 *   terraform-provider-virtseed_<v>_manifest.json      terraform-registry-manifest.json (protocol 6.0)
 *   terraform-provider-virtseed_<v>_SHA256SUMS         the zips and the manifest
 *   terraform-provider-virtseed_<v>_SHA256SUMS.sig     detached binary OpenPGP signature of SHA256SUMS
 *   terraform-provider-virtseed_<v>_signing-key.asc    the public key
 *   registry/                                          a static registry (cli/commands/provider-registry.ts)
 * The bytes depend only on the commit, the pinned Node (sea.ts) and the key: signatures are deterministic for RSA
 * and EdDSA keys (without openpgp's random salt notation), and dated at the later of the commit's time and the key's
 * creation (never the clock).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { zipSync } from 'fflate';
import * as openpgp from 'openpgp';
import { executableName, formatSums, sha256Hex, sumsName, zipName } from '../../cli/commands/provider-artifact';
import { registryFiles, releasePath, signatureName } from '../../cli/commands/provider-registry';
import { bundleProvider, writeFolder } from './provider-artifact';
import { repoRoot, repoVersion } from './repo';
import { seaExecutables } from './sea';

/** DOS timestamps have no zone: a local-time date gives the same bytes in any TZ. */
const ZIP_MTIME = new Date(1980, 0, 1, 0, 0, 0);
/** Unix external attributes of the executable: regular file, 0755. */
const ZIP_ATTRS = (0o100755 << 16) >>> 0;

/** The armored private key and its passphrase. */
export interface SigningKey {
  readonly armored: string;
  readonly passphrase?: string;
}

/** `terraform-provider-virtseed_<v>_manifest.json`. */
export function manifestName(version: string): string {
  return sumsName(version).replace(/_SHA256SUMS$/, '_manifest.json');
}

/** `terraform-provider-virtseed_<v>_signing-key.asc`. */
export function publicKeyName(version: string): string {
  return sumsName(version).replace(/_SHA256SUMS$/, '_signing-key.asc');
}

/** Seconds since the epoch of HEAD's commit in `root`; undefined outside a git checkout. */
function commitTime(root: string): Date | undefined {
  try {
    const s = execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return new Date(Number(s.trim()) * 1000);
  } catch {
    return undefined;
  }
}

/**
 * The detached binary signature of `data` by `key`, dated `date` (or the key's creation time, when later), and the
 * key's public half and ID. Throws `Error` when the key cannot be read or unlocked (the message says which).
 */
export async function signDetached(
  data: Uint8Array,
  key: SigningKey,
  date?: Date,
): Promise<{ signature: Uint8Array; publicKey: string; keyId: string }> {
  let privateKey = await openpgp.readPrivateKey({ armoredKey: key.armored }).catch((e: Error) => {
    throw new Error(`signing key: not an ASCII-armored OpenPGP private key (${e.message})`);
  });
  if (!privateKey.isDecrypted()) {
    if (!key.passphrase) throw new Error('signing key: it is protected by a passphrase; set VIRTSEED_SIGNING_KEY_PASSPHRASE');
    privateKey = await openpgp.decryptKey({ privateKey, passphrase: key.passphrase }).catch((e: Error) => {
      throw new Error(`signing key: the passphrase does not unlock it (${e.message})`);
    });
  }
  const created = privateKey.getCreationTime();
  const when = date && date > created ? date : created;
  const signingKey = await privateKey.getSigningKey(undefined, when);
  const signature = await openpgp.sign({
    message: await openpgp.createMessage({ binary: data }),
    signingKeys: privateKey,
    detached: true,
    format: 'binary',
    date: when,
    // openpgp adds a random salt notation to each signature by default; a release signature is reproducible.
    config: { nonDeterministicSignaturesViaNotation: false },
  });
  return { signature, publicKey: privateKey.toPublic().armor(), keyId: signingKey.getKeyID().toHex().toUpperCase() };
}

export interface ReleaseFiles {
  version: string;
  /** Relative path → bytes, '/'-separated. */
  files: Map<string, Uint8Array>;
}

/** Every file of the release folder, in memory. Throws `Error` when a step fails (the message says which). */
export async function buildRelease(key: SigningKey, root: string = repoRoot()): Promise<ReleaseFiles> {
  const version = repoVersion(root);
  const program = await bundleProvider(root);
  const executables = await seaExecutables(program.seaMain, program.source);
  const files = new Map<string, Uint8Array>();
  const zips = new Map<string, string>();
  const manifest = fs.readFileSync(path.join(root, 'terraform-registry-manifest.json'));
  const protocols = (JSON.parse(manifest.toString('utf8')) as { metadata: { protocol_versions: string[] } }).metadata.protocol_versions;
  for (const [platform, executable] of executables) {
    const zip = zipSync({ [executableName(version)]: [executable, { level: 6, mtime: ZIP_MTIME, os: 3, attrs: ZIP_ATTRS }] });
    files.set(zipName(version, platform), zip);
    zips.set(platform, sha256Hex(zip));
  }
  files.set(manifestName(version), manifest);
  const sums = Buffer.from(formatSums([...files].map(([name, data]) => ({ name, sha256: sha256Hex(data) }))));
  files.set(sumsName(version), sums);
  const { signature, publicKey, keyId } = await signDetached(sums, key, commitTime(root));
  files.set(signatureName(version), signature);
  files.set(publicKeyName(version), Buffer.from(publicKey));
  for (const [rel, text] of registryFiles({ version, protocols, zips, keyId, publicKey })) files.set(`registry/${rel}`, Buffer.from(text));
  for (const name of [...zips.keys()].map((p) => zipName(version, p)).concat(sumsName(version), signatureName(version)))
    files.set(`registry/${releasePath(version)}/${name}`, files.get(name) as Uint8Array);
  return { version, files };
}

/** Writes the release folder `outDir` (replacing it). @returns the files written, relative, sorted. */
export async function writeRelease(outDir: string, key: SigningKey, root: string = repoRoot()): Promise<string[]> {
  return writeFolder(outDir, (await buildRelease(key, root)).files);
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const root = repoRoot();
  let out = path.join(root, 'dist', 'release');
  let keyFile = process.env.VIRTSEED_SIGNING_KEY_FILE;
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--out' && argv[i + 1]) out = path.resolve(argv[i + 1] as string);
    else if (argv[i] === '--key' && argv[i + 1]) keyFile = path.resolve(argv[i + 1] as string);
    else {
      process.stderr.write('usage: release --key FILE [--out DIR]   (or VIRTSEED_SIGNING_KEY_FILE=FILE)\n');
      process.exit(2);
    }
  }
  if (!keyFile) {
    process.stderr.write('release: no signing key: pass --key FILE or set VIRTSEED_SIGNING_KEY_FILE (an armored OpenPGP private key)\n');
    process.exit(2);
  }
  const key: SigningKey = { armored: fs.readFileSync(keyFile, 'utf8'), passphrase: process.env.VIRTSEED_SIGNING_KEY_PASSPHRASE };
  writeRelease(out, key, root).then(
    (files) => process.stderr.write(`release: wrote ${files.length} files to ${path.relative(process.cwd(), out) || '.'}\n`),
    (e: Error) => {
      process.stderr.write(`release: ${e.message}\n`);
      process.exit(1);
    },
  );
}
