/**
 * Validation of Ignition configs: the per-version JSON Schema (ajv) plus semantic checks (see
 * `private/semantic.ts`). Diagnostics carry JSON paths into the config, e.g. `['storage', 'files', 2, 'path']`.
 */
import { error, warning, type Diagnostic } from '../../diagnostics';
import { schemaDiagnostics } from './private/ajv';
import { semanticDiagnostics } from './private/semantic';
import { isSpec2, translateV2 } from './translate2x';
import type { IgnitionVersion } from './types';
import { DEFAULT_IGNITION_VERSION, IGNITION_VERSIONS, isIgnitionVersion } from './versions';

/**
 * Validates a raw Ignition config object (parsed JSON). Its `ignition.version` picks the spec: one of
 * `IGNITION_VERSIONS`, or 2.0.0–2.3.0, which is translated to spec 3.3.0 first (translation problems, then the
 * translated config's problems, are returned). Pure; never throws.
 */
export function validateIgnition(config: unknown): Diagnostic[] {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    return [
      error(
        [],
        'Not an Ignition config',
        `Given ${Array.isArray(config) ? 'a list' : String(config === null ? 'null' : typeof config)}; expected a JSON object with an "ignition" section.`,
      ),
    ];
  }
  const obj = config as Record<string, unknown>;
  const ign = obj.ignition;
  if (ign === null || typeof ign !== 'object' || Array.isArray(ign)) {
    return [
      error(['ignition'], 'Missing ignition section', 'Expected "ignition": {"version": "3.3.0"} (or another supported 3.x version).'),
    ];
  }
  const version = (ign as Record<string, unknown>).version;
  if (isSpec2(obj)) {
    const t = translateV2(obj, DEFAULT_IGNITION_VERSION);
    if (!t.config) return t.diagnostics;
    return [
      ...t.diagnostics,
      warning(
        ['ignition', 'version'],
        'Spec 2.x config',
        `Version ${String(version)} is translated to spec ${DEFAULT_IGNITION_VERSION} when rendered; paths below refer to the translated config.`,
      ),
      ...validateIgnitionAs(t.config, DEFAULT_IGNITION_VERSION),
    ];
  }
  if (!isIgnitionVersion(version)) {
    return [unsupportedVersion(version, ['ignition', 'version'])];
  }
  return validateIgnitionAs(obj, version);
}

/**
 * Validates `config` as spec `version`, whatever its `ignition.version` says (used after the version has been
 * settled, e.g. by `renderIgnition`).
 */
export function validateIgnitionAs(config: object, version: IgnitionVersion): Diagnostic[] {
  return [...schemaDiagnostics(config, version), ...semanticDiagnostics(config as Record<string, unknown>, version)];
}

/** The diagnostic for a version string we cannot write or validate. */
export function unsupportedVersion(given: unknown, path: (string | number)[]): Diagnostic {
  return error(
    path,
    'Unsupported Ignition spec version',
    `Given ${given === undefined ? 'no version' : JSON.stringify(given)}; expected one of ${IGNITION_VERSIONS.join(', ')} ` +
      '(or a 2.0.0–2.3.0 config to translate). Experimental versions are not accepted.',
  );
}
