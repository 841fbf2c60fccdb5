/**
 * ISO 9660 seed image benchmark: our in-process `buildIso` against `genisoimage -J -r` and `xorrisofs -J -r`
 * (external tools timed with their process start and output write: the cost a user of those tools pays).
 * Ours is timed warm (after a warm-up of up to 200 calls or 200 ms, as in the long-running provider process) and,
 * for the small cases, as the first call in a fresh Node process (`ours 1st ms`: module already loaded, code not
 * yet optimized).
 * The `spec→iso` rows time the whole seed build, `buildSeedIso` from a SeedSpec (validate, render user-data,
 * meta-data and network-config, build the ISO), against the tools packing the files that build renders.
 */
import { spawnSync } from 'child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { performance } from 'perf_hooks';
import { buildSeedIso, renderSeed, type SeedSpec } from '../src/seed';
import { buildIso, type SeedFile } from '../src/seed/iso9660';

/** One benchmark case's medians, milliseconds; `undefined` when the tool is not installed. */
export interface IsoBenchRow {
  readonly name: string;
  /** Total bytes of file content. */
  readonly inputBytes: number;
  readonly iterations: number;
  /** `buildIso` in memory. */
  readonly oursMs: number;
  /** `buildIso` plus writing the image to a file. */
  readonly oursWriteMs: number;
  /** The first call in a fresh Node process (small cases only). */
  readonly oursFirstMs?: number;
  readonly genisoimageMs?: number;
  readonly xorrisofsMs?: number;
}

export interface IsoBenchOptions {
  /** Timed runs per tool for the small seed. @default 100 */
  readonly smallIterations?: number;
  /** Timed runs per tool for the 64 MiB seed. @default 5 */
  readonly largeIterations?: number;
  /** Where lines are printed. @default console.log */
  readonly log?: (line: string) => void;
}

const MiB = 1024 * 1024;
const utf8 = (text: string) => new TextEncoder().encode(text);

function pseudoRandom(length: number): Uint8Array {
  const out = new Uint8Array(length);
  const words = new Uint32Array(out.buffer, 0, length >>> 2);
  let x = 0x2545f491;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return out;
}

function noCloudSeed(): SeedFile[] {
  const userData = `#cloud-config\nhostname: bench\n${'# padding line for a user-data of about 2 KiB\n'.repeat(44)}`;
  return [
    { path: 'meta-data', content: utf8('instance-id: i-0123456789abcdef\nlocal-hostname: bench\n') },
    { path: 'user-data', content: utf8(userData) },
    { path: 'network-config', content: utf8('version: 2\nethernets:\n  eth0:\n    dhcp4: true\n') },
  ];
}

function largeSeed(): SeedFile[] {
  return [...noCloudSeed(), { path: 'payload.bin', content: pseudoRandom(64 * MiB) }];
}

/** A typical NoCloud seed spec: user with key, files, environment, static network, runcmd. */
function smallSpec(): SeedSpec {
  return {
    instance_id: 'bench-1',
    hostname: 'bench',
    public_keys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBenchKey0000000000000000000000000000000000 bench'],
    cloud_config: {
      users: [
        {
          name: 'alice',
          shell: '/bin/bash',
          ssh_authorized_keys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAlice000000000000000000000000000000000000000 alice'],
        },
      ],
      packages: ['nginx', 'curl'],
      runcmd: ['systemctl enable --now nginx', ['sh', '-c', 'echo ready > /dev/ttyS0']],
    },
    environment: { APP_MODE: 'production', REGION: 'eu-1' },
    files: [
      { path: '/etc/app.conf', content: 'listen=8080\nworkers=4\n', permissions: '0600', owner: 'root:root' },
      { path: '/etc/motd', content: 'bench\n' },
    ],
    network: {
      version: 2,
      interfaces: [{ mac: '52:54:00:aa:bb:01', addresses: ['10.0.2.15/24'], gateway4: '10.0.2.2', nameservers: ['10.0.2.3'] }],
    },
  };
}

/** A seed of about 64 MiB: the small spec plus a 46 MiB binary file (base64 in user-data: 61.3 MiB, under the
 *  seed size rule's 64 MiB per file, src/seed/private/size.ts). */
