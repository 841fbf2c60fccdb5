/**
 * The conformance suite's generator of valid configurations (pure: no I/O), walking the resources' field tables
 * (src/fields): each attribute with allowed values cycles through them and its default (left out), each bool through
 * true, false and its default, each nested block (device kind) is present in some configurations and absent in
 * others. What a table cannot say comes from ./kinds.ts: sample values of free-form attributes, the attributes this
 * machine cannot take (each with why), and the repairs of combinations libvirt refuses. A new attribute with
 * allowed values, a new bool or a new block is covered without new test code; a new free-form attribute needs a
 * sample (the unit test names it).
 *
 * Seeded (mulberry32): the same seed gives the same configurations.
 */
import { isBlock, type AttributeField, type FieldTable } from '../../src/fields';

/** A raw HCL expression, e.g. a reference `virtseed_volume.v0.id`. */
export interface Expr {
  readonly expr: string;
}

export type Value = string | number | boolean | Expr | readonly Value[] | { readonly [k: string]: Value };

/** Attribute values of one configured object (or block element), by Terraform name; blocks as arrays of these. */
export type Attrs = { [name: string]: Value | Attrs[] | Attrs };

export function expr(e: string): Expr {
  return { expr: e };
}

export function isExpr(v: unknown): v is Expr {
  return typeof v === 'object' && v !== null && 'expr' in v && Object.keys(v).length === 1;
}

