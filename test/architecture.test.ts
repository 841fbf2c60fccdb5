/**
 * The import rules of ARCHITECTURE.md, checked on the code itself: every relative import of the shipped code
 * (src/, provider/src/, cli/, constructs/src/; generated files included as targets, tests left out) resolved to
 * its file and held against the layers, the `private/` rule and the resource-file rule; and no import cycle
 * (type-only imports left out: they vanish at run time).
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

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4];
    const to = resolve(file, spec);
    if (to) out.push({ from: file, to, typeOnly: m[2] !== undefined });
  }
  return out;
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
  model: (t) => t === 'ground',
  ops: (t) => t === 'ground' || t.startsWith('model:') || t === 'fields',
  plugin: (t) => t === 'ground' || t.startsWith('model:libvirt') || t === 'provider-host',
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
      const target = b === 'provider' && /^provider\/src\/host(-[a-z]+)?\.ts$/.test(to) ? 'provider-host' : b;
      return !MAY_IMPORT[kind](target);
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

  test('GIVEN the imports that exist at run time WHEN followed THEN no file reaches itself (no cycle)', () => {
    const next = new Map<string, string[]>();
    for (const { from, to, typeOnly } of IMPORTS) if (!typeOnly) next.set(from, [...(next.get(from) ?? []), to]);
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const to of next.get(file) ?? []) visit(to, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of FILES) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
