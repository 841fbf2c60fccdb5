/**
 * `virtseed seed build [options] OUTPUT USER-DATA [META-DATA]`: cloud-localds's command line (cloud-image-utils),
 * so its users switch by changing the command name. The files go onto the image byte for byte, as cloud-localds
 * puts them there: `user-data` (`-` = stdin), `meta-data` (the given file, or cloud-localds's generated JSON:
 * instance-id `iid-local01`, `-H` local-hostname, `-i` interfaces, `-m` dsmode), `network-config` (`-N`) and
 * `vendor-data` (`-V`), on an ISO 9660 image with Joliet and Rock Ridge labelled `cidata` (NoCloud), built in
 * process and deterministic. `-f vfat` makes a FAT file system instead, labelled `cidata`, with mkfs.vfat
 * (`--invariant`) and mcopy (dosfstools, mtools; files dated 1980-01-01 UTC), 128 KiB like cloud-localds's or as
 * large as the files need. `-d` converts the image with `qemu-img convert` (e.g. qcow2) or writes a tar (`tar`,
 * `tar-seed-local`, `tar-seed-net`, GNU tar, fixed owner and mtime). OUTPUT `-` writes to stdout. Unlike cloud-localds, the
 * user-data, network-config and vendor-data are checked the way the seed validator checks a spec's `user_data`,
 * `network_config` and `vendor_data`; what it finds is printed as warnings (the image is written as given).
 */
import type * as ChildProcess from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import type * as Os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { formatPath, type Diagnostic } from '../../src/diagnostics';
import { CLOUDINIT_SEED_FIELDS } from '../../src/fields/cloudinit-seed';
import { isOneOf, valuesOf } from '../../src/fields/model';
import { buildIso, validateSeed, type SeedFile, type SeedSpec } from '../../src/seed';
import { writeFileAtomic } from '../../src/seed/io';
import type { CliIo } from '../io';

/** node:child_process and node:os, loaded only by the output formats that run tools (a plain ISO needs neither:
 *  start-up time, issue #25). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only the formats that run tools load it (issue #25)
const childProcess = (): typeof ChildProcess => require('node:child_process') as typeof ChildProcess;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only the formats that run tools load it (issue #25)
const os = (): typeof Os => require('node:os') as typeof Os;

export interface LocaldsArgs {
  output: string;
  /** File path or `-` (stdin). */
  userData: string;
  metaData?: string;
  networkConfig?: string;
  vendorData?: string;
  hostname?: string;
  interfaces?: string;
  dsmode?: string;
  /** `raw` (default), a qemu-img format (`qcow2`, `vmdk`, ...), `tar`, `tar-seed-local`, `tar-seed-net`. */
  diskFormat?: string;
  /** `iso`/`iso9660` (default), `vfat` or `tar`. */
  filesystem?: string;
  verbose?: number;
}

/** cloud-localds's instance-id when it writes the meta-data. */
const LOCALDS_INSTANCE_ID = 'iid-local01';
const DSMODES = ['local', 'net', 'pass', 'disabled'];
const TAR_FORMATS = ['tar', 'tar-seed-local', 'tar-seed-net'];

/** A usage or input error: the message names what was given and what is expected (exit code 2). */
export class LocaldsError extends Error {}

/**
 * cloud-localds's meta-data when no META-DATA file is given: a JSON object, one `"key": "value"` per line, keys
 * in cloud-localds's order, empty values left out. Values are JSON strings (cloud-localds writes them unescaped;
 * the two agree for values without `"`, `\` and control characters). `interfaces` is the file's text without its
 * final newline, as cloud-localds's `$(sed ...)` leaves it.
 */
