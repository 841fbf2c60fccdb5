/** Rendering of Ignition configs to canonical spec 3.x JSON. */
import { createHash } from 'node:crypto';
import { error, hasErrors, ValidationError, type Diagnostic } from '../../diagnostics';
import { parseIgnitionText } from './parse';
import { canonicalize } from './private/canonical';
import { schemaFor } from './schemas/select';
import { isSpec2, translateV2 } from './translate2x';
import type { IgnitionSpec, IgnitionVersion, RenderedIgnition } from './types';
import { unsupportedVersion, validateIgnitionAs } from './validate';
import { DEFAULT_IGNITION_VERSION, isIgnitionVersion, minorOf } from './versions';

/** Options of `renderIgnition`. */
export interface RenderIgnitionOptions {
  /** Spec version to write. @default - the input's version, else `3.3.0` */
  version?: IgnitionVersion;
}

/**
 * Renders a config as compact JSON with canonical key order (schema order), plus the sha256 hex of its UTF-8
 * bytes. `input` is a typed `IgnitionSpec`, a raw config object, or JSON text. The version written is
 * `opts.version`, else the typed `version`, else the input's `ignition.version`, else 3.3.0. A 3.x input may be
 * written as the same or a later 3.x version (3.x minor versions only add fields); a 2.x input is translated
 * (`translateV2`). Throws `ValidationError` (all diagnostics) when there is any error; warnings (e.g. unknown
 * keys) are returned in `diagnostics`.
 */
export function renderIgnition(
  input: IgnitionSpec | string | object,
  opts: RenderIgnitionOptions = {},
): RenderedIgnition & { diagnostics: Diagnostic[] } {
  const { config, version, diagnostics: found } = settle(input, opts);
  if (!config) throw new ValidationError(found);
  const diagnostics = [...found, ...validateIgnitionAs(config, version)];
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  const json = JSON.stringify(canonicalize(config, schemaFor(version)));
  const sha256 = createHash('sha256').update(json, 'utf8').digest('hex');
  return { json, version, sha256, diagnostics };
}

interface Settled {
  config?: Record<string, unknown>;
  version: IgnitionVersion;
  diagnostics: Diagnostic[];
}

function settle(input: unknown, opts: RenderIgnitionOptions): Settled {
  let parsed = input;
  if (typeof input === 'string') {
    const text = parseIgnitionText(input);
    if (text.diagnostics.length) return fail(text.diagnostics);
    parsed = text.value;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return fail([error([], 'Not an Ignition config', 'Expected a JSON object (typed IgnitionSpec or raw config).')]);
  }
  const { version: typedVersion, ...rest } = parsed as Record<string, unknown>;
  if (opts.version !== undefined && !isIgnitionVersion(opts.version)) return fail([unsupportedVersion(opts.version, [])]);
  if (typedVersion !== undefined && !isIgnitionVersion(typedVersion)) return fail([unsupportedVersion(typedVersion, ['version'])]);
  if (opts.version && typedVersion && opts.version !== typedVersion) {
    return fail([
      error(['version'], 'Conflicting versions', `The input asks for ${typedVersion} and the options for ${opts.version}; give one.`),
    ]);
  }
  const requested = opts.version ?? (typedVersion as IgnitionVersion | undefined);
  const ign = rest.ignition;
  if (ign !== undefined && (ign === null || typeof ign !== 'object' || Array.isArray(ign))) {
    return fail([error(['ignition'], 'Wrong type', 'Expected "ignition" to be an object.')]);
  }
  const given = (ign as Record<string, unknown> | undefined)?.version;
  if (isSpec2(rest)) {
    const version = requested ?? DEFAULT_IGNITION_VERSION;
    const t = translateV2(rest, version);
    return { config: t.config as unknown as Record<string, unknown> | undefined, version, diagnostics: t.diagnostics };
  }
  if (given !== undefined && !isIgnitionVersion(given)) return fail([unsupportedVersion(given, ['ignition', 'version'])]);
  const version = requested ?? (given as IgnitionVersion | undefined) ?? DEFAULT_IGNITION_VERSION;
  if (given !== undefined && minorOf(version) < minorOf(given as IgnitionVersion)) {
    return fail([
      error(
        ['ignition', 'version'],
        'Cannot write an older spec',
        `The config is spec ${given as string}; it cannot be written as ${version}, which lacks fields newer specs added. Ask for ${given as string} or later.`,
      ),
    ]);
  }
  const config = { ...rest, ignition: { ...(ign as Record<string, unknown> | undefined), version } };
  return { config, version, diagnostics: [] };
}

function fail(diagnostics: Diagnostic[]): Settled {
  return { version: DEFAULT_IGNITION_VERSION, diagnostics };
}
