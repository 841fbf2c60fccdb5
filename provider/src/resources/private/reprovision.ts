/**
 * The re-provision bookkeeping of `virtseed_domain` at plan (pure): what a changed `instance_id` does to the guest
 * under the domain's `reprovision` policy, as the plan records it (`reprovision_action`, `previous_instance_id`),
 * and the warning that shows both ids. Whether it replaces or restarts the domain is the field table's rule on
 * `instance_id`, decided with every other change in ./domain-changes.ts.
 */
import { Diagnostic, warning } from '../../../../src/diagnostics';
import type { DomainState, Val } from './model';
import { deepEqualExcept, known, UNKNOWN } from './values';
import { DOMAIN_FIELDS } from '../../../../src/fields';

export interface ReprovisionDecision {
  /** `reprovision_action`: `none`, the policy, or unknown while the new instance-id is unknown. */
  readonly action: Val<string>;
  readonly previousInstanceId: Val<string>;
  readonly diagnostics: Diagnostic[];
}

/** The state without the attributes the decision itself sets, nor the guest's addresses (which the plan settles
 *  apart): a change of only these is no change. */
const DECISION_ATTRS: ReadonlySet<string> = new Set([
  'reprovision_action',
  'previous_instance_id',
  'change_impact',
  'change_impacts',
  'addresses',
  'ip_address',
]);

/**
 * Decides for an update (`prior` exists) with defaults filled into `planned`. An instance-id that changes (or is
 * not known yet) follows the policy; otherwise a plan that changes something resets the action to `none`, and a
 * plan that changes nothing keeps the prior decision (an empty plan).
 */
export function decideReprovision(prior: DomainState, planned: DomainState): ReprovisionDecision {
  const policy = known(planned.reprovision) ?? DOMAIN_FIELDS.fields.reprovision.default;
  const from = prior.instance_id === UNKNOWN ? null : prior.instance_id;
  const to = planned.instance_id;
  if (to === UNKNOWN) return { action: UNKNOWN, previousInstanceId: from, diagnostics: [] };
  if (to !== from && to !== null) {
    const diagnostic = warning(
      ['instance_id'],
      `Guest ${String(planned.name)} will be re-provisioned (${policy})`,
      `instance-id ${from ?? '(none)'} → ${to}: cloud-init (or Ignition) provisions the guest again. Policy "${policy}": ${DOMAIN_FIELDS.fields.reprovision.values[policy]}.`,
    );
    return { action: policy, previousInstanceId: from, diagnostics: [diagnostic] };
  }
  const changed = !deepEqualExcept(planned, prior, DECISION_ATTRS);
  return changed
    ? { action: 'none', previousInstanceId: null, diagnostics: [] }
    : { action: prior.reprovision_action ?? 'none', previousInstanceId: prior.previous_instance_id ?? null, diagnostics: [] };
}
