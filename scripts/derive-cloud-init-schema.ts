/**
 * Derives src/seed/schemas/cloud-config.schema.json from the JSON Schema that Debian's `cloud-init` package
 * installs (cloudinit/config/schemas/schema-cloud-config-v1.json), recording the package version, the source path
 * and its sha256 in the output, so a newer cloud-init is one re-run away:
 *
 *   npx tsx scripts/derive-cloud-init-schema.ts [--source FILE] [--out FILE]
 *
 * Run by hand (cloud-init installed: scripts/install-deps.sh); commit the output. The schema is kept as upstream
 * wrote it (draft-04, compiled by ajv-draft-04) with one normalisation: in draft-04 a schema object holding `$ref`
 * is replaced by the referenced schema and its other members are ignored (JSON Reference, draft-pbryan-zyp-json-ref-03
 * section 3, which draft-04 uses), as cloud-init's validator (python-jsonschema's Draft4Validator) does; those
 * sibling members are dropped so that no validator applies them.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const SCHEMA_FILE = 'schema-cloud-config-v1.json';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The installed file of the `cloud-init` package whose name ends with `schemas/<SCHEMA_FILE>`. */
function installedSchemaPath(): string {
  const files = execFileSync('dpkg', ['-L', 'cloud-init'], { encoding: 'utf8' }).split('\n');
  const found = files.find((f) => f.endsWith(`/schemas/${SCHEMA_FILE}`));
  if (!found)
    throw new Error(`the cloud-init package installs no ${SCHEMA_FILE} (dpkg -L cloud-init); install it with scripts/install-deps.sh`);
  return found;
}

/** Drops the siblings of `$ref` at every level (draft-04 semantics; see the module docstring). */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  if (typeof obj.$ref === 'string') return { $ref: obj.$ref };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    // Under properties/patternProperties/$defs the keys are names, not keywords: recurse into each value.
    out[k] =
      ['properties', 'patternProperties', '$defs', 'definitions'].includes(k) && v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([n, s]) => [n, normalise(s)]))
        : normalise(v);
  }
  return out;
}

function main(): void {
  const source = resolve(arg('--source') ?? installedSchemaPath());
  const out = resolve(arg('--out') ?? join(__dirname, '..', 'src', 'seed', 'schemas', 'cloud-config.schema.json'));
  const text = readFileSync(source, 'utf8');
  const upstream = JSON.parse(text) as Record<string, unknown>;
  if (upstream.$schema !== 'http://json-schema.org/draft-04/schema#') {
    throw new Error(
      `${source}: expected a draft-04 schema, got $schema ${JSON.stringify(upstream.$schema)}; update src/seed/checks/schema.ts for it`,
    );
  }
  const version = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'cloud-init'], { encoding: 'utf8' }).trim();
  const derived = {
    $schema: upstream.$schema,
    'x-virtseed-derived-from': {
      package: 'cloud-init (Debian)',
      version,
      path: source,
      sha256: createHash('sha256').update(text).digest('hex'),
      by: 'scripts/derive-cloud-init-schema.ts',
      normalisation: 'siblings of $ref dropped (draft-04: a $ref object stands for the referenced schema)',
    },
    ...(normalise(Object.fromEntries(Object.entries(upstream).filter(([k]) => k !== '$schema'))) as object),
  };
  writeFileSync(out, `${JSON.stringify(derived, null, 2)}\n`);
  console.log(`derive-cloud-init-schema: ${source} (cloud-init ${version}) -> ${out}`);
}

main();
