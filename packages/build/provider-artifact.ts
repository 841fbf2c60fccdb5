/**
 * Builds the self-contained provider artifact from this checkout (run by `npm run build`):
 *
 *   node dist/packages/build/provider-artifact.js [--out DIR]      (default DIR: dist/provider-artifact)
 *
 * provider/src/main.ts and everything it imports (our code, @grpc/grpc-js, ajv, the JSON schemas, the
 * precompiled protobuf descriptor) are
 * bundled by esbuild into one JavaScript file (`virtseed-provider.bundle.js`), run by `node` >= 20 through the small
 * executable beside it: nothing is resolved from node_modules or read from the checkout at run time. The bytes depend only on the commit and the locked esbuild version (no absolute
 * paths, no timestamps; zip entries carry a fixed mtime), so every clone builds the same zips and lock files made
 * with one installation hold for another. Writes, under DIR (replacing it):
 *   terraform-provider-virtseed_<v>_<platform>.zip, terraform-provider-virtseed_<v>_SHA256SUMS,
 *   mirror/registry.terraform.io/virtseed/virtseed/{index.json,<v>.json,<zips>}   (`terraform providers mirror` layout)
 * The version is package.json's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { zipSync } from 'fflate';
import {
  PLATFORMS,
  PROVIDER_HOST_PATH,
  executableName,
  formatSums,
  packageHashV1,
  sha256Hex,
  sumsName,
  zipName,
} from '../../cli/commands/provider-artifact';
import { bundleWithCodeCache, type BundledProgram } from './bundle';
import { repoRoot, repoVersion } from './repo';

/** DOS timestamps have no zone: fflate reads local fields, so a local-time date gives the same bytes in any TZ. */
const ZIP_MTIME = new Date(1980, 0, 1, 0, 0, 0);
/** Unix external attributes of the executable: regular file, 0755. */
const ZIP_ATTRS = (0o100755 << 16) >>> 0;

/** First lines of the executable: refuse an old node with a clear message instead of a syntax error. */
const BANNER = `#!/usr/bin/env node
// terraform-provider-virtseed (bundled by packages/build/provider-artifact.ts; MPL-2.0, bundled packages keep their licenses)
if (+process.versions.node.split('.')[0] < 20) { process.stderr.write('terraform-provider-virtseed needs Node.js >= 20 as \`node\` on PATH; found ' + process.version + '\\n'); process.exit(1); }`;

/** Unix external attributes of the bundle: regular file, 0644. */
const ZIP_SOURCE_ATTRS = (0o100644 << 16) >>> 0;

/**
 * Built-in modules the provider loads on first use instead of at start-up (measured in a fresh Node 20 after http2,
 * tls and crypto: perf_hooks ~2 ms of CPU, zlib ~1.5, dns ~1.2). Required at load by the domain listing and image
 * uploads (perf_hooks), gRPC's compression and DNS resolver (zlib, dns), and the seed writers (zlib); a start that
 * serves a validate or a plan of domains on a local host uses none of them until a call does. child_process (~7 ms)
 * is not among them: the first stage's `net.Server.listen` loads `cluster` and with it child_process at every start
 * (docs/performance.md, fifth round), so a stand-in would save nothing.
 */
const PROVIDER_LAZY_BUILTINS = ['perf_hooks', 'zlib', 'dns'] as const;

/**
 * Packages kept out of the text the provider compiles at every start, read from the end of its bundle file when
 * first required: OpenPGP.js (417 KB, checksum signatures of downloaded images) and xslt-processor (396 KB, a
 * domain's `xslt`), 0.8 of the 3.1 MB bundle. Both are required where they are used (start-up time, issue #38).
 */
const PROVIDER_COLD_PACKAGES = ['openpgp', 'xslt-processor'] as const;

/**
 * The provider bundled into one file, and the executable that runs it through a V8 code cache. `secondStage`
 * (relative to the checkout, exporting `run`) and `cacheName` replace the provider's own for a variant built the same
 * way (bench/private/plugin-floor.ts's no-op provider).
 */
