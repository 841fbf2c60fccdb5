/**
 * Each plan warning once per resource and plan (issue 27.5). The rule for every warning of every resource:
 *
 * - **Warnings belong to PlanResourceChange.** A handler returns a warning from `plan` (and, for what only an apply
 *   can find, such as a guest's cloud-init problems, from `apply`). Warnings returned from `validate` are dropped by
 *   the server: Terraform calls ValidateResourceConfig twice for one `terraform plan` (its validate walk, then again
 *   before planning, in two provider processes) and once more before an apply, and shows every warning each time.
 *   So a check that can warn runs again at plan (the seed and Ignition handlers build the same content in both),
 *   and `validate` answers errors only.
 * - **Once per resource and plan.** Terraform may call PlanResourceChange more than once for one resource in one
 *   provider process — a replacement is planned with the prior state, then its create half without — and each call
 *   sees the same config. The server passes a warning on only the first time this process returns it for that
 *   resource (`PlanWarnings.once`); a request carries no resource address, so the resource is known by its type and
 *   config. An apply re-plans each resource in its own provider process, so `terraform apply` shows a warning once
 *   for its plan and at most once more with the apply's result (Terraform's own re-plan; no request says which walk
 *   it belongs to).
 *
 * New warnings need nothing more than `warning(...)` in the handler's plan.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../../../src/diagnostics';

/** The diagnostics of ValidateResourceConfig that Terraform is shown: its errors (see the module doc). */
export function validationErrorsOnly(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error');
}

/** Which warnings this provider process has returned from PlanResourceChange, per resource. */
export class PlanWarnings {
  private readonly shown = new Set<string>();

  /**
   * `diagnostics` of one PlanResourceChange of `typeName` whose config is `config`, without the warnings already
   * returned for the same type and config by this process. Errors always pass. The set holds sha256 digests only
   * (configs carry sensitive values).
   */
  once(typeName: string, config: unknown, diagnostics: readonly Diagnostic[]): Diagnostic[] {
    if (!diagnostics.some((d) => d.severity === 'warning')) return [...diagnostics];
    const resource = digest(typeName, config);
    return diagnostics.filter((d) => {
      if (d.severity !== 'warning') return true;
      const key = `${resource}:${digest(d.summary, d.detail, d.path)}`;
      if (this.shown.has(key)) return false;
      this.shown.add(key);
      return true;
    });
  }
}

/** sha256 (hex) of the values' JSON; unknown values (symbols) and bytes get a stable spelling of their own. */
function digest(...values: unknown[]): string {
  const json = JSON.stringify(values, (_key, v: unknown) =>
    typeof v === 'symbol' ? `\u0000${String(v.description)}` : typeof v === 'bigint' ? `\u0000${v.toString()}n` : v,
  );
  return createHash('sha256').update(json).digest('hex');
}
