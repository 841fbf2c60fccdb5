/**
 * `npm run package`: the installable products, as npm tarballs in dist/npm/ (after `npm run build`):
 *
 *   @virtseed/cdktf   constructs for CDK for Terraform 0.21  (peer: cdktf ^0.21, constructs as cdktf asks)
 *   @virtseed/cdktn   constructs for CDK Terrain 0.24        (peer: cdktn ^0.24, constructs >=10.6.0 <10.8.0)
 *   virtseed          the `virtseed` CLI in one bundled file, with the provider artifact and
 *                     `virtseed provider install`
 *
 *   node dist/packages/build/packages.js [--out DIR] [--only cdktf,cdktn,cli]
 *
 * One source, two construct packages: the files constructs/index.ts reaches (constructs/src, src/seed, ...) are
 * staged under packages/<framework>/.stage, the bindings regenerated there by that framework's own generator
 * (@cdktf/provider-generator or @cdktn/provider-generator) from the schema the provider artifact serves, `cdktf`
 * module specifiers rewritten to `cdktn` for CDK Terrain, and compiled by tsc to JavaScript + .d.ts. cdktf comes
 * from this checkout's node_modules; CDK Terrain's toolchain from packages/cdktn (its own lock file: its
 * `constructs` range excludes the checkout's), installed by `npm ci` when missing. Runtime dependencies are the
 * bare `require`s of the compiled code, with this checkout's version ranges. Versions: package.json's. The
 * `virtseed` package holds the CLI bundle and the provider artifact as `npm run build` wrote them into dist/ (not
 * made again). The folders are packed by one `npm pack`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { PROVIDER_HOST_PATH, versionOfSumsName } from '../../cli/commands/provider-artifact';
import { installBlock } from './install-paths';
import { generateBindings } from '../../constructs/scripts/bindings';
import { readProviderSchemaFromTerraform, type ProviderSchemaJson } from '../../constructs/scripts/schema';
import { builtCliFiles } from './cli-bundle';
import { repoRoot, repoVersion } from './repo';

export type Framework = 'cdktf' | 'cdktn';
export const FRAMEWORKS: readonly Framework[] = ['cdktf', 'cdktn'];

/** npm package names of the products. */
export const PACKAGE_NAMES = { cdktf: '@virtseed/cdktf', cdktn: '@virtseed/cdktn', cli: 'virtseed' } as const;

const FRAMEWORK_TITLE: Record<Framework, string> = { cdktf: 'CDK for Terraform', cdktn: 'CDK Terrain' };

/** The folder whose node_modules holds a framework's toolchain (framework, constructs, generator). */
function toolchainDir(root: string, fw: Framework): string {
  return fw === 'cdktf' ? root : path.join(root, 'packages', 'cdktn');
}

/** Installs packages/cdktn's locked toolchain when it is missing. */
function ensureToolchain(root: string, fw: Framework, log: (s: string) => void): void {
  const dir = toolchainDir(root, fw);
  if (fs.existsSync(path.join(dir, 'node_modules', fw, 'package.json'))) return;
  log(`packages: npm ci in ${path.relative(root, dir)} (the ${FRAMEWORK_TITLE[fw]} toolchain)`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** The provider schema as Terraform reads it from the built artifact's mirror (what `cdktf get` sees). */
export function schemaFromArtifact(root: string): ProviderSchemaJson {
  const mirror = path.join(root, 'dist', 'provider-artifact', 'mirror');
  if (!fs.existsSync(path.join(mirror, ...PROVIDER_HOST_PATH.split('/')))) {
    throw new Error(`${mirror} is missing: run \`npm run build\` first`);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'virtseed-package-'));
  const saved = process.env.TF_CLI_CONFIG_FILE;
  try {
    const rc = path.join(tmp, 'terraformrc');
    fs.writeFileSync(
      rc,
      `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/virtseed/*"]\n  }\n  direct {\n    exclude = ["registry.terraform.io/virtseed/*"]\n  }\n}\n`,
    );
    process.env.TF_CLI_CONFIG_FILE = rc;
    return readProviderSchemaFromTerraform();
  } finally {
    if (saved === undefined) delete process.env.TF_CLI_CONFIG_FILE;
    else process.env.TF_CLI_CONFIG_FILE = saved;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  lib: ['lib.es2022.d.ts'],
  types: ['node'],
  strict: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  declaration: true,
  skipLibCheck: true,
};

function formatDiagnostics(diags: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diags, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => '\n' });
}

