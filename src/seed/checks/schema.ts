/**
 * ajv validation against the seed's JSON Schemas (src/seed/schemas/), mapped to Diagnostics.
 *
 * `cloud-config` is cloud-init's own schema, derived from the files Debian's cloud-init package installs by
 * scripts/derive-cloud-init-schema.ts (version and source recorded in the file, `x-virtseed-derived-from`). It is
 * draft-04 and is compiled by ajv-draft-04, the ajv project's draft-04 validator, the way cloud-init's validator
 * (python-jsonschema Draft4Validator with a FormatChecker) reads it: format `date` checked (the only format of the
 * schema python-jsonschema checks without extra packages; `hostname` and `uri` are not checked by cloud-init either),
 * `deprecated: true` an annotation (a warning, never an error — cloud-init logs it and goes on). The network-config
 * schemas are the project's own (draft-07; cloud-init 22.4 ships none). All validators are precompiled by
 * scripts/generate-seed-validators.ts (ajv standalone code; cloud-config's `deprecated` keyword generates code too,
 * src/seed/checks/cloud-init-ajv.ts), so neither the provider nor the CLI loads ajv or compiles a schema at run
 * time (start-up time, issue #15); only when the generated code is missing is ajv loaded and the schema compiled.
 * That the generated code matches the schema files is held by a unit test (test/seed/validators-generated.test.ts,
 * which names the command that regenerates it), not at every start: hashing the schemas cost each process node:crypto
 * and a 76 KB JSON.stringify (issue #25).
 */
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { error, warning, type AttributePath, type Diagnostic } from '../../diagnostics';
import cloudConfigSchema from '../schemas/cloud-config.schema.json';
import type { DeprecationContext } from './cloud-init-ajv';
import networkV1Schema from '../schemas/network-config-v1.schema.json';
import networkV2Schema from '../schemas/network-config-v2.schema.json';

export type SchemaName = 'cloud-config' | 'network-config-v1' | 'network-config-v2';

const SCHEMAS: Record<SchemaName, object> = {
  'cloud-config': cloudConfigSchema,
  'network-config-v1': networkV1Schema,
  'network-config-v2': networkV2Schema,
};

/** Where cloud-config's schema comes from (recorded by scripts/derive-cloud-init-schema.ts). */
const CLOUD_CONFIG_SCHEMA_SOURCE = (cloudConfigSchema as unknown as { 'x-virtseed-derived-from': { version: string; path: string } })[
  'x-virtseed-derived-from'
];

let draft07: Ajv | undefined;
let draft04: Ajv | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

/** ajv's standalone code for a network-config schema (scripts/generate-seed-validators.ts); undefined when missing. */
function precompiled(name: SchemaName): ValidateFunction | undefined {
  let generated: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional generated code, loaded lazily (issue #15)
    generated = require('../schemas/validators.generated');
  } catch {
    return undefined;
  }
  const id = name.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
  return generated[id] as ValidateFunction | undefined;
}

let generatedModules: Record<string, ValidateFunction> | null | undefined;

/** The precompiled cloud-config module validators (undefined when the generated code is missing). */
function precompiledModule(module: string): ValidateFunction | undefined {
  if (generatedModules === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional generated code, loaded lazily (issue #15)
      const generated = require('../schemas/cloud-config.validators.generated') as { modules: Record<string, ValidateFunction> };
      generatedModules = generated.modules;
    } catch {
      generatedModules = null;
    }
  }
  return generatedModules?.[module];
}