export function bundleProvider(root: string, secondStage = 'provider/src/run.ts', cacheName = 'provider'): Promise<BundledProgram> {
  return bundleWithCodeCache(root, {
    entry: secondStage,
    banner: BANNER,
    cacheName,
    firstStage: { entry: 'provider/src/plugin/start.ts', start: 'startPlugin' },
    lazyBuiltins: PROVIDER_LAZY_BUILTINS,
    coldPackages: PROVIDER_COLD_PACKAGES,
  });
}

/** The files of the provider package (the zip's entries, the folder Terraform installs), by name. */
export function packageFiles(version: string, program: BundledProgram): { name: string; data: Uint8Array }[] {
  return [
    { name: executableName(version), data: program.executable },
    { name: program.sourceFile, data: program.source },
  ];
}

/** A zip of the executable (0755) and its bundle (0644), fixed mtime: the same bytes for the same program. */
export function zipProgram(version: string, program: BundledProgram): Uint8Array {
  const [executable, source] = packageFiles(version, program);
  return zipSync({
    [executable.name]: [executable.data, { level: 9, mtime: ZIP_MTIME, os: 3, attrs: ZIP_ATTRS }],
    [source.name]: [source.data, { level: 9, mtime: ZIP_MTIME, os: 3, attrs: ZIP_SOURCE_ATTRS }],
  });
}

export interface ArtifactFiles {
  version: string;
  /** Relative path → bytes, '/'-separated. */
  files: Map<string, Uint8Array>;
}

/** Every file of the artifact folder, in memory. */
export async function buildProviderArtifact(root: string = repoRoot()): Promise<ArtifactFiles> {
  const version = repoVersion(root);
  const program = await bundleProvider(root);
  const zip = zipProgram(version, program);
  const zipSum = sha256Hex(zip);
  const h1 = packageHashV1(packageFiles(version, program));
  const files = new Map<string, Uint8Array>();
  const archives: Record<string, { url: string; hashes: string[] }> = {};
  for (const platform of PLATFORMS) {
    const name = zipName(version, platform);
    files.set(name, zip);
    files.set(`mirror/${PROVIDER_HOST_PATH}/${name}`, zip);
    archives[platform] = { url: name, hashes: [h1, `zh:${zipSum}`] };
  }
  files.set(sumsName(version), Buffer.from(formatSums(PLATFORMS.map((p) => ({ name: zipName(version, p), sha256: zipSum })))));
  files.set(`mirror/${PROVIDER_HOST_PATH}/index.json`, Buffer.from(`${JSON.stringify({ versions: { [version]: {} } }, null, 2)}\n`));
  files.set(`mirror/${PROVIDER_HOST_PATH}/${version}.json`, Buffer.from(`${JSON.stringify({ archives }, null, 2)}\n`));
  return { version, files };
}

/**
 * Writes `files` (relative path → bytes) as folder `outDir`, replacing it whole: written beside it first, then renamed,
 * so a failed write leaves the old folder. @returns the files written, relative, sorted.
 */
export function writeFolder(outDir: string, files: ReadonlyMap<string, Uint8Array>): string[] {
  const tmp = `${outDir}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  for (const [rel, data] of files) {
    const target = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, data);
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.renameSync(tmp, outDir);
  return [...files.keys()].sort();
}

/** Writes the artifact folder `outDir` (replacing it). @returns the files written, relative, sorted. */
export async function writeProviderArtifact(outDir: string, root: string = repoRoot()): Promise<string[]> {
  return writeFolder(outDir, (await buildProviderArtifact(root)).files);
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const root = repoRoot();
  let out = path.join(root, 'dist', 'provider-artifact');
  if (argv[0] === '--out' && argv[1]) out = path.resolve(argv[1]);
  else if (argv.length > 0) {
    process.stderr.write('usage: provider-artifact [--out DIR]\n');
    process.exit(2);
  }
  writeProviderArtifact(out, root).then(
    (files) => process.stderr.write(`provider-artifact: wrote ${files.length} files to ${path.relative(process.cwd(), out) || '.'}\n`),
    (e: Error) => {
      process.stderr.write(`provider-artifact: ${e.message}\n`);
      process.exit(1);
    },
  );
}
