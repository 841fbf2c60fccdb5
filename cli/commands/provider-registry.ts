/**
 * The files of a static Terraform provider registry (HashiCorp's "provider registry protocol": service discovery,
 * then `providers.v1` versions and download documents) for a release of terraform-provider-virtseed, so any static
 * HTTPS host serves them. Pure: no I/O.
 *
 * Layout under the site's root (every URL is relative to the host, so the folder works at any https://HOST/):
 *   .well-known/terraform.json                                   {"providers.v1": "/v1/providers/"}
 *   v1/providers/virtseed/virtseed/versions                      every version, its protocols and platforms
 *   v1/providers/virtseed/virtseed/<v>/download/<os>/<arch>      zip name, URLs, sha256, the signing key
 *   releases/<v>/<zips, _SHA256SUMS, _SHA256SUMS.sig>            the release files the documents point at
 * The provider's source address is then `HOST/virtseed/virtseed` (HOST with its port when not 443).
 */
import { PROVIDER_TYPE, sumsName, zipName } from './provider-artifact';

/** The namespace of the provider's source address in a registry. */
const REGISTRY_NAMESPACE = 'virtseed';

/** One release as the registry documents describe it. */
export interface RegistryRelease {
  readonly version: string;
  /** Plugin protocol versions, from terraform-registry-manifest.json (`["6.0"]`). */
  readonly protocols: readonly string[];
  /** Terraform platforms (`linux_amd64`) → sha256 hex of that platform's zip. */
  readonly zips: ReadonlyMap<string, string>;
  /** The signing key's ID, 16 upper-case hex digits, and its ASCII-armored public key. */
  readonly keyId: string;
  readonly publicKey: string;
}

interface VersionEntry {
  version: string;
  protocols: string[];
  platforms: { os: string; arch: string }[];
}

/** `/v1/providers/virtseed/virtseed/`: the provider's folder in the registry. */
const REGISTRY_PROVIDER_PATH = `v1/providers/${REGISTRY_NAMESPACE}/${PROVIDER_TYPE}`;

/** `releases/<v>/`: where a version's files live in the registry folder. */
export function releasePath(version: string): string {
  return `releases/${version}`;
}

/** `sig` file name: `terraform-provider-virtseed_<v>_SHA256SUMS.sig`. */
export function signatureName(version: string): string {
  return `${sumsName(version)}.sig`;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Orders versions as semver (pre-releases before their release; numeric parts as numbers). */
function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.split('-', 2) as [string, string | undefined];
    return { nums: core.split('.').map(Number), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if ((x.nums[i] ?? 0) !== (y.nums[i] ?? 0)) return (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/**
 * The registry documents for `release`, relative path → text. `existingVersions` is the text of the registry's
 * current `versions` document (or undefined): its other versions are kept, this version's entry replaced.
 * Throws `Error` naming the problem when `existingVersions` is not a versions document, a platform is not
 * `<os>_<arch>`, or the key ID is not 16 hex digits.
 */
export function registryFiles(release: RegistryRelease, existingVersions?: string): Map<string, string> {
  if (!/^[0-9A-F]{16}$/.test(release.keyId))
    throw new Error(`registry: key ID must be 16 upper-case hex digits, got ${JSON.stringify(release.keyId)}`);
  const platforms = [...release.zips.keys()].sort().map((p) => {
    const m = /^([a-z0-9]+)_([a-z0-9]+)$/.exec(p);
    if (!m) throw new Error(`registry: platform must be <os>_<arch>, got ${JSON.stringify(p)}`);
    return { platform: p, os: m[1] as string, arch: m[2] as string };
  });
  let versions: VersionEntry[] = [];
  if (existingVersions !== undefined) {
    const parsed = JSON.parse(existingVersions) as { versions?: unknown };
    if (!Array.isArray(parsed.versions)) throw new Error('registry: the existing versions document has no "versions" array');
    versions = (parsed.versions as VersionEntry[]).filter((v) => v.version !== release.version);
  }
  versions.push({
    version: release.version,
    protocols: [...release.protocols],
    platforms: platforms.map(({ os, arch }) => ({ os, arch })),
  });
  versions.sort((a, b) => compareVersions(a.version, b.version));

  const files = new Map<string, string>();
  files.set('.well-known/terraform.json', json({ 'providers.v1': '/v1/providers/' }));
  files.set(`${REGISTRY_PROVIDER_PATH}/versions`, json({ versions }));
  const base = `/${releasePath(release.version)}`;
  for (const { platform, os, arch } of platforms) {
    files.set(
      `${REGISTRY_PROVIDER_PATH}/${release.version}/download/${os}/${arch}`,
      json({
        protocols: [...release.protocols],
        os,
        arch,
        filename: zipName(release.version, platform),
        download_url: `${base}/${zipName(release.version, platform)}`,
        shasums_url: `${base}/${sumsName(release.version)}`,
        shasums_signature_url: `${base}/${signatureName(release.version)}`,
        shasum: release.zips.get(platform),
        signing_keys: { gpg_public_keys: [{ key_id: release.keyId, ascii_armor: release.publicKey }] },
      }),
    );
  }
  return files;
}