/**
 * Repository files (relative, '/'-separated) that constructs/index.ts reaches, generated bindings excluded: the
 * files a TypeScript program of it holds plus the modules Node loads at run time, found by following each file's
 * module references (imports, exports, `import()`, `/// <reference path>`, and `require('...')` calls, in
 * TypeScript files too: a lazy `require` of a sibling, e.g. src/seed/checks/schema.ts's precompiled validators, is
 * a module the package must hold though the compiler does not follow it) as the compiler resolves them, without
 * parsing the whole program (with the .d.ts files of node_modules it reaches: ~3 CPU s against ~0.4).
 */
export function constructSources(root: string): string[] {
  const seen = new Set<string>();
  const pending = [path.join(root, 'constructs', 'index.ts')];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (file.endsWith('.json') || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true); // true: `require` calls in every file
    for (const ref of info.referencedFiles) pending.push(path.resolve(path.dirname(file), ref.fileName));
    for (const imp of info.importedFiles) {
      const resolved = ts.resolveModuleName(imp.fileName, file, COMPILER_OPTIONS, ts.sys).resolvedModule;
      if (resolved && !resolved.isExternalLibraryImport) pending.push(path.resolve(resolved.resolvedFileName));
    }
  }
  return [...seen]
    .map((f) => path.relative(root, f).split(path.sep).join('/'))
    .filter((rel) => !rel.startsWith('..') && !rel.includes('node_modules/') && !rel.startsWith('constructs/generated/'))
    .sort();
}

