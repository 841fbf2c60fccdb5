/**
 * The re-provision decision of `virtseed_domain` at plan (pure): what a changed `instance_id` does to the guest
 * under the domain's `reprovision` policy, as the plan records it (`reprovision_action`, `previous_instance_id`),
 * whether it replaces the domain, and the warning that shows both ids.
 */
import { Diagnostic, warning } from '../../../../src/diagnostics';
import { Reprovision } from '../../../../src/domain';
import type { DomainState, Val } from './model';
import { deepEqual, str, UNKNOWN } from './values';

export interface ReprovisionDecision {
  /** `reprovision_action`: `none`, the policy, or unknown while the new instance-id is unknown. */
  readonly action: Val<string>;
  readonly previousInstanceId: Val<string>;
  /** True when the decision replaces the domain (`recreate`): `instance_id` then requires replacement. */
  readonly replace: boolean;
  readonly diagnostics: Diagnostic[];
}

/** What re-provisioning means under each policy, for the plan's warning. */
const HOW: Readonly<Record<string, string>> = {
  [Reprovision.REBOOT]: 'a clean restart of the guest on the same disks',
  [Reprovision.RECREATE]: 'replacing the domain (new UUID)',
  [Reprovision.NEXT_BOOT]: 'nothing now: the guest sees the new seed when it next boots',
};

/** The state without the attributes the decision itself sets, nor the guest's addresses (which the plan settles
 *  apart): a change of only these is no change. */
function withoutDecision({
  reprovision_action,
  previous_instance_id,
  addresses,
  ip_address,
  ...rest
}: DomainState): Omit<DomainState, 'reprovision_action' | 'previous_instance_id' | 'addresses' | 'ip_address'> {
  return rest;
}

/**
 * Decides for an update (`prior` exists) with defaults filled into `planned`. An instance-id that changes (or is
 * not known yet) follows the policy; otherwise a plan that changes something resets the action to `none`, and a
 * plan that changes nothing keeps the prior decision (an empty plan).
 */
export function decideReprovision(prior: DomainState, planned: DomainState): ReprovisionDecision {
  const policy = str(planned.reprovision) ?? Reprovision.REBOOT;
  const from = prior.instance_id === UNKNOWN ? null : prior.instance_id;
  const to = planned.instance_id;
  if (to === UNKNOWN) return { action: UNKNOWN, previousInstanceId: from, replace: policy === Reprovision.RECREATE, diagnostics: [] };
  if (to !== from && to !== null) {
    const diagnostic = warning(
      ['instance_id'],
      `Guest ${String(planned.name)} will be re-provisioned (${policy})`,
      `instance-id ${from ?? '(none)'} → ${to}: cloud-init (or Ignition) provisions the guest again. Policy "${policy}": ${HOW[policy] ?? policy}.`,
    );
    return { action: policy, previousInstanceId: from, replace: policy === Reprovision.RECREATE, diagnostics: [diagnostic] };
  }
  const changed = !deepEqual(withoutDecision(planned), withoutDecision(prior));
  return changed
    ? { action: 'none', previousInstanceId: null, replace: false, diagnostics: [] }
    : {
        action: prior.reprovision_action ?? 'none',
        previousInstanceId: prior.previous_instance_id ?? null,
        replace: false,
        diagnostics: [],
      };
}
