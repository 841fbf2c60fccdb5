/**
 * Problems found in user input, shared by the seed generator, the Ignition builder, the provider (which turns
 * them into tfplugin6 `Diagnostic` messages with an `AttributePath`) and the constructs (which throw at synth).
 */

/** An attribute path from the input's root: object keys as strings, list indexes as numbers. */
export type AttributePath = (string | number)[];

/** One problem found in user input. */
export interface Diagnostic {
  /** `error` stops plan/synth; `warning` is shown and the run goes on. */
  readonly severity: 'error' | 'warning';
  /** Short headline, e.g. `Invalid user name`. */
  readonly summary: string;
  /** What was given, what is expected, and how to fix it. */
  readonly detail: string;
  /** Where in the input, e.g. `['cloud_config', 'users', 0, 'name']`; `[]` for the whole input. */
  readonly path: AttributePath;
}

/** Thrown by build functions (e.g. `renderSeed`) when the input has at least one error diagnostic. */
export class ValidationError extends Error {
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[]) {
    super(formatDiagnostics(diagnostics.filter((d) => d.severity === 'error')));
    this.name = 'ValidationError';
    this.diagnostics = diagnostics;
  }
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** `a.b[0].c` rendering of a path, for messages outside Terraform. */
export function formatPath(path: AttributePath): string {
  let out = '';
  for (const step of path) out += typeof step === 'number' ? `[${step}]` : out === '' ? step : `.${step}`;
  return out;
}

/** Human-readable multi-line rendering: `path: summary: detail` per diagnostic. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${d.severity}: ${d.path.length ? `${formatPath(d.path)}: ` : ''}${d.summary}: ${d.detail}`).join('\n');
}

/** Builds an error diagnostic. */
export function error(path: AttributePath, summary: string, detail: string): Diagnostic {
  return { severity: 'error', summary, detail, path };
}

/**
 * Builds a warning diagnostic. In the provider a resource's warnings are made at plan (PlanResourceChange) and shown
 * once per resource and plan; warnings from ValidateResourceConfig are dropped (provider/src/plugin/warnings.ts).
 */
export function warning(path: AttributePath, summary: string, detail: string): Diagnostic {
  return { severity: 'warning', summary, detail, path };
}
