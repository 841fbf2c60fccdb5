/**
 * Counts the copies of the field tables' sets of allowed values in the shipped code (src, provider/src,
 * constructs/src, cli; src/fields itself and generated code left out), and the `as` casts per 1000 lines there
 * (`as const` not counted), for issue 34's before → after figures. Run from a checkout's root:
 *   npx tsx scripts/count-value-copies.ts [--list]
 *
 * A copy: a run of string literals ('x', "x" or `x`) of one set's values, each within 3 lines of the one before,
 * that names at least 2 distinct values of the set (a union type, an array, an enum, a chain of comparisons).
 * Spellings through the table (`F.cache.values`, `Object.keys(...)`, `ValuesOf<...>`) are no copies. `--list`
 * prints each copy's file, line and set.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import * as fields from '../src/fields';

const ROOTS = ['src', 'provider/src', 'constructs/src', 'cli'];
const SKIP = [/^src\/fields\//, /\/generated\//, /\.generated\.ts$/, /\.d\.ts$/];

/** Every `values` set (at least 2 values) of every table exported by src/fields, by its path. */
function valueSets(): Map<string, Set<string>> {
  const sets = new Map<string, Set<string>>();
  const walk = (node: unknown, at: string): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'values' && child !== null && typeof child === 'object' && Object.keys(child).length >= 2) {
        const values = new Set(Object.keys(child));
        if (![...sets.values()].some((s) => s.size === values.size && [...s].every((v) => values.has(v)))) sets.set(at, values);
      } else walk(child, `${at}.${key}`);
    }
  };
  for (const [name, table] of Object.entries(fields)) if (name.endsWith('_FIELDS')) walk(table, name);
  return sets;
}

/** The `x as T` and `<T>x` expressions of a file, `as const` left out (counted on the syntax tree). */
function castsIn(file: string, source: string): number {
  let n = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.getText() === 'const')) n++;
    if (ts.isTypeAssertionExpression(node)) n++;
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  return n;
}

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(p);
    return /\.ts$/.test(e.name) && !SKIP.some((re) => re.test(p)) ? [p] : [];
  });
}

const list = process.argv.includes('--list');
const sets = valueSets();
const shipped = ROOTS.flatMap(files);
let copies = 0;
let casts = 0;
let lines = 0;
for (const file of shipped) {
  const source = fs.readFileSync(file, 'utf8');
  const fileLines = source.split('\n');
  lines += fileLines.length;
  casts += castsIn(file, source);
  const literals: { value: string; line: number }[] = [];
  fileLines.forEach((line, i) => {
    if (/^\s*(\*|\/\*\*|\/\/)/.test(line)) return;
    for (const m of line.matchAll(/'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`\\$\n]*)`/g))
      literals.push({ value: m[1] ?? m[2] ?? m[3], line: i + 1 });
  });
  for (const [name, values] of sets) {
    let run: { value: string; line: number }[] = [];
    const close = () => {
      if (new Set(run.map((l) => l.value)).size >= 2) {
        copies++;
        if (list) console.log(`${file}:${run[0].line} ${name} (${[...new Set(run.map((l) => l.value))].join(', ')})`);
      }
      run = [];
    };
    for (const l of literals) {
      if (!values.has(l.value)) continue;
      if (run.length && l.line - run[run.length - 1].line > 3) close();
      run.push(l);
    }
    close();
  }
}
console.log(`value sets: ${sets.size}; copies of allowed values: ${copies}`);
console.log(`casts: ${casts} in ${lines} lines (${((casts * 1000) / lines).toFixed(2)} per 1000)`);
