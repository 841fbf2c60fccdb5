/**
 * Every error the constructs throw, as factories in one place (in the manner of cdktf's lib/errors.ts). Each
 * message names the construct property, what was given, what is expected and how to fix it.
 */
import { Diagnostic, formatDiagnostics } from '../../src/diagnostics';

/** An invalid construct property. `prop` names the property, e.g. `VirtualMachine.name`. */
export class ConstructPropsError extends Error {
  constructor(
    readonly prop: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConstructPropsError';
  }
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

/** A libvirt object name that would be rejected (or would clash with path syntax); `maxLength` in characters. */
export function invalidName(prop: string, given: unknown, maxLength = 63): ConstructPropsError {
  return new ConstructPropsError(
    prop,
    `${prop}: invalid name ${show(given)}; expected 1 to ${maxLength} characters of letters, digits, '.', '_' or '-', ` +
      "starting with a letter or digit (e.g. 'web-1')",
  );
}

/** Two properties that cannot be used together. */
export function mutuallyExclusive(propA: string, propB: string, hint: string): ConstructPropsError {
  return new ConstructPropsError(propA, `${propA} and ${propB} were both given; expected at most one of them. ${hint}`);
}

/** A number out of its allowed range or not an integer. */
export function invalidNumber(prop: string, given: unknown, expected: string): ConstructPropsError {
  return new ConstructPropsError(prop, `${prop}: invalid value ${show(given)}; expected ${expected}`);
}

/** A string that does not fit its expected form. */
export function invalidValue(prop: string, given: unknown, expected: string): ConstructPropsError {
  return new ConstructPropsError(prop, `${prop}: invalid value ${show(given)}; expected ${expected}`);
}

/** The cloud-init seed input has errors (from src/seed validateSeed); lists every error with its path. */
export function invalidCloudInit(prop: string, diagnostics: readonly Diagnostic[]): ConstructPropsError {
  return new ConstructPropsError(
    prop,
    `${prop}: the cloud-init configuration has ${diagnostics.length} error(s):\n${formatDiagnostics(diagnostics)}`,
  );
}

/** The Ignition config has errors (from src/seed/ignition validateIgnition); lists every error with its path. */
export function invalidIgnition(prop: string, diagnostics: readonly Diagnostic[]): ConstructPropsError {
  return new ConstructPropsError(
    prop,
    `${prop}: the Ignition config has ${diagnostics.length} error(s):\n${formatDiagnostics(diagnostics)}`,
  );
}

/** A raw JSON string that does not parse. */
export function invalidJson(prop: string, reason: string): ConstructPropsError {
  return new ConstructPropsError(prop, `${prop}: not valid JSON (${reason}); expected an Ignition config JSON document`);
}

/** The network definition has errors (from src/network validateNetworkSpec); lists every error with its path. */
export function invalidNetwork(prop: string, diagnostics: readonly Diagnostic[]): ConstructPropsError {
  return new ConstructPropsError(
    prop,
    `${prop}: the network definition has ${diagnostics.length} error(s):\n${formatDiagnostics(diagnostics)}`,
  );
}

/** The storage pool definition has errors (from src/pool validatePoolSpec); lists every error with its path. */
export function invalidPool(prop: string, diagnostics: readonly Diagnostic[]): ConstructPropsError {
  return new ConstructPropsError(
    prop,
    `${prop}: the storage pool definition has ${diagnostics.length} error(s):\n${formatDiagnostics(diagnostics)}`,
  );
}