export function localdsMetaData(opts: { hostname?: string; interfaces?: string; dsmode?: string }): string {
  const pairs: Array<[string, string | undefined]> = [
    ['instance-id', LOCALDS_INSTANCE_ID],
    ['local-hostname', opts.hostname],
    ['interfaces', opts.interfaces?.replace(/\n$/, '')],
    ['dsmode', opts.dsmode],
  ];
  const lines = pairs.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `"${k}": ${JSON.stringify(v)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** The checked formats: what to build and how to package it. Throws LocaldsError. */
export function resolveFormats(
  diskFormat = 'raw',
  filesystem?: string,
): { filesystem: 'iso9660' | 'vfat' | 'tar' | 'tar-seed-local' | 'tar-seed-net'; diskFormat: string } {
  if (TAR_FORMATS.includes(diskFormat)) {
    if ((filesystem ?? 'tar') !== 'tar')
      throw new LocaldsError(`-d ${diskFormat} writes a tar archive and takes no -f (got -f ${filesystem})`);
    return { filesystem: diskFormat as 'tar', diskFormat };
  }
  if (diskFormat.startsWith('tar')) throw new LocaldsError(`-d ${diskFormat}: the tar formats are ${TAR_FORMATS.join(', ')}`);
  if (!/^[a-z0-9]+$/.test(diskFormat))
    throw new LocaldsError(`-d ${diskFormat}: expected raw, a qemu-img format (qcow2, vmdk, vdi, vhdx, ...) or ${TAR_FORMATS.join(', ')}`);
  const fs = filesystem ?? 'iso9660';
  if (fs === 'iso' || fs === 'iso9660') return { filesystem: 'iso9660', diskFormat };
  if (fs === 'vfat') return { filesystem: 'vfat', diskFormat };
  if (isOneOf(valuesOf(CLOUDINIT_SEED_FIELDS.fields.format), fs))
    throw new LocaldsError(`-f ${fs}: -f is the file system (iso); the seed layout of a spec is --format ${fs}`);
  if (fs === 'tar') throw new LocaldsError('-f tar: give -d tar (or tar-seed-local, tar-seed-net) instead');
  throw new LocaldsError(`-f ${fs}: unknown file system; expected iso, iso9660 or vfat`);
}

function readInput(file: string, what: string, io: CliIo): Uint8Array {
  if (file === '-') {
    if (!io.stdin) throw new LocaldsError(`${what} "-": no stdin to read`);
    return io.stdin();
  }
  try {
    return new Uint8Array(readFileSync(file));
  } catch (e) {
    throw new LocaldsError(`${what} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

/** The files cloud-localds puts on the image, in its order. Throws LocaldsError. */
function localdsFiles(args: LocaldsArgs, io: CliIo): SeedFile[] {
  if (args.metaData !== undefined && (args.interfaces !== undefined || args.hostname !== undefined || args.dsmode !== undefined)) {
    throw new LocaldsError(
      'META-DATA is incompatible with -i/--interfaces, -H/--hostname and -m/--dsmode: put those keys into the meta-data file',
    );
  }
  if (args.dsmode !== undefined && !DSMODES.includes(args.dsmode))
    throw new LocaldsError(`-m ${args.dsmode}: expected one of ${DSMODES.join(', ')}`);
  if (args.hostname !== undefined) {
    const bad = validateSeed({ hostname: args.hostname }).filter((d) => d.severity === 'error');
    if (bad.length) throw new LocaldsError(`-H ${args.hostname}: ${bad[0]!.detail}`);
  }
  const text = new TextEncoder();
  const userData = readInput(args.userData, 'USER-DATA', io);
  const metaData =
    args.metaData !== undefined
      ? readInput(args.metaData, 'META-DATA', io)
      : text.encode(
          localdsMetaData({
            ...(args.hostname !== undefined ? { hostname: args.hostname } : {}),
            ...(args.interfaces !== undefined ? { interfaces: Buffer.from(readInput(args.interfaces, '-i', io)).toString('utf8') } : {}),
            ...(args.dsmode !== undefined ? { dsmode: args.dsmode } : {}),
          }),
        );
  const files: SeedFile[] = [
    { path: 'user-data', content: userData },
    { path: 'meta-data', content: metaData },
  ];
  if (args.networkConfig !== undefined) files.push({ path: 'network-config', content: readInput(args.networkConfig, '-N', io) });
  if (args.vendorData !== undefined) files.push({ path: 'vendor-data', content: readInput(args.vendorData, '-V', io) });
  return files;
}

/** Runs a tool, throwing LocaldsError with its output when it fails or is missing. */
function run(cmd: string, argv: string[], env?: NodeJS.ProcessEnv): void {
  try {
    childProcess().execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    if (err.code === 'ENOENT') throw new LocaldsError(`${cmd} is needed for this output format and is not installed`);
    throw new LocaldsError(`${cmd} ${argv.join(' ')} failed: ${err.stderr?.toString().trim() || err.message}`);
  }
}

/** Bytes of a FAT image that holds `files`: cloud-localds's 128 KiB, or more when the files need it. */
export function vfatSize(files: readonly SeedFile[]): number {
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  return Math.max(128 * 1024, Math.ceil(((bytes + 64 * 1024) * 1.1) / 65536) * 65536);
}

/** A FAT file system labelled `cidata` with the files, by mkfs.vfat and mcopy; the same bytes for the same files. */
function vfatImage(files: readonly SeedFile[], tmp: string): string {
  const img = join(tmp, 'seed.vfat');
  writeFileSync(img, new Uint8Array(0));
  truncateSync(img, vfatSize(files));
  run('mkfs.vfat', ['--invariant', '-n', 'cidata', img]);
  const epoch = new Date(Date.UTC(1980, 0, 1)); // FAT's first date: a fixed timestamp instead of the build time
  for (const f of files) {
    const src = join(tmp, `vfat-${f.path}`);
    writeFileSync(src, f.content);
    utimesSync(src, epoch, epoch);
    run('mcopy', ['-m', '-o', '-i', img, src, `::${f.path}`], { ...process.env, TZ: 'UTC' });
  }
  return img;
}

/** The image bytes in the requested file system and disk format. */
function image(files: SeedFile[], filesystem: string, diskFormat: string): Uint8Array {
  if (filesystem === 'iso9660' && diskFormat === 'raw') return buildIso(files, { volumeId: 'cidata' });
  const tmp = mkdtempSync(join(os().tmpdir(), 'virtseed-localds-'));
  try {
    if (filesystem === 'iso9660' || filesystem === 'vfat') {
      let raw = join(tmp, 'seed.raw');
      if (filesystem === 'vfat') raw = vfatImage(files, tmp);
      else writeFileSync(raw, buildIso(files, { volumeId: 'cidata' }));
      if (diskFormat === 'raw') return new Uint8Array(readFileSync(raw));
      run('qemu-img', ['convert', '-f', 'raw', '-O', diskFormat, raw, join(tmp, 'seed.out')]);
      return new Uint8Array(readFileSync(join(tmp, 'seed.out')));
    }
    const sub =
      filesystem === 'tar-seed-local'
        ? 'var/lib/cloud/seed/nocloud'
        : filesystem === 'tar-seed-net'
          ? 'var/lib/cloud/seed/nocloud-net'
          : '';
    const dir = join(tmp, 'root', sub);
    mkdirSync(dir, { recursive: true });
    for (const f of files) writeFileSync(join(dir, f.path), f.content);
    const members = sub ? [sub] : files.map((f) => f.path);
    run('tar', [
      '--owner=root',
      '--group=root',
      '--numeric-owner',
      '--mtime=@0',
      '--sort=name',
      '--format=gnu',
      '-C',
      join(tmp, 'root'),
      '-cf',
      join(tmp, 'seed.tar'),
      ...members,
    ]);
    return new Uint8Array(readFileSync(join(tmp, 'seed.tar')));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * What the seed validator says about the text files of the image, as warnings naming the file: cloud-config
 * (invalid YAML, wrong types, unknown keys), network-config v1/v2 and vendor-data.
 */
export function localdsWarnings(
  files: readonly SeedFile[],
  names: { userData: string; networkConfig?: string; vendorData?: string },
): string[] {
  const text = (name: string): string | undefined => {
    const f = files.find((x) => x.path === name);
    if (!f) return undefined;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(f.content);
    } catch {
      return undefined;
    }
  };
  const spec: SeedSpec = {};
  const userData = text('user-data');
  const networkConfig = text('network-config');
  const vendorData = text('vendor-data');
  if (userData !== undefined) spec.user_data = userData;
  if (networkConfig !== undefined) spec.network_config = networkConfig;
  if (vendorData !== undefined) spec.vendor_data = vendorData;
  const fileOf: Record<string, string | undefined> = {
    user_data: `USER-DATA ${names.userData === '-' ? '(stdin)' : names.userData}`,
    network_config: names.networkConfig && `-N ${names.networkConfig}`,
    vendor_data: names.vendorData && `-V ${names.vendorData}`,
  };
  return validateSeed(spec).map((d: Diagnostic) => {
    const [root, ...rest] = d.path;
    const where = `${fileOf[String(root)] ?? String(root)}${rest.length ? `: ${formatPath(rest)}` : ''}`;
    return `warning: ${where}: ${d.summary}: ${d.detail}`;
  });
}

/** Exit codes: 0 written, 1 writing failed, 2 usage or input error. Prints nothing on success (like cloud-localds)
 *  unless `verbose`. */
export function seedLocalds(args: LocaldsArgs, io: CliIo): number {
  try {
    if (args.output !== '-' && /\.(ya?ml|json)$/i.test(args.output)) {
      throw new LocaldsError(
        `OUTPUT ${args.output} looks like a spec file, and would be overwritten; to build from a spec: virtseed seed build ${args.output} -o seed.iso`,
      );
    }
    const inputs = [args.userData, args.metaData, args.networkConfig, args.vendorData, args.interfaces].filter(
      (f): f is string => f !== undefined && f !== '-',
    );
    if (args.output !== '-' && inputs.some((f) => resolve(f) === resolve(args.output)))
      throw new LocaldsError(`OUTPUT ${args.output} is also an input file`);
    const { filesystem, diskFormat } = resolveFormats(args.diskFormat, args.filesystem);
    const files = localdsFiles(args, io);
    for (const w of localdsWarnings(files, args)) io.stderr(`${w}\n`);
    const bytes = image(files, filesystem, diskFormat);
    if (args.output === '-') (io.stdoutBytes ?? ((d: Uint8Array) => io.stdout(Buffer.from(d).toString('latin1'))))(bytes);
    else {
      try {
        writeFileAtomic(args.output, bytes);
      } catch (e) {
        io.stderr(`virtseed seed build: cannot write ${args.output} (in ${dirname(resolve(args.output))}): ${(e as Error).message}\n`);
        return 1;
      }
    }
    if ((args.verbose ?? 0) > 0) io.stderr(`wrote ${args.output} with filesystem=${filesystem} and diskformat=${diskFormat}\n`);
    return 0;
  } catch (e) {
    if (e instanceof LocaldsError) {
      io.stderr(`virtseed seed build: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
