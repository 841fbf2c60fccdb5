/**
 * Fuzzes the ISO 9660 writer (src/seed/iso9660): random trees — names (ASCII, Latin, CJK, astral characters,
 * spaces, dots, case twins, names of 1–64 UTF-16 units), depths up to the 8-level limit, sizes around the
 * 2048-byte sector and up to 256 KiB, empty files — are written with buildIso and read back by the system tools:
 * `isoinfo -R -f` (Rock Ridge names), `isoinfo -J -f` (Joliet names; isoinfo shows characters beyond Latin-1
 * as `_`), `xorriso -osirrox on -extract` (every name and byte through Rock Ridge) and the same with
 * `-read_fs norock -joliet_map unmapped` (every name and byte through Joliet). Trees that break
 * a limit on purpose (65-unit names, 9 levels, characters Joliet forbids, duplicate paths) must be refused with a
 * ValidationError naming the path. Deterministic: the same seed gives the same trees.
 *
 * Usage: npx tsx scripts/fuzz/iso.ts [--seed N] [--count N] [--start N]   (trees start..start+count-1 of the seed;
 * prints one line per failure and a summary)
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ValidationError } from '../../src/diagnostics';
import { buildIso, type SeedFile } from '../../src/seed/iso9660';

/** Deterministic PRNG (mulberry32), floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyz0123456789',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ_-',
  " .,+=@#$%&()[]{}!~'",
  'äöüßéèêçñåøæœ',
  'дёжзийклмнопрстуфхцчшщъыьэюя',
  '日本語中文한국어テスト漢字',
  '😀🎉🚀🐧', // astral: two UTF-16 units each
];
const FORBIDDEN = ['*', ':', ';', '?', '\\', '\u0001', '\u001f'];

/** Kinds of deliberately invalid trees and the words the ValidationError must contain. */
const INVALID = ['long-name', 'too-deep', 'forbidden-char', 'duplicate'] as const;
type Invalid = (typeof INVALID)[number];

export interface FuzzTree {
  files: SeedFile[];
  /** Set when the tree breaks a limit on purpose: buildIso must refuse it. */
  invalid?: Invalid;
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}

function randomName(rand: () => number, maxUnits = 64): string {
  const target = 1 + Math.floor((rand() < 0.2 ? 1 : rand() * 0.3) * (maxUnits - 1));
  const alphabet = [...pick(rand, ALPHABETS)];
  let name = '';
  while (name.length < target) {
    const ch = rand() < 0.7 ? pick(rand, alphabet) : pick(rand, [...pick(rand, ALPHABETS)]);
    if (name.length + ch.length > maxUnits) break;
    name += ch;
  }
  if (name === '.' || name === '..' || name === '') name = `n${name.length}`;
  return name;
}

function randomSize(rand: () => number): number {
  const r = rand();
  if (r < 0.15) return 0;
  if (r < 0.45) return Math.floor(rand() * 300);
  if (r < 0.75) return 2048 * (1 + Math.floor(rand() * 3)) + Math.floor(rand() * 3) - 1; // around sector ends
  if (r < 0.97) return Math.floor(rand() * 20_000);
  return Math.floor(rand() * 256 * 1024);
}

function content(rand: () => number, size: number): Uint8Array {
  const b = new Uint8Array(size);
  let x = Math.floor(rand() * 2 ** 32) >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    b[i] = x & 0xff;
  }
  return b;
}

/** One random tree; about one in eight breaks a limit on purpose. */
export function randomTree(rand: () => number): FuzzTree {
  const dirs: string[][] = [[]];
  const files: SeedFile[] = [];
  const used = new Set<string>();
  const lower = (p: string) => p; // paths are case-sensitive in Rock Ridge and Joliet alike
  const nFiles = 1 + Math.floor(rand() * 10);
  for (let i = 0; i < nFiles; i++) {
    let parent = pick(rand, dirs);
    // grow a directory chain sometimes (at most 7 directories above the file: 8 levels with the root)
    while (parent.length < 7 && rand() < 0.35) {
      parent = [...parent, randomName(rand)];
      dirs.push(parent);
    }
    const p = [...parent, randomName(rand)].join('/');
    const dirPrefixes = p.split('/').map((_, k, a) => a.slice(0, k + 1).join('/'));
    // a file may not share its path with a directory of another file
    if (
      used.has(lower(p)) ||
      dirPrefixes.slice(0, -1).some((d) => files.some((f) => f.path === d)) ||
      files.some((f) => f.path.startsWith(`${p}/`))
    )
      continue;
    used.add(lower(p));
    files.push({ path: p, content: content(rand, randomSize(rand)) });
  }
  if (rand() >= 0.125) return { files };
  const invalid = pick(rand, INVALID);
  const base = files[0].path;
  switch (invalid) {
    case 'long-name':
      files.push({ path: 'x'.repeat(65), content: new Uint8Array(1) });
      break;
    case 'too-deep':
      files.push({ path: Array.from({ length: 9 }, (_, k) => `d${k}`).join('/'), content: new Uint8Array(1) });
      break;
    case 'forbidden-char':
      files.push({ path: `bad${pick(rand, FORBIDDEN)}name`, content: new Uint8Array(1) });
      break;
    case 'duplicate':
      files.push({ path: base, content: new Uint8Array(2) });
      break;
  }
  return { files, invalid };
}

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, LC_ALL: 'C.UTF-8' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

