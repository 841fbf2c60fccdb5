/**
 * Our `Diagnostic` (src/diagnostics.ts) as the tfplugin6 `Diagnostic` message, and attribute paths as
 * `AttributePath` steps. The step kind follows the value's type when known: object attribute → `attribute_name`,
 * map key → `element_key_string`, list/tuple index → `element_key_int`. Sets have no addressable elements, so a
 * path is cut at a set (Terraform then points at the whole set).
 */
import type { Diagnostic } from '../../../src/diagnostics';
import type { CtyType } from './cty';

export type ProtoStep = { attribute_name: string } | { element_key_string: string } | { element_key_int: number };

/** The `AttributePath` message of `path`, guided by `type` (the resource's implied type) when given. */
export function toAttributePath(path: readonly (string | number)[], type?: CtyType): { steps: ProtoStep[] } {
  const steps: ProtoStep[] = [];
  let cur: CtyType | undefined = type;
  for (const step of path) {
    if (cur?.kind === 'set') break;
    if (typeof step === 'number') {
      steps.push({ element_key_int: step });
      cur = cur?.kind === 'list' ? cur.element : cur?.kind === 'tuple' ? cur.elements[step] : undefined;
    } else if (cur?.kind === 'map') {
      steps.push({ element_key_string: step });
      cur = cur.element;
    } else {
      steps.push({ attribute_name: step });
      cur = cur?.kind === 'object' ? cur.attributes[step] : undefined;
    }
  }
  return { steps };
}

/** The tfplugin6 `Diagnostic` message of `d`; `attribute` is omitted for an empty path. */
export function toProtoDiagnostic(d: Diagnostic, type?: CtyType): Record<string, unknown> {
  const out: Record<string, unknown> = {
    severity: d.severity === 'error' ? 'ERROR' : 'WARNING',
    summary: d.summary,
    detail: d.detail,
  };
  if (d.path && d.path.length) out.attribute = toAttributePath(d.path, type);
  return out;
}

/** An error diagnostic for an exception thrown inside the provider (message only, no stack, no values). */
export function internalError(what: string, err: unknown): Diagnostic {
  const message = err instanceof Error ? err.message : String(err);
  return { severity: 'error', summary: `virtseed: ${what} failed`, detail: message, path: [] };
}
