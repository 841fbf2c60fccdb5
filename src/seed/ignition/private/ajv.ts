/** Runs the per-version JSON Schema with ajv and turns its errors into diagnostics. */
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { error, warning, type AttributePath, type Diagnostic } from '../../../diagnostics';
import { schemaFor } from '../schemas/select';
import type { IgnitionVersion } from '../types';

// ajv is loaded on first use, not when the provider or CLI starts (start-up time, issue #15).
let ajv: Ajv | undefined;
const compiled = new Map<IgnitionVersion, ValidateFunction>();

function validatorFor(version: IgnitionVersion): ValidateFunction {
  let v = compiled.get(version);
  if (!v) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, for start-up time (issue #15)
    ajv ??= new (require('ajv') as typeof import('ajv')).default({ allErrors: true, strict: false });
    v = ajv.compile(schemaFor(version));
    compiled.set(version, v);
  }
  return v;
}

/** Schema diagnostics of `config` against spec `version`; unknown keys are warnings (as in Ignition). */
export function schemaDiagnostics(config: unknown, version: IgnitionVersion): Diagnostic[] {
  const validate = validatorFor(version);
  if (validate(config)) return [];
  return (validate.errors ?? []).map((e) => toDiagnostic(e, config, version));
}

/** `/storage/files/2/path` → `['storage', 'files', 2, 'path']`, numbers where the data holds an array. */
function pointerToPath(pointer: string, root: unknown): AttributePath {
  if (pointer === '') return [];
  const out: AttributePath = [];
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const i = Number(key);
      out.push(i);
      node = node[i];
    } else {
      out.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return `the ${typeof value} ${String(value)}`;
}

function valueAt(root: unknown, path: AttributePath): unknown {
  let node = root;
  for (const k of path) node = (node as Record<string | number, unknown> | undefined)?.[k];
  return node;
}

function toDiagnostic(e: ErrorObject, root: unknown, version: IgnitionVersion): Diagnostic {
  const path = pointerToPath(e.instancePath, root);
  const spec = `Ignition spec ${version}`;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      return warning(
        [...path, key],
        'Unknown key',
        `Key ${JSON.stringify(key)} is not part of ${spec} at this place; Ignition ignores it. Check the spelling ` +
          '(Ignition keys are camelCase, e.g. "sshAuthorizedKeys") or pick a spec version that has it.',
      );
    }
    case 'required': {
      const key = (e.params as { missingProperty: string }).missingProperty;
      return error([...path, key], 'Missing required key', `${spec} requires ${JSON.stringify(key)} here; add it.`);
    }
    case 'type': {
      const expected = (e.params as { type: string | string[] }).type;
      const list = Array.isArray(expected) ? expected.join(' or ') : expected;
      return error(path, 'Wrong type', `Given ${describe(valueAt(root, path))}; ${spec} expects ${list} here.`);
    }
    default:
      return error(path, 'Invalid value', `${spec}: ${e.message ?? e.keyword}.`);
  }
}
