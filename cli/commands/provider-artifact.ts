/**
 * The provider artifact's names and hashes, shared by its build (packages/build/provider-artifact.ts) and
 * `virtseed provider install`. Pure: no I/O.
 *
 * Layout (the one HashiCorp's release process and `terraform providers mirror` use):
 *   terraform-provider-virtseed_<version>_<os>_<arch>.zip   one entry: terraform-provider-virtseed_v<version>
 *   terraform-provider-virtseed_<version>_SHA256SUMS        `<sha256 hex>  <zip name>` per line, sorted
 *   mirror/registry.terraform.io/virtseed/virtseed/          packed filesystem mirror = network mirror
 *     index.json, <version>.json, the zips
 */
import { createHash } from 'node:crypto';

export const PROVIDER_TYPE = 'virtseed';
export const PROVIDER_HOST_PATH = 'registry.terraform.io/virtseed/virtseed';
/** Platforms an artifact is made for: the executable is JavaScript run by `node`, the same bytes on each. */
export const PLATFORMS = ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64'] as const;

/** `terraform-provider-virtseed_v0.1.0`: the executable's name inside the zip and in an unpacked mirror. */
export function executableName(version: string): string {
  return `terraform-provider-${PROVIDER_TYPE}_v${version}`;
}

/** `terraform-provider-virtseed_0.1.0_linux_amd64.zip`. */
export function zipName(version: string, platform: string): string {
  return `terraform-provider-${PROVIDER_TYPE}_${version}_${platform}.zip`;
}

/** `terraform-provider-virtseed_0.1.0_SHA256SUMS`. */
export function sumsName(version: string): string {
  return `terraform-provider-${PROVIDER_TYPE}_${version}_SHA256SUMS`;
}

/** The version named by a SHA256SUMS file name, or undefined when `name` is not one. */
export function versionOfSumsName(name: string): string | undefined {
  return new RegExp(`^terraform-provider-${PROVIDER_TYPE}_(\\d+\\.\\d+\\.\\d+(?:-[0-9A-Za-z.-]+)?)_SHA256SUMS$`).exec(name)?.[1];
}

/** Terraform's platform name (`linux_amd64`) for a Node.js platform and arch; undefined when Terraform has none. */
export function terraformPlatform(platform: string = process.platform, arch: string = process.arch): string | undefined {
  const os = ({ linux: 'linux', darwin: 'darwin', freebsd: 'freebsd', win32: 'windows' } as Record<string, string>)[platform];
  const cpu = ({ x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386' } as Record<string, string>)[arch];
  return os && cpu ? `${os}_${cpu}` : undefined;
}

/** Lowercase hex sha256. */
export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Terraform's `h1:` package hash (Go's dirhash.Hash1) over a package's files: sha256 over the sorted lines
 * `<sha256 hex>  <name>\n`, base64. The same for a zip and for its unpacked folder, so lock files agree.
 */
export function packageHashV1(files: ReadonlyArray<{ name: string; data: Uint8Array }>): string {
  const lines = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => `${sha256Hex(f.data)}  ${f.name}\n`)
    .join('');
  return `h1:${createHash('sha256').update(lines).digest('base64')}`;
}

/** SHA256SUMS text: one `<hex>  <name>` line per file, sorted by name. */
export function formatSums(entries: ReadonlyArray<{ name: string; sha256: string }>): string {
  return [...entries]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((e) => `${e.sha256}  ${e.name}\n`)
    .join('');
}

/**
 * Parses SHA256SUMS text into name → hex.
 * @throws Error naming the line when one is not `<64 hex digits>  <name>`.
 */
export function parseSums(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!m) throw new Error(`SHA256SUMS line ${i + 1} is not '<sha256 hex>  <file name>': ${JSON.stringify(line)}`);
    out.set(m[2] as string, m[1] as string);
  }
  return out;
}
