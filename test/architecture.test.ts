/**
 * The import rules of ARCHITECTURE.md, checked on the code itself: every relative import of the shipped code
 * (src/, provider/src/, cli/, constructs/src/; generated files included as targets, tests left out) resolved to
 * its file and held against the layers, the `private/` rule and the resource-file rule; and no import cycle, neither
 * between files nor, in any folder, between the files and subfolders it holds (an import "back up"). Lazy
 * `require('./x')` calls count as imports; type-only imports count for the cycles too (a circle of types is a circle
 * of meaning, even though it vanishes at run time).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const SHIPPED = ['src', 'provider/src', 'cli', 'constructs/src', 'constructs/index.ts'];

interface Import {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

function sources(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (fs.statSync(abs).isFile()) return [rel];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const child = path.posix.join(rel, e.name);
    if (e.isDirectory()) return sources(child);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [child] : [];
  });
}

function resolve(fromFile: string, spec: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    const abs = path.join(ROOT, candidate);
    if (fs.existsSync(abs) && fs.statSync(abs).isFile()) return candidate;
  }
  return undefined;
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm;
/** A lazy `require('./x')` (loaded when first used, e.g. `require('./commands/seed-show') as typeof import(...)`). */
const REQUIRE = /\brequire\(\s*'(\.[^']+)'\s*\)/g;

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4];
    const to = resolve(file, spec);
    if (to) out.push({ from: file, to, typeOnly: m[2] !== undefined });
  }
  for (const m of text.matchAll(REQUIRE)) {
    const to = resolve(file, m[1]);
    if (to) out.push({ from: file, to, typeOnly: false });
  }
  return out;
}

/** The cycles of a graph given as edges (each cycle once, as `a -> b -> a`). */
function cyclesOf(edges: readonly (readonly [string, string])[]): string[] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) if (from !== to) next.set(from, [...(next.get(from) ?? []), to]);
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (node: string, trail: string[]): void => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const to of next.get(node) ?? []) visit(to, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of next.keys()) visit(node, []);
  return cycles;
}

/** The entry of `folder` (a file or subfolder directly in it) that holds `file`; undefined when outside it. */
function entryOf(folder: string, file: string): string | undefined {
  if (!file.startsWith(`${folder}/`)) return undefined;
  return `${folder}/${file.slice(folder.length + 1).split('/')[0]}`;
}

const FILES = SHIPPED.flatMap(sources);
const IMPORTS = FILES.flatMap(importsOf);

/** The layer of a file: ground (plain helpers), fields (the tables), model (pure areas), ops (host operations over
 *  models), provider, cli, constructs. */
function layer(file: string): string {
  if (/^src\/[^/]+\.ts$/.test(file)) return 'ground';
  if (file.startsWith('src/fields/')) return 'fields';
  if (file.startsWith('src/ops/')) return 'ops';
  if (file.startsWith('src/')) return `model:${file.split('/')[1]}`;
  if (file.startsWith('provider/src/plugin/')) return 'plugin';
  if (file.startsWith('provider/')) return 'provider';
  if (file.startsWith('cli/')) return 'cli';
  return 'constructs';
}

/** What each layer may import besides itself. */
const MAY_IMPORT: Readonly<Record<string, (target: string) => boolean>> = {
  ground: () => false,
  fields: () => false,
  model: (t) => t === 'ground' || t === 'fields',
  ops: (t) => t === 'ground' || t.startsWith('model:') || t === 'fields',
  // The tfplugin6 layer is generic: nothing of the provider's hosts, resources or libvirt (ProviderHosting is its door).
  plugin: (t) => t === 'ground',
  provider: (t) => t !== 'cli' && t !== 'constructs',
  cli: (t) => t === 'ground' || t.startsWith('model:') || t === 'fields' || t === 'ops',
  constructs: (t) => t === 'ground' || t.startsWith('model:') || t === 'fields',
};

describe('import rules (ARCHITECTURE.md)', () => {
  test('GIVEN the shipped code WHEN its imports are read THEN there are some (the reader works)', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(IMPORTS.length).toBeGreaterThan(300);
  });

  test('GIVEN every import WHEN held against the layers THEN none climbs to a layer it may not use', () => {
    const wrong = IMPORTS.filter(({ from, to }) => {
      const [a, b] = [layer(from), layer(to)];
      if (a === b) return false;
      const kind = a.startsWith('model:') ? 'model' : a;
      return !MAY_IMPORT[kind](b);
    }).map(({ from, to }) => `${from} -> ${to}`);
    expect(wrong).toEqual([]);
  });

  test('GIVEN a module under a private/ folder WHEN imported THEN only from the folder that holds that private/', () => {
    const wrong = IMPORTS.filter(({ from, to }) => {
      const at = to.lastIndexOf('/private/');
      return at >= 0 && !from.startsWith(to.slice(0, at + 1));
    }).map(({ from, to }) => `${from} -> ${to}`);
    expect(wrong).toEqual([]);
  });

  test('GIVEN a resource handler file WHEN imported THEN only by the registry (helpers never import a resource)', () => {
    const wrong = IMPORTS.filter(
      ({ from, to }) => /^provider\/src\/resources\/[^/]+\.ts$/.test(to) && from !== 'provider/src/registry.ts',
    ).map(({ from, to }) => `${from} -> ${to}`);
    expect(wrong).toEqual([]);
  });

  test('GIVEN every import, lazy requires and type-only ones included WHEN followed THEN no file reaches itself (no cycle)', () => {
    expect(cyclesOf(IMPORTS.map(({ from, to }) => [from, to] as const))).toEqual([]);
  });

  test('GIVEN any folder of the shipped code WHEN its files and subfolders are taken as one each THEN their imports have no cycle (none runs back up)', () => {
    const folders = new Set(
      FILES.flatMap((f) =>
        f
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    );
    const wrong = [...folders].flatMap((folder) => {
      const edges = IMPORTS.flatMap(({ from, to }) => {
        const [a, b] = [entryOf(folder, from), entryOf(folder, to)];
        return a && b && a !== b ? [[a, b] as const] : [];
      });
      return cyclesOf(edges).map((c) => `${folder}: ${c}`);
    });
    expect(wrong).toEqual([]);
  });

  test('GIVEN the lazy requires of the shipped code WHEN read THEN they are seen (the reader covers require)', () => {
    expect(
      IMPORTS.filter(({ from, to, typeOnly }) => from === 'provider/src/main.ts' && to === 'provider/src/run.ts' && !typeOnly),
    ).toHaveLength(1);
  });
});
