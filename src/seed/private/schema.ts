/** ajv validation against the project's own JSON Schemas (src/seed/schemas/), mapped to Diagnostics. */
import { createHash } from 'node:crypto';
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { error, warning, type AttributePath, type Diagnostic } from '../../diagnostics';
import cloudConfigSchema from '../schemas/cloud-config.schema.json';
import networkV1Schema from '../schemas/network-config-v1.schema.json';
import networkV2Schema from '../schemas/network-config-v2.schema.json';

export type SchemaName = 'cloud-config' | 'network-config-v1' | 'network-config-v2';

const SCHEMAS: Record<SchemaName, object> = {
  'cloud-config': cloudConfigSchema,
  'network-config-v1': networkV1Schema,
  'network-config-v2': networkV2Schema,
};

let ajv: Ajv | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

/** ajv's standalone code for `name` (scripts/generate-seed-validators.ts), when it was generated from the schema
 *  in use now; undefined when it is missing or stale (the schema changed without regeneration). */
function precompiled(name: SchemaName): ValidateFunction | undefined {
  let generated: { SCHEMA_SHA256: Record<string, string> } & Record<string, unknown>;
  try {
    generated = require('../schemas/validators.generated');
  } catch {
    return undefined;
  }
  const hash = createHash('sha256').update(JSON.stringify(SCHEMAS[name])).digest('hex');
  const id = name.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
  return generated.SCHEMA_SHA256[name] === hash ? (generated[id] as ValidateFunction) : undefined;
}

function validator(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) fn = precompiled(name);
  if (!fn) {
    // ajv is loaded on first use, not when the provider or CLI starts (start-up time, issue #15).
    ajv ??= new (require('ajv') as typeof import('ajv')).default({ allErrors: true, strict: false });
    fn = ajv.compile(SCHEMAS[name]);
  }
  compiled.set(name, fn);
  return fn;
}

/** Top-level keys the cloud-config schema knows (typed modules and other cloud-init modules). */
export const KNOWN_CLOUD_CONFIG_KEYS: ReadonlySet<string> = new Set(Object.keys((cloudConfigSchema as { properties: object }).properties));

/**
 * Error diagnostics for `value` against a schema, one per failing location, paths prefixed by `base`.
 * Alternatives (`oneOf`/`anyOf`) are reported where they really failed: when some alternative accepted the value's
 * type and failed deeper inside, only those deeper errors are kept (not "must be string" at every level above), and
 * the type mismatches of one location are merged into one message ("must be string, array or null").
 */
export function schemaDiagnostics(name: SchemaName, value: unknown, base: AttributePath, summary: string): Diagnostic[] {
  const fn = validator(name);
  if (fn(value)) return [];
  const errors = fn.errors ?? [];
  const located = errors.map((e) => ({ e, path: instancePath(e) }));
  const byPath = new Map<string, { path: AttributePath; types: string[]; messages: string[] }>();
  for (const { e, path } of located) {
    if (isAlternativeNoise(e) && located.some((o) => isStrictlyInside(o.path, path))) continue;
    const full = [...base, ...path];
    const key = JSON.stringify(full);
    const entry = byPath.get(key) ?? { path: full, types: [], messages: [] };
    if (e.keyword === 'type') {
      for (const t of ([] as string[]).concat((e.params as { type: string | string[] }).type)) if (!entry.types.includes(t)) entry.types.push(t);
    } else if (e.keyword !== 'oneOf' && e.keyword !== 'anyOf') {
      const message = describe(e);
      if (!entry.messages.includes(message)) entry.messages.push(message);
    }
    byPath.set(key, entry);
  }
  return [...byPath.values()].map((p) => error(p.path, summary, messageOf(p.types, p.messages)));
}

/** A type mismatch or a failed alternative: noise when an alternative failed deeper inside the same value. */
function isAlternativeNoise(e: ErrorObject): boolean {
  return e.keyword === 'type' || e.keyword === 'oneOf' || e.keyword === 'anyOf';
}

function isStrictlyInside(inner: AttributePath, outer: AttributePath): boolean {
  return inner.length > outer.length && outer.every((step, i) => inner[i] === step);
}

function messageOf(types: string[], messages: string[]): string {
  const typeText = types.length ? `must be ${types.length === 1 ? types[0] : `${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}`}` : '';
  if (!messages.length) return typeText || 'does not match any allowed shape';
  return types.length ? `${messages.join('; ')} (or ${typeText.slice('must '.length)})` : messages.join('; ');
}

/** Warnings for cloud-config top-level keys unknown to cloud-init (they are passed through unchanged). */
export function unknownKeyWarnings(config: Record<string, unknown>, base: AttributePath): Diagnostic[] {
  return Object.keys(config)
    .filter((k) => !KNOWN_CLOUD_CONFIG_KEYS.has(k))
    .map((k) => warning([...base, k], 'Unknown cloud-config key', `"${k}" is not a cloud-init module key; cloud-init ignores it (check the spelling).`));
}

function instancePath(e: ErrorObject): AttributePath {
  const steps: AttributePath = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  if (e.keyword === 'required') steps.push((e.params as { missingProperty: string }).missingProperty);
  if (e.keyword === 'additionalProperties') steps.push((e.params as { additionalProperty: string }).additionalProperty);
  return steps;
}

function describe(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known property here';
    case 'enum':
      return `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    case 'oneOf':
      return 'does not match any allowed shape';
    default:
      return e.message ?? e.keyword;
  }
}