function allPaths(files: SeedFile[]): string[] {
  const out = new Set<string>();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i <= parts.length; i++) out.add(`/${parts.slice(0, i).join('/')}`);
  }
  return [...out].sort();
}

function walk(root: string, rel = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of walk(root, r)) out.set(k, v);
    else out.set(r, fs.readFileSync(path.join(root, r)));
  }
  return out;
}

/** Checks one tree against the tools; returns null when all agree, else what differed. */
export function checkTree(tree: FuzzTree, work: string, rand: () => number): string | null {
  let image: Uint8Array;
  try {
    image = buildIso(tree.files, { volumeId: 'cidata' });
  } catch (e) {
    if (tree.invalid && e instanceof ValidationError) return null;
    return `buildIso threw ${(e as Error).message}${tree.invalid ? '' : ' for a valid tree'}`;
  }
  if (tree.invalid) return `buildIso accepted a tree with ${tree.invalid}`;
  const iso = path.join(work, 'fuzz.iso');
  fs.writeFileSync(iso, image);
  const want = allPaths(tree.files);
  const rr = run('isoinfo', ['-R', '-f', '-i', iso]).split('\n').filter(Boolean).sort();
  if (JSON.stringify(rr) !== JSON.stringify(want)) return `isoinfo -R names differ: ${JSON.stringify(rr)} vs ${JSON.stringify(want)}`;
  // isoinfo writes Joliet names in its default charset: Latin-1 bytes, '_' for every other UTF-16 unit.
  const latin1 = (p: string) => [...p].map((c) => (c.length === 1 && c.charCodeAt(0) < 0x100 ? c : '_'.repeat(c.length))).join('');
  const jolietRaw = spawnSync('isoinfo', ['-J', '-f', '-i', iso], { maxBuffer: 64 << 20 });
  const joliet = Buffer.from(jolietRaw.stdout).toString('latin1').split('\n').filter(Boolean).sort();
  const wantLatin1 = want.map(latin1).sort();
  if (JSON.stringify(joliet) !== JSON.stringify(wantLatin1))
    return `isoinfo -J names differ: ${JSON.stringify(joliet)} vs ${JSON.stringify(wantLatin1)}`;
  for (const [tree_, extra] of [
    ['Rock Ridge', []],
    ['Joliet', ['-read_fs', 'norock', '-joliet_map', 'unmapped']],
  ] as const) {
    const out = path.join(work, 'x');
    fs.rmSync(out, { recursive: true, force: true });
    run('xorriso', ['-osirrox', 'on', ...extra, '-indev', iso, '-extract', '/', out]);
    const got = walk(out);
    if (got.size !== tree.files.length)
      return `xorriso (${tree_}) extracted ${got.size} files, expected ${tree.files.length}: ${JSON.stringify([...got.keys()])}`;
    for (const f of tree.files) {
      const b = got.get(f.path);
      if (!b || !b.equals(Buffer.from(f.content))) return `xorriso (${tree_}): ${JSON.stringify(f.path)} ${b ? 'differs' : 'is missing'}`;
    }
  }
  void rand;
  return null;
}

/** Runs `count` trees from `seed`; returns the failures (tree index, paths, what differed). */
export function fuzz(
  seed: number,
  count: number,
  onProgress?: (done: number) => void,
  start = 0,
): { tried: number; invalid: number; failures: string[] } {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-isofuzz-'));
  const failures: string[] = [];
  let invalid = 0;
  try {
    for (let i = start; i < start + count; i++) {
      const rand = prng(seed * 1_000_003 + i);
      const tree = randomTree(rand);
      if (tree.invalid) invalid++;
      let why: string | null;
      try {
        why = checkTree(tree, work, rand);
      } catch (e) {
        why = (e as Error).message;
      }
      if (why) failures.push(`tree ${i} (seed ${seed}): ${why}; paths ${JSON.stringify(tree.files.map((f) => f.path))}`);
      if (onProgress && (i + 1 - start) % 500 === 0) onProgress(i + 1 - start);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return { tried: count, invalid, failures };
}

if (require.main === module) {
  const arg = (name: string, dflt: number): number => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : dflt;
  };
  const seed = arg('seed', 1);
  const count = arg('count', 10_000);
  const start = arg('start', 0);
  const { tried, invalid, failures } = fuzz(seed, count, (n) => process.stderr.write(`fuzz-iso: ${n}/${count}\n`), start);
  for (const f of failures) process.stdout.write(`FAIL ${f}\n`);
  process.stdout.write(
    `fuzz-iso: seed ${seed}, trees ${start}..${start + count - 1}: ${tried} trees (${invalid} invalid on purpose), ${failures.length} failures\n`,
  );
  process.exit(failures.length ? 1 : 0);
}
