/**
 * Turns a `virtseed_cloudinit_seed` config/state value into the shared seed generator's `SeedSpec`
 * (src/seed/model/seed.ts), parsing the JSON/YAML string attributes and reading local `file.source` files.
 */
import type * as YamlLib from 'yaml';
import { Diagnostic, error, ValidationError } from '../../../../src/diagnostics';
import type { SeedSpec } from '../../../../src/seed';
import { loadSeedSources } from '../../../../src/seed/io';
import { CLOUDINIT_SEED_FIELDS, convertFields, renames } from '../../../../src/fields';
import type { CloudinitSeedState } from './model';
import { mapDiagnostics, type PathMapping } from './paths';

/** yaml's parseDocument, loaded on first use rather than at provider start-up (issue #15). */
const parseDocument = (text: string): YamlLib.Document =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, for start-up time (issue #15)
  (require('yaml') as typeof YamlLib).parseDocument(text, { prettyErrors: true, uniqueKeys: true });

/** How seed diagnostics map onto the resource's attribute paths. */
export const SEED_PATHS: PathMapping = {
  rename: renames(CLOUDINIT_SEED_FIELDS.fields, 'spec', 'terraform'),
  opaque: ['cloud_config', 'meta_data', 'user_data', 'user_data_base64', 'network_config', 'vendor_data'],
};

function parseMap(value: string, attr: string, diags: Diagnostic[]): Record<string, unknown> | undefined {
  if (value.trim() === '') return undefined;
  // YAML 1.2 is a superset of JSON: jsonencode() output parses too. Errors carry their own line and column.
  const doc = parseDocument(value);
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const message = (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, '');
      const [line, col] = [e.linePos?.[0]?.line ?? 1, e.linePos?.[0]?.col ?? 1];
      diags.push(
        error([attr], `Invalid ${attr}`, `${attr} must be a JSON or YAML map; parsing failed at line ${line}, column ${col}: ${message}`),
      );
    }
    return undefined;
  }
  const parsed: unknown = doc.toJS({ maxAliasCount: 100 });
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    diags.push(
      error(
        [attr],
        `Invalid ${attr}`,
        `${attr} must be a JSON or YAML map (e.g. jsonencode({ ... })); got ${Array.isArray(parsed) ? 'a list' : typeof parsed}.`,
      ),
    );
    return undefined;
  }
  return parsed as Record<string, unknown>;
}

/** The SeedSpec of a fully known config value, with local sources loaded; diagnostics use attribute paths. */
export function seedSpecFromConfig(v: Partial<CloudinitSeedState>): { spec: SeedSpec; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const mapped = convertFields(CLOUDINIT_SEED_FIELDS.fields, v, 'terraform', 'spec', (field, value, name) =>
    field.json && typeof value === 'string' ? parseMap(value, name, diagnostics) : value,
  ) as SeedSpec;
  // The typed network's version defaults to 2; its interfaces are a list even when the config has none.
  const spec: SeedSpec = mapped.network
    ? { ...mapped, network: { ...mapped.network, version: mapped.network.version ?? 2, interfaces: mapped.network.interfaces ?? [] } }
    : mapped;
  if (diagnostics.length) return { spec, diagnostics };
  try {
    return { spec: loadSeedSources(spec), diagnostics };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    diagnostics.push(...mapDiagnostics(err.diagnostics, SEED_PATHS));
    return { spec, diagnostics };
  }
}
