/**
 * `virtseed provider install [--mirror DIR] [--from DIR] [--platform OS_ARCH]`: installs the bundled
 * terraform-provider-virtseed (shipped in the `virtseed` package, built by packages/build/provider-artifact.ts)
 * into a Terraform filesystem mirror, unpacked:
 *   DIR/registry.terraform.io/virtseed/virtseed/<version>/<os>_<arch>/terraform-provider-virtseed_v<version>
 *   (the executable) and virtseed-provider.bundle.js (the bundle it runs) beside it
 * DIR defaults to ~/.terraform.d/plugins, the implicit mirror `terraform init` searches without any CLI config.
 * The zip is checked against SHA256SUMS first; the installed files have the zip entries' bytes, so
 * `.terraform.lock.hcl` hashes agree with every other installation of the same version.
 *
 * Terraform searches the implicit mirrors only when its CLI configuration ($TF_CLI_CONFIG_FILE, else ~/.terraformrc;
 * Terraform's "CLI Configuration File" docs) has no `provider_installation` block. When it has one that does not
 * name the mirror, the command says exactly what to add to it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { unzipSync } from 'fflate';
import type { CliIo } from '../io';
import {
  PROVIDER_HOST_PATH,
  executableName,
  parseSums,
  sha256Hex,
  terraformPlatform,
  versionOfSumsName,
  zipName,
} from './provider-artifact';

const PROVIDER_USAGE =
  'usage: virtseed provider install [--mirror DIR] [--from ARTIFACT_DIR] [--platform OS_ARCH]\n' +
  '  installs terraform-provider-virtseed into the filesystem mirror DIR (default ~/.terraform.d/plugins)';

/** Where this installation's artifact folder is: `dist/provider-artifact` above this module (the checkout after
 *  `npm run build`, or the installed `virtseed` package). Undefined when there is none. */
function findArtifactDir(start: string = __dirname): string | undefined {
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, 'dist', 'provider-artifact');
    if (fs.existsSync(candidate) && fs.readdirSync(candidate).some((f) => versionOfSumsName(f) !== undefined)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export interface ProviderInstallOptions {
  /** Filesystem mirror root. Default: ~/.terraform.d/plugins. */
  mirror?: string;
  /** Artifact folder (with the zips and SHA256SUMS). Default: {@link findArtifactDir}. */
  from?: string;
  /** Terraform platform, e.g. `linux_amd64`. Default: this machine's. */
  platform?: string;
}

/**
 * Installs the provider. @returns the installed executable's path.
 * @throws Error naming the file and the problem: no artifact, no zip for the platform, a checksum mismatch, a zip
 *   without the executable.
 */
function installProvider(opts: ProviderInstallOptions = {}): { path: string; version: string; platform: string; mirror: string } {
  const from = opts.from ?? findArtifactDir();
  if (from === undefined) throw new Error('no provider artifact found next to this virtseed (in a checkout, run `npm run build` first)');
  const sumsFile = fs.existsSync(from) ? fs.readdirSync(from).find((f) => versionOfSumsName(f) !== undefined) : undefined;
  if (sumsFile === undefined) throw new Error(`${from}: no terraform-provider-virtseed_<version>_SHA256SUMS in this folder`);
  const version = versionOfSumsName(sumsFile) as string;
  const platform = opts.platform ?? terraformPlatform();
  if (platform === undefined) throw new Error(`no Terraform platform for ${process.platform}/${process.arch}`);
  const name = zipName(version, platform);
  const expected = parseSums(fs.readFileSync(path.join(from, sumsFile), 'utf8')).get(name);
  if (expected === undefined) throw new Error(`${path.join(from, sumsFile)} lists no ${name}: platform ${platform} is not built`);
  const zip = new Uint8Array(fs.readFileSync(path.join(from, name)));
  const actual = sha256Hex(zip);
  if (actual !== expected) throw new Error(`${path.join(from, name)}: sha256 ${actual}, but ${sumsFile} says ${expected}`);
  const entries = unzipSync(zip);
  const executable = executableName(version);
  if (entries[executable] === undefined) throw new Error(`${path.join(from, name)} has no entry ${executable}`);

  const mirror = path.resolve(opts.mirror ?? path.join(os.homedir(), '.terraform.d', 'plugins'));
  const dir = path.join(mirror, ...PROVIDER_HOST_PATH.split('/'), version, platform);
  fs.mkdirSync(dir, { recursive: true });
  // The bundle first, the executable last: a Terraform starting the provider meanwhile finds the old pair or the new.
  const names = Object.keys(entries).sort((a, b) => Number(a === executable) - Number(b === executable));
  for (const entryName of names) {
    if (entryName.includes('/') || entryName.startsWith('.'))
      throw new Error(`${path.join(from, name)}: entry ${entryName} is not a plain file name`);
    const mode = entryName === executable ? 0o755 : 0o644;
    const tmp = path.join(dir, `.install.${process.pid}`);
    fs.writeFileSync(tmp, entries[entryName], { mode });
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, path.join(dir, entryName));
  }
  return { path: path.join(dir, executable), version, platform, mirror };
}