/** `cdktf` module specifiers (import/export from, require, import()) → `cdktn`. */
export function rewriteFrameworkImports(source: string, fw: Framework): string {
  if (fw === 'cdktf') return source;
  return source.replace(/(\bfrom\s+|\brequire\(\s*|\bimport\(\s*|^import\s+)(['"])cdktf\2/gm, `$1$2${fw}$2`);
}

/** Bare package names a compiled tree requires (no node: builtins, no relative paths), sorted. */
export function requiredPackages(libDir: string): string[] {
  const found = new Set<string>();
  const builtins = new Set(builtinModules);
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js')) {
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/\brequire\(\s*["']([^"'.][^"']*)["']\s*\)/g)) {
          const spec = m[1] as string;
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
          if (!spec.startsWith('node:') && !builtins.has(name)) found.add(name);
        }
      }
    }
  };
  walk(libDir);
  return [...found].sort();
}

interface RootPackageJson {
  version: string;
  license?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/**
 * Builds one construct package into `pkgDir` (created). `sources`: {@link constructSources} of `root`, when the
 * caller has it already (the same for both frameworks). @returns its package.json.
 */
export async function buildConstructPackage(
  root: string,
  fw: Framework,
  schema: ProviderSchemaJson,
  pkgDir: string,
  sources: readonly string[] = constructSources(root),
): Promise<Record<string, unknown>> {
  const rootPkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as RootPackageJson;
  const stage = path.join(root, 'packages', fw, '.stage'); // below the toolchain's node_modules
  fs.rmSync(stage, { recursive: true, force: true });
  for (const rel of sources) {
    const target = path.join(stage, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    fs.writeFileSync(target, rel.endsWith('.ts') ? rewriteFrameworkImports(text, fw) : text);
  }
  const load = createRequire(path.join(toolchainDir(root, fw), 'package.json'));
  await generateBindings(schema, path.join(stage, 'constructs', 'generated'), { framework: fw, load });

  const lib = path.join(pkgDir, 'lib');
  // Every staged module a root: the compiler does not follow a .ts file's lazy `require` (constructSources does).
  const roots = sources.filter((rel) => rel.endsWith('.ts')).map((rel) => path.join(stage, rel));
  const program = ts.createProgram(roots, { ...COMPILER_OPTIONS, rootDir: stage, outDir: lib });
  const diags = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  if (diags.length > 0) throw new Error(`tsc (${fw} package) failed:\n${formatDiagnostics(diags)}`);

  const fwPkg = load(`${fw}/package.json`) as { version: string; peerDependencies?: Record<string, string> };
  const constructsRange = fwPkg.peerDependencies?.constructs;
  if (!constructsRange) throw new Error(`${fw}/package.json has no peerDependencies.constructs`);
  const peers: Record<string, string> = { [fw]: `^${fwPkg.version}`, constructs: constructsRange };
  const dependencies: Record<string, string> = {};
  for (const name of requiredPackages(lib)) {
    if (name in peers) continue;
    const range = rootPkg.dependencies?.[name];
    if (!range) throw new Error(`the ${fw} package requires '${name}', which is not in package.json's dependencies`);
    dependencies[name] = range;
  }
  const main = './lib/constructs/index.js';
  const types = './lib/constructs/index.d.ts';
  const pkg = {
    name: PACKAGE_NAMES[fw],
    version: rootPkg.version,
    description: `virtseed constructs for ${FRAMEWORK_TITLE[fw]}: declarative libvirt virtual machines provisioned by cloud-init or Ignition`,
    license: rootPkg.license ?? 'MPL-2.0',
    main,
    types,
    exports: { '.': { types, default: main }, './package.json': './package.json' },
    files: ['lib'],
    engines: { node: '>=20' },
    dependencies,
    peerDependencies: peers,
  };
  fs.writeFileSync(path.join(pkgDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  fs.writeFileSync(
    path.join(pkgDir, 'README.md'),
    `# ${PACKAGE_NAMES[fw]}\n\nvirtseed's constructs (\`VirtualMachine\`, \`CloudInitSeed\`, \`IgnitionConfig\`, \`Volume\`, \`CloudInit\`, ` +
      `\`BaseImage\`, \`Size\`, \`Reprovision\`) and the \`virtseed/virtseed\` provider bindings (\`bindings\`) for ${FRAMEWORK_TITLE[fw]}.\n\n` +
      `\`\`\`ts\nimport { bindings, BaseImage, CloudInit, VirtualMachine } from '${PACKAGE_NAMES[fw]}';\n\`\`\`\n\n` +
      `## Install and deploy\n\nIn a project made by \`${fw} init --template typescript\`${
        fw === 'cdktn' ? ' (Node.js >= 22.19: `cdktn-cli` needs it, and `cdktn init` does not add `cdktn-cli` to the project)' : ''
      }, with libvirtd and the Terraform CLI on the host:\n\n${installBlock(readme, fw)}\n\n` +
      `\`npx virtseed provider install\` puts the provider (from the \`virtseed\` package) into \`~/.terraform.d/plugins\`; when the ` +
      `Terraform CLI configuration has a \`provider_installation\` block, it prints what to add to it. \`--skip-provider-lock\`: ` +
      `the deploy's lock step asks the public registry, which does not know a provider installed from a package.\n`,
  );
  fs.rmSync(stage, { recursive: true, force: true });
  return pkg;
}

/**
 * Builds the `virtseed` CLI package into `pkgDir`: the bundled CLI (executable + bundle) and the provider artifact,
 * both as `npm run build` wrote them into dist/ (./cli-bundle.ts, ./provider-artifact.ts). Throws Error when they
 * are missing.
 */
export async function buildCliPackage(root: string, pkgDir: string): Promise<Record<string, unknown>> {
  const version = repoVersion(root);
  const artifact = path.join(root, 'dist', 'provider-artifact');
  const sums = fs.existsSync(artifact) ? fs.readdirSync(artifact).find((f) => versionOfSumsName(f) === version) : undefined;
  if (!sums) throw new Error(`${artifact} has no SHA256SUMS for ${version}: run \`npm run build\` first`);
  const cli = builtCliFiles(root);
  for (const f of [cli.executable, cli.bundle]) if (!fs.existsSync(f)) throw new Error(`${f} is missing: run \`npm run build\` first`);
  fs.mkdirSync(path.join(pkgDir, 'dist'), { recursive: true });
  fs.copyFileSync(cli.executable, path.join(pkgDir, 'dist', path.basename(cli.executable))); // keeps its mode, 0755
  fs.copyFileSync(cli.bundle, path.join(pkgDir, 'dist', path.basename(cli.bundle)));
  const out = path.join(pkgDir, 'dist', 'provider-artifact');
  fs.mkdirSync(out, { recursive: true });
  for (const f of fs.readdirSync(artifact)) {
    if (f === sums || f.endsWith('.zip')) fs.copyFileSync(path.join(artifact, f), path.join(out, f));
  }
  const rootPkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as RootPackageJson;
  const pkg = {
    name: PACKAGE_NAMES.cli,
    version,
    description:
      'virtseed: cloud-init seeds (like cloud-localds) and terraform-provider-virtseed, installed by `virtseed provider install`',
    license: rootPkg.license ?? 'MPL-2.0',
    bin: { virtseed: 'dist/virtseed.js' },
    files: ['dist'],
    engines: { node: '>=20' },
  };
  fs.writeFileSync(path.join(pkgDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  fs.writeFileSync(
    path.join(pkgDir, 'README.md'),
    `# virtseed\n\n\`virtseed provider install [--mirror DIR]\` installs terraform-provider-virtseed ${version} (one JavaScript file run by ` +
      `Node.js >= 20; zips and SHA256SUMS in dist/provider-artifact) into a Terraform filesystem mirror (default ` +
      `\`~/.terraform.d/plugins\`; when the Terraform CLI configuration has a \`provider_installation\` block, it prints what to add to it).\n` +
      `\`virtseed seed build|show\` builds and shows cloud-init seed ISOs.\n\n` +
      `With Terraform alone, in a folder whose \`main.tf\` requires \`virtseed/virtseed\` ${version}:\n\n${installBlock(readme, 'hcl')}\n\n` +
      `With CDK for Terraform or CDK Terrain, see \`@virtseed/cdktf\` and \`@virtseed/cdktn\`.\n`,
  );
  return pkg;
}

/** `npm pack` of the folders `pkgDirs` (absolute) into `outDir`, one npm for all. @returns the tarballs' paths, in order. */
function npmPack(pkgDirs: readonly string[], outDir: string): string[] {
  if (pkgDirs.length === 0) return [];
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', outDir, ...pkgDirs], {
    cwd: outDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const infos = JSON.parse(out) as Array<{ filename: string }>;
  if (infos.length !== pkgDirs.length) throw new Error(`npm pack of ${pkgDirs.join(', ')} printed ${infos.length} files:\n${out}`);
  return infos.map((i) => path.join(outDir, i.filename));
}

/** Builds and packs the products. @returns the tarballs written. */
export async function buildPackages(
  opts: { root?: string; out?: string; only?: ReadonlyArray<Framework | 'cli'>; log?: (s: string) => void } = {},
): Promise<string[]> {
  const root = opts.root ?? repoRoot();
  const out = path.resolve(opts.out ?? path.join(root, 'dist', 'npm'));
  const only = opts.only ?? [...FRAMEWORKS, 'cli'];
  const log = opts.log ?? ((s: string) => process.stderr.write(`${s}\n`));
  fs.mkdirSync(out, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'virtseed-packages-'));
  let tarballs: string[];
  try {
    const fws = FRAMEWORKS.filter((f) => only.includes(f));
    const schema = fws.length > 0 ? schemaFromArtifact(root) : undefined;
    const sources = fws.length > 0 ? constructSources(root) : [];
    const dirs: string[] = [];
    for (const fw of fws) {
      ensureToolchain(root, fw, log);
      const dir = path.join(work, fw);
      await buildConstructPackage(root, fw, schema as ProviderSchemaJson, dir, sources);
      dirs.push(dir);
    }
    if (only.includes('cli')) {
      const dir = path.join(work, 'cli');
      await buildCliPackage(root, dir);
      dirs.push(dir);
    }
    tarballs = npmPack(dirs, out);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  for (const t of tarballs) log(`packages: wrote ${path.relative(process.cwd(), t)}`);
  return tarballs;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const opts: { out?: string; only?: Array<Framework | 'cli'> } = {};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--out' && value) opts.out = value;
    else if (flag === '--only' && value && value.split(',').every((v) => ['cdktf', 'cdktn', 'cli'].includes(v)))
      opts.only = value.split(',') as Array<Framework | 'cli'>;
    else {
      process.stderr.write('usage: packages [--out DIR] [--only cdktf,cdktn,cli]\n');
      process.exit(2);
    }
  }
  buildPackages(opts).catch((e: Error) => {
    process.stderr.write(`packages: ${e.message}\n`);
    process.exit(1);
  });
}