function compiledModule(module: string): ValidateFunction {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only when the precompiled code is missing (issue #15)
  const ajvModule = require('./cloud-init-ajv') as typeof import('./cloud-init-ajv');
  if (!draft04) {
    draft04 = ajvModule.cloudInitAjv();
    draft04.addSchema(SCHEMAS['cloud-config'], ajvModule.CLOUD_CONFIG_KEY);
  }
  return draft04.compile(ajvModule.moduleSchema(module));
}

function runValidator(fn: ValidateFunction, value: unknown, context?: DeprecationContext): ErrorObject[] {
  return fn.call(context, value) ? [] : [...(fn.errors ?? [])];
}

const moduleValidators = new Map<string, ValidateFunction>();

/**
 * cloud-init's schema is `allOf` one `$ref` per module (`#/$defs/cc_<module>`, and `base_config`), each an object
 * schema of that module's properties only. So a config object is validated against the modules whose properties it
 * uses (any other value against all of them, in order): the same errors as the whole schema. The module validators
 * are precompiled (scripts/generate-seed-validators.ts); when that code is missing each is compiled on first use.
 * `deprecated` uses are appended to `context.deprecated`.
 */
function cloudConfigErrors(value: unknown, context: DeprecationContext): ErrorObject[] {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  const keys = isObject ? Object.keys(value) : [];
  const errors: ErrorObject[] = [];
  for (const [module, properties] of MODULE_PROPERTIES) {
    if (isObject && !keys.some((k) => properties.has(k))) continue;
    let fn = moduleValidators.get(module);
    if (!fn) {
      fn = precompiledModule(module) ?? compiledModule(module);
      moduleValidators.set(module, fn);
    }
    errors.push(...runValidator(fn, value, context));
  }
  return errors;
}

function validator(name: Exclude<SchemaName, 'cloud-config'>): ValidateFunction {
  let fn = compiled.get(name) ?? precompiled(name);
  if (!fn)
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: only when the precompiled code is missing (issue #15)
    fn = (draft07 ??= new (require('ajv') as typeof import('ajv')).default({ allErrors: true, strict: false })).compile(SCHEMAS[name]);
  compiled.set(name, fn);
  return fn;
}

/** Top-level keys cloud-init's schema knows: the properties of every schema its root `allOf` references. */
const KNOWN_CLOUD_CONFIG_KEYS: ReadonlySet<string> = new Set(knownTopLevelKeys(cloudConfigSchema as unknown as RootSchema));

/** Each module schema the root `allOf` references, with its top-level property names. */
const MODULE_PROPERTIES: ReadonlyArray<[string, ReadonlySet<string>]> = ((cloudConfigSchema as unknown as RootSchema).allOf ?? []).flatMap(
  (part) => {
    const name = part.$ref?.replace(/^#\/\$defs\//, '');
    const def = name ? (cloudConfigSchema as unknown as RootSchema).$defs?.[name] : undefined;
    return name && def ? [[name, new Set(Object.keys(def.properties ?? {}))] as [string, ReadonlySet<string>]] : [];
  },
);

interface RootSchema {
  allOf?: { $ref?: string }[];
  $defs?: Record<string, { properties?: Record<string, unknown> }>;
  properties?: Record<string, unknown>;
}

function knownTopLevelKeys(schema: RootSchema): string[] {
  const keys = Object.keys(schema.properties ?? {});
  for (const part of schema.allOf ?? []) {
    const name = part.$ref?.replace(/^#\/\$defs\//, '');
    if (name && schema.$defs?.[name]?.properties) keys.push(...Object.keys(schema.$defs[name].properties ?? {}));
  }
  return keys;
}

/**
 * Errors of a cloud-config against cloud-init's schema (as {@link schemaDiagnostics}) plus warnings for the keys
 * it marks `deprecated` (cloud-init still reads them, logs a deprecation and may drop them in a later release), in
 * one validation; paths prefixed by `base`.
 */
export function cloudConfigSchemaDiagnostics(value: unknown, base: AttributePath, summary: string): Diagnostic[] {
  const context: DeprecationContext = { deprecated: [] };
  const errors = errorDiagnostics(cloudConfigErrors(value, context), value, base, summary);
  const seen = new Set<string>();
  const warnings: Diagnostic[] = [];
  for (const use of context.deprecated) {
    if (seen.has(use.instancePath)) continue;
    seen.add(use.instancePath);
    warnings.push(
      warning(
        [...base, ...pointerPath(use.instancePath)],
        'Deprecated cloud-config key',
        `cloud-init ${CLOUD_CONFIG_SCHEMA_SOURCE.version.replace(/-.*/, '')} marks this deprecated${use.description ? `: ${use.description.replace(/``/g, '`')}` : ''}.`,
      ),
    );
  }
  return [...errors, ...warnings];
}

/**
 * Error diagnostics for `value` against a schema, one per failing location, paths prefixed by `base`.
 * Alternatives (`oneOf`/`anyOf`) are reported where they really failed: when some alternative accepted the value's
 * type and failed deeper inside, only those deeper errors are kept (not "must be string" at every level above), and
 * the type mismatches of one location are merged into one message ("must be string, array or null").
 */
export function schemaDiagnostics(name: SchemaName, value: unknown, base: AttributePath, summary: string): Diagnostic[] {
  return errorDiagnostics(
    name === 'cloud-config' ? cloudConfigErrors(value, { deprecated: [] }) : runValidator(validator(name), value),
    value,
    base,
    summary,
  );
}

function errorDiagnostics(errors: ErrorObject[], value: unknown, base: AttributePath, summary: string): Diagnostic[] {
  if (errors.length === 0) return [];
  const located = errors.map((e) => ({ e, path: instancePath(e) }));
  const byPath = new Map<string, { path: AttributePath; types: string[]; messages: string[]; given: unknown }>();
  for (const { e, path } of located) {
    if (isAlternativeNoise(e) && located.some((o) => isStrictlyInside(o.path, path))) continue;
    const full = [...base, ...path];
    const key = JSON.stringify(full);
    const entry = byPath.get(key) ?? { path: full, types: [], messages: [], given: valueAt(value, path) };
    if (e.keyword === 'type') {
      for (const t of ([] as string[]).concat((e.params as { type: string | string[] }).type))
        if (!entry.types.includes(t)) entry.types.push(t);
    } else if (e.keyword !== 'oneOf' && e.keyword !== 'anyOf') {
      const message = describe(e);
      if (!entry.messages.includes(message)) entry.messages.push(message);
    }
    byPath.set(key, entry);
  }
  return [...byPath.values()].map((p) =>
    error(p.path, summary, `${messageOf(p.types, p.messages)}${p.given === undefined ? '' : `; got ${shownValue(p.given)}`}`),
  );
}

/** The value at `path` inside `root`, or undefined where there is none (a missing required property). */
function valueAt(root: unknown, path: AttributePath): unknown {
  let at: unknown = root;
  for (const step of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at;
}

/** Longest value shown in a schema error, in characters (the rest is cut, marked with `…`). */
const SHOWN_VALUE_MAX = 60;

/** `value` as JSON for an error message, cut to {@link SHOWN_VALUE_MAX} characters. */
function shownValue(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > SHOWN_VALUE_MAX ? `${json.slice(0, SHOWN_VALUE_MAX - 1)}…` : json;
}

/** A type mismatch or a failed alternative: noise when an alternative failed deeper inside the same value. */
function isAlternativeNoise(e: ErrorObject): boolean {
  return e.keyword === 'type' || e.keyword === 'oneOf' || e.keyword === 'anyOf';
}

function isStrictlyInside(inner: AttributePath, outer: AttributePath): boolean {
  return inner.length > outer.length && outer.every((step, i) => inner[i] === step);
}

/** JSON Schema types in the order messages list them (the schema's own order varies between alternatives). */
const TYPE_ORDER = ['string', 'integer', 'number', 'boolean', 'array', 'object', 'null'];

function messageOf(unsorted: string[], messages: string[]): string {
  const types = [...unsorted].sort((a, b) => TYPE_ORDER.indexOf(a) - TYPE_ORDER.indexOf(b));
  const typeText = types.length
    ? `must be ${types.length === 1 ? types[0] : `${types.slice(0, -1).join(', ')} or ${types[types.length - 1]}`}`
    : '';
  if (!messages.length) return typeText || 'does not match any allowed shape';
  return types.length ? `${messages.join('; ')} (or ${typeText.slice('must '.length)})` : messages.join('; ');
}

/** Warnings for cloud-config top-level keys unknown to cloud-init (they are passed through unchanged). */
export function unknownKeyWarnings(config: Record<string, unknown>, base: AttributePath): Diagnostic[] {
  return Object.keys(config)
    .filter((k) => !KNOWN_CLOUD_CONFIG_KEYS.has(k))
    .map((k) =>
      warning(
        [...base, k],
        'Unknown cloud-config key',
        `"${k}" is not a cloud-init module key; cloud-init ignores it (check the spelling).`,
      ),
    );
}

function pointerPath(pointer: string): AttributePath {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function instancePath(e: ErrorObject): AttributePath {
  const steps = pointerPath(e.instancePath);
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