/** The Terraform CLI configuration file Terraform reads on this machine: `$TF_CLI_CONFIG_FILE`, else `~/.terraformrc`. */
export function cliConfigPath(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  return env.TF_CLI_CONFIG_FILE ? path.resolve(env.TF_CLI_CONFIG_FILE) : path.join(home, '.terraformrc');
}

/** HCL text without `#`, `//` and `/* *\/` comments (strings are kept whole). */
function withoutComments(hcl: string): string {
  return hcl.replace(/"(?:[^"\\\n]|\\.)*"|\/\*[\s\S]*?\*\/|(?:#|\/\/)[^\n]*/g, (m) => (m.startsWith('"') ? m : ''));
}

/**
 * What a CLI configuration needs so that Terraform installs virtseed from `mirror`: undefined when it has no
 * `provider_installation` block (Terraform then searches the implicit mirrors, ~/.terraform.d/plugins among them)
 * or its block already names `mirror`; else the lines to add inside the block. Pure.
 */
export function missingMirrorConfig(configText: string, mirror: string): string | undefined {
  const text = withoutComments(configText);
  if (!/\bprovider_installation\s*\{/.test(text)) return undefined;
  if (text.includes(`"${mirror}"`) || text.includes(`"${mirror}/"`)) return undefined;
  return (
    `  filesystem_mirror {\n    path    = "${mirror}"\n    include = ["registry.terraform.io/virtseed/*"]\n  }\n` +
    (/\bdirect\s*\{/.test(text) ? `and this inside its direct block:\n    exclude = ["registry.terraform.io/virtseed/*"]\n` : '')
  );
}

/** The note for a CLI configuration whose provider_installation block does not name `mirror` (see missingMirrorConfig). */
function mirrorNote(mirror: string, env: NodeJS.ProcessEnv): string | undefined {
  const file = cliConfigPath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const add = missingMirrorConfig(text, mirror);
  if (add === undefined) return undefined;
  return (
    `${file} has a provider_installation block, so terraform does not look in ${mirror} until that block names it. ` +
    `Add this inside the provider_installation block:\n${add}`
  );
}

/** `virtseed provider ...` with its arguments (after `provider`). Exit codes: 0 done, 1 install failed, 2 usage. */
/** The CLI configuration (a `provider_installation` block) that makes Terraform take virtseed from mirror `root`. */
function mirrorCliConfig(root: string): string {
  return (
    `provider_installation {\n  filesystem_mirror {\n    path    = "${root}"\n    include = ["registry.terraform.io/virtseed/*"]\n  }\n` +
    `  direct {\n    exclude = ["registry.terraform.io/virtseed/*"]\n  }\n}\n`
  );
}

export function providerCommand(argv: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): number {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout(`${PROVIDER_USAGE}\n`);
    return 0;
  }
  if (command !== 'install') {
    io.stderr(`${command === undefined ? 'missing command' : `unknown command 'provider ${command}'`}\n${PROVIDER_USAGE}\n`);
    return 2;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        mirror: { type: 'string' },
        from: { type: 'string' },
        platform: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    io.stderr(`${(e as Error).message}\n${PROVIDER_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(`${PROVIDER_USAGE}\n`);
    return 0;
  }
  try {
    const r = installProvider({ mirror: values.mirror, from: values.from, platform: values.platform });
    const installed = `installed terraform-provider-virtseed ${r.version} (${r.platform}): ${r.path}\n`;
    if (values.mirror === undefined) {
      io.stdout(installed);
      const note = mirrorNote(r.mirror, env);
      if (note) io.stderr(note);
    } else {
      // stdout holds the CLI configuration alone (`> tf.rc` gives a file Terraform reads); the prose goes to stderr.
      io.stderr(installed);
      const note = mirrorNote(r.mirror, env);
      if (note) io.stderr(note);
      io.stderr(
        'terraform finds it with this CLI configuration (~/.terraformrc, or a file named by $TF_CLI_CONFIG_FILE), printed on stdout:\n',
      );
      io.stdout(mirrorCliConfig(path.resolve(values.mirror)));
    }
    return 0;
  } catch (e) {
    io.stderr(`virtseed provider install: ${(e as Error).message}\n`);
    return 1;
  }
}