function largeSpec(): SeedSpec {
  const spec = smallSpec();
  const payload = Buffer.from(pseudoRandom(46 * MiB)).toString('base64');
  return { ...spec, files: [...(spec.files ?? []), { path: '/opt/payload.bin', content_base64: payload }] };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function time(iterations: number, fn: () => void): number {
  const warmUntil = performance.now() + 200;
  for (let n = 0; n < 200 && (n < 1 || performance.now() < warmUntil); n++) fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/**
 * Times the first `buildIso` (or `buildSeedIso` when `spec` is given) in a fresh Node process, after its modules
 * are loaded. Runs the built copy in dist/ (the bench itself runs from dist/).
 */
function firstCallMs(files: SeedFile[], spec?: SeedSpec): number {
  const seedModule = join(__dirname, '..', 'src', 'seed');
  const payload = JSON.stringify({ files: files.map((f) => ({ path: f.path, content: Buffer.from(f.content).toString('base64') })), spec });
  const script = `
    const seed = require(${JSON.stringify(seedModule)});
    const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    const files = input.files.map((f) => ({ path: f.path, content: Buffer.from(f.content, 'base64') }));
    const { performance } = require('perf_hooks');
    const start = performance.now();
    if (input.spec) seed.buildSeedIso(input.spec); else seed.buildIso(files, { volumeId: 'cidata' });
    process.stdout.write(String(performance.now() - start));`;
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = spawnSync(process.execPath, ['-e', script], { input: payload, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`first-call probe failed: ${r.stderr}`);
    samples.push(Number(r.stdout));
  }
  return median(samples);
}

function hasTool(tool: string): boolean {
  return spawnSync(tool, ['-version'], { stdio: 'ignore' }).status === 0;
}

function runTool(tool: string, args: string[]): void {
  const result = spawnSync(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr.toString()}`);
}

function benchCase(
  name: string,
  files: SeedFile[],
  iterations: number,
  work: string,
  ours?: () => Uint8Array,
  spec?: SeedSpec,
): IsoBenchRow {
  const build = ours ?? (() => buildIso(files, { volumeId: 'cidata' }));
  const src = join(work, `${name}-src`);
  for (const file of files) {
    mkdirSync(dirname(join(src, file.path)), { recursive: true });
    writeFileSync(join(src, file.path), file.content);
  }
  const out = join(work, `${name}.iso`);
  const external = (tool: string) =>
    hasTool(tool) ? time(iterations, () => runTool(tool, ['-quiet', '-J', '-r', '-V', 'cidata', '-o', out, src])) : undefined;
  return {
    name,
    inputBytes: files.reduce((n, f) => n + f.content.length, 0),
    iterations,
    oursMs: time(iterations, build),
    oursWriteMs: time(iterations, () => writeFileSync(out, build())),
    oursFirstMs: files.reduce((n, f) => n + f.content.length, 0) < MiB ? firstCallMs(files, spec) : undefined,
    genisoimageMs: external('genisoimage'),
    xorrisofsMs: external('xorrisofs'),
  };
}

/** A bench case for a whole seed: `buildSeedIso(spec)` against the tools on the files it renders. */
function seedCase(name: string, spec: SeedSpec, iterations: number, work: string): IsoBenchRow {
  const files = renderSeed(spec).files;
  return benchCase(name, files, iterations, work, () => buildSeedIso(spec).iso, spec);
}

const ms = (value?: number) => (value === undefined ? 'n/a' : value.toFixed(2));
const ratio = (tool?: number, ours?: number) =>
  tool === undefined || !ours ? 'n/a' : `${(tool / ours).toFixed(tool / ours < 1 ? 3 : 1)}x`;
const mbps = (bytes: number, value?: number) => (value === undefined ? 'n/a' : (bytes / MiB / (value / 1000)).toFixed(0));

/** Formats rows as a fixed-width table. */
export function formatIsoTable(rows: readonly IsoBenchRow[]): string[] {
  const header = [
    'case',
    'runs',
    'ours ms',
    'ours 1st ms',
    'ours+write ms',
    'genisoimage ms',
    'xorrisofs ms',
    'geniso/ours',
    'xorriso/ours',
    'MB/s ours',
    'MB/s geniso',
    'MB/s xorriso',
  ];
  const body = rows.map((r) => {
    const large = r.inputBytes >= MiB;
    return [
      r.name,
      String(r.iterations),
      ms(r.oursMs),
      ms(r.oursFirstMs),
      ms(r.oursWriteMs),
      ms(r.genisoimageMs),
      ms(r.xorrisofsMs),
      ratio(r.genisoimageMs, r.oursMs),
      ratio(r.xorrisofsMs, r.oursMs),
      large ? mbps(r.inputBytes, r.oursMs) : '-',
      large ? mbps(r.inputBytes, r.genisoimageMs) : '-',
      large ? mbps(r.inputBytes, r.xorrisofsMs) : '-',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
}

/** Runs both cases (small NoCloud seed, 64 MiB seed), prints the table and returns the rows. */
export function runIsoBench(options: IsoBenchOptions = {}): IsoBenchRow[] {
  const log = options.log ?? ((line: string) => console.log(line));
  const work = mkdtempSync(join(tmpdir(), 'virtseed-bench-iso-'));
  try {
    const rows = [
      benchCase('nocloud-small', noCloudSeed(), options.smallIterations ?? 100, work),
      benchCase('seed-64MiB', largeSeed(), options.largeIterations ?? 5, work),
      seedCase('spec→iso small', smallSpec(), options.smallIterations ?? 100, work),
      seedCase('spec→iso 64MiB', largeSpec(), options.largeIterations ?? 5, work),
    ];
    log(
      'ISO 9660 + Joliet + Rock Ridge seed image (median ms; ours warm, "ours 1st" = first call in a fresh process; external tools include process start and file write)',
    );
    log('rows spec→iso: "ours" is buildSeedIso(SeedSpec) (validate + render + ISO); the tools pack the files it rendered');
    for (const line of formatIsoTable(rows)) log(line);
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