/** A seeded pseudo-random source (mulberry32). */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** In [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/** What the suite knows of the test run: names, paths and the other generated objects. */
export interface Context {
  /** `vstest-...`: every object's name starts with it. */
  readonly prefix: string;
  /** How many instances each kind has in this round (for references between kinds). */
  readonly counts: Readonly<Record<string, number>>;
  /** Fixtures on the host: e.g. `sourceFile` (a small raw image), `sourceSha256`, `shareDir`. */
  readonly fixtures: Readonly<Record<string, string>>;
  /** 10.213.<octet>.0/24 subnets the networks may use: one per network instance. */
  readonly octets: readonly number[];
}

/** Sample values of a free-form attribute for instance `i` (the generator cycles through them). */
export type Sampler = (ctx: Context, i: number) => readonly Value[];

/** What the suite must know of one resource kind beyond its field table. */
export interface KindSpec {
  /** Terraform type, e.g. `virtseed_volume`. */
  readonly type: string;
  readonly fields: FieldTable;
  /** Instances per configuration round. */
  readonly count: number;
  /** Fixed values (required names, references, `running = false`), by attribute path (`a`, `block.a`). */
  readonly base: (ctx: Context, i: number) => Attrs;
  /** Samples of free-form attributes, by path (`disk.serial`). */
  readonly samples: Readonly<Record<string, Sampler>>;
  /** Attributes and blocks never generated, by path, each with the reason (shown in the report). */
  readonly skip: Readonly<Record<string, string>>;
  /** Repairs a generated instance so libvirt and the provider accept it (documented combinations). */
  readonly fix: (attrs: Attrs, ctx: Context, i: number) => void;
  /** A changed value of an attribute for the "changed alone" workflow where the generic one would be refused
   *  (e.g. a capacity that can only grow). */
  readonly change?: Readonly<Record<string, (current: Value | undefined) => Value>>;
  /** `terraform import` id of an instance from its state values; absent: the resource has no import. */
  readonly importId?: (values: Record<string, unknown>) => string;
  /** Attributes import cannot know (libvirt does not keep them), left out of the import comparison. */
  readonly importIgnore?: readonly string[];
  /** What import cannot know of the configuration's spelling (see ImportTarget.asWritten in test/helpers/steps.ts). */
  readonly importAsWritten?: (config: Record<string, unknown>, imported: Record<string, unknown>) => Record<string, unknown>;
}

/** The Terraform resource name of instance `i` of a kind, e.g. `virtseed_volume.c3`. */
export function address(kind: KindSpec, i: number): string {
  return `${kind.type}.c${i}`;
}

function hashOf(s: string): number {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  // FNV-1a's low bits follow the input's low bits: mix them (murmur3's finalizer) before taking a remainder.
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** True when an attribute is one a configuration sets (not computed only). A write-only twin (`_wo`) is not: it
 *  carries the same content as its attribute, never reaches plan or state, and has its own test
 *  (test/provider/write-only.int.test.ts), so the generator always writes the attribute it stands in for. */
export function configurable(f: AttributeField): boolean {
  return (f.required === true || f.optional === true) && f.writeOnly !== true;
}

/**
 * Instance `i`'s attributes: the walk over the table described at the top, then `fix`. `offset` (from the seed)
 * shifts every cycle, so another seed gives other combinations.
 */
export function generate(kind: KindSpec, ctx: Context, i: number, offset: number): Attrs {
  const base = kind.base(ctx, i);
  const attrs = walk(kind, kind.fields, '', ctx, i, offset, base);
  kind.fix(attrs, ctx, i);
  return attrs;
}

function walk(kind: KindSpec, table: FieldTable, at: string, ctx: Context, i: number, offset: number, base: Attrs): Attrs {
  const out: Attrs = {};
  for (const [index, [name, field]] of Object.entries(table).entries()) {
    const p = at ? `${at}.${name}` : name;
    if (base[name] !== undefined && (!at || !isBlock(field))) {
      out[name] = base[name];
      continue;
    }
    if (kind.skip[p] !== undefined) continue;
    // A hash of path, instance and offset: no two attributes stay in step, and another seed mixes them anew.
    const turn = hashOf(`${p}/${i}/${offset}`);
    if (isBlock(field)) {
      if (field.nesting === 'single') {
        if ((turn + index) % 2 === 0) out[name] = walk(kind, field.fields, p, ctx, i, offset, {});
      } else if ((turn + index) % 3 !== 2) {
        const n = 1 + ((turn + index) % 2);
        out[name] = Array.from({ length: n }, (_, k) => walk(kind, field.fields, p, ctx, i * 2 + k, offset, {}));
      }
      continue;
    }
    if (!configurable(field)) continue;
    const v = pick(kind, field, field.required === true, p, ctx, i, turn);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** The value instance `i` gets for one attribute; undefined: left out (its default). */
function pick(
  kind: KindSpec,
  field: AttributeField,
  required: boolean,
  p: string,
  ctx: Context,
  i: number,
  turn: number,
): Value | undefined {
  const sample = kind.samples[p];
  if (sample) {
    const xs = sample(ctx, i);
    const n = required ? xs.length : xs.length + 1;
    const k = turn % n;
    return k < xs.length ? xs[k] : undefined;
  }
  if (field.values) {
    const xs = Object.keys(field.values);
    const n = required ? xs.length : xs.length + 1;
    const k = turn % n;
    return k < xs.length ? xs[k] : undefined;
  }
  if (field.type === 'bool') return [true, false, undefined][turn % 3];
  if (required) throw new Error(`${kind.type}.${p} is required and has no sample value (add one to the kind's samples)`);
  return undefined;
}

/** Optional attributes a kind can neither enumerate nor sample, and that it does not skip with a reason: these
 *  are never generated (a unit test requires this list to be empty). */
export function unsampled(kind: KindSpec, table: FieldTable = kind.fields, at = ''): string[] {
  const out: string[] = [];
  for (const [name, field] of Object.entries(table)) {
    const p = at ? `${at}.${name}` : name;
    if (kind.skip[p] !== undefined) continue;
    if (isBlock(field)) {
      out.push(...unsampled(kind, field.fields, p));
      continue;
    }
    if (!configurable(field) || field.values || field.type === 'bool' || kind.samples[p]) continue;
    if (!at && kind.base({ prefix: 'vstest-x', counts: {}, fixtures: {}, octets: [1, 2, 3, 4] }, 0)[name] !== undefined) continue;
    out.push(`${kind.type}.${p}`);
  }
  return out;
}

/**
 * Another valid value of top-level attribute `name` than `current` (for the "changed alone" workflow), or
 * undefined when the kind knows none: the next allowed value, the other bool, another sample.
 */
export function alternative(kind: KindSpec, name: string, current: Value | undefined, ctx: Context, i: number): Value | undefined {
  const field = kind.fields[name];
  if (!field || isBlock(field)) return undefined;
  const own = kind.change?.[name];
  if (own) return own(current);
  const def = typeof field.default === 'object' ? undefined : field.default;
  const now = current ?? def;
  const candidates: readonly Value[] = kind.samples[name]
    ? [...kind.samples[name](ctx, i), ...kind.samples[name](ctx, i + 1)]
    : field.values
      ? Object.keys(field.values)
      : field.type === 'bool'
        ? [true, false]
        : [];
  return candidates.find((c) => JSON.stringify(c) !== JSON.stringify(now));
}

/** Top-level attributes a change of which updates the object in place (they have an impact, no replace rule),
 *  that the configuration sets, and that the kind does not skip. */
export function updatable(kind: KindSpec): string[] {
  return Object.entries(kind.fields)
    .filter(
      ([name, f]) => !isBlock(f) && configurable(f) && f.impact !== undefined && f.replace === undefined && kind.skip[name] === undefined,
    )
    .map(([name]) => name);
}

function hclValue(v: Value, indent: string): string {
  if (isExpr(v)) return v.expr;
  if (typeof v === 'string')
    return JSON.stringify(v)
      .replace(/\$\{/g, () => '$${')
      .replace(/%\{/g, () => '%%{');
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x: Value) => hclValue(x, indent)).join(', ')}]`;
  const entries = Object.entries(v as Record<string, Value>);
  return `{\n${entries.map(([k, x]) => `${indent}  ${JSON.stringify(k)} = ${hclValue(x, `${indent}  `)}`).join('\n')}\n${indent}}`;
}

function isAttrsList(v: unknown): v is Attrs[] {
  return Array.isArray(v) && v.length > 0 && v.every((e) => typeof e === 'object' && e !== null && !Array.isArray(e) && !isExpr(e));
}

/** The body of a block: attributes as `name = value`, nested blocks (per the table) as blocks. */
export function hclBody(attrs: Attrs, table: FieldTable, indent: string): string {
  const lines: string[] = [];
  for (const [name, v] of Object.entries(attrs)) {
    const field = table[name];
    if (field && isBlock(field)) {
      const elems = field.nesting === 'single' ? [v as Attrs] : isAttrsList(v) ? v : [];
      for (const e of elems) lines.push(`${indent}${name} {\n${hclBody(e, field.fields, `${indent}  `)}${indent}}`);
    } else {
      lines.push(`${indent}${name} = ${hclValue(v as Value, indent)}`);
    }
  }
  return lines.map((l) => `${l}\n`).join('');
}

/** `resource "TYPE" "cN" { ... }` for instance `i`. */
export function hclResource(kind: KindSpec, i: number, attrs: Attrs, extra = ''): string {
  return `resource "${kind.type}" "c${i}" {\n${hclBody(attrs, kind.fields, '  ')}${extra}}\n`;
}
