/**
 * The one decision of what an apply does to a `virtseed_domain`'s guest (pure): every changed attribute with its
 * impact on this guest now (`none` | `live` | `restart` | `replace`, `next-boot`), from the field table's rules
 * (src/fields/domain.ts, evaluated by src/fields/changes.ts) and the guest's running state; the re-provision by
 * instance-id included. The plan derives from it the replacement, which computed attributes become unknown and
 * the warnings; the apply recomputes it from the same prior and planned values and does what it says.
 */
import { DOMAIN_FIELDS, fieldChanges, mostDisruptive, type FieldChange, type Impact } from '../../../../src/fields';
import type { Path } from '../../plugin/handler';
import type { DomainState } from './model';
import { decideReprovision, type ReprovisionDecision } from './reprovision';

/** A domain's impact as `change_impact` states it: what happens to the guest now. */
export type GuestImpact = 'none' | 'live' | 'restart' | 'replace';

export interface DomainChangeDecision {
  /** The changed attributes (block elements added or removed included), each with its impact on this guest now. */
  readonly changes: readonly FieldChange[];
  /** The most disruptive impact now (`next-boot` counts as `none`: nothing happens to the guest now). */
  readonly impact: GuestImpact;
  /** The attribute paths that force a replacement now (requires_replace). */
  readonly replace: Path[];
  /** The apply shuts the running guest down cleanly and starts it again. */
  readonly restart: boolean;
  /** That restart re-provisions it (a new instance-id under `reprovision = "reboot"`). */
  readonly reprovisionNow: boolean;
  /** The apply may change the guest's addresses (it replaces, restarts, starts or stops the guest, or its NICs). */
  readonly touchesGuest: boolean;
  /** `reprovision_action`, `previous_instance_id` and the re-provision warning. */
  readonly reprovision: ReprovisionDecision;
}

/** What a change's impact becomes when the guest does not run through the apply. */
function whenNotRunning(c: FieldChange, wasRunning: boolean, willRun: boolean): FieldChange {
  if (c.impact === 'replace' || c.path[0] === 'running' || (wasRunning && willRun)) return c;
  if (c.impact === 'none') return c;
  const reason = !wasRunning && willRun ? 'the guest starts with it' : wasRunning ? 'the guest is stopped' : 'the guest is shut off';
  return { ...c, impact: 'none', reason };
}

/**
 * Decides an update of a domain from `prior` (the state) to `planned` (defaults filled in). A running state that
 * is not known counts as running (a plan never understates).
 */
export function decideDomainChange(prior: DomainState, planned: DomainState): DomainChangeDecision {
  const wasRunning = prior.running !== false;
  const willRun = planned.running !== false;
  const changes = fieldChanges(DOMAIN_FIELDS, prior, planned).map((c) => whenNotRunning(c, wasRunning, willRun));
  const worst: Impact = mostDisruptive(changes.map((c) => c.impact));
  const impact: GuestImpact = worst === 'next-boot' ? 'none' : worst;
  const replace = changes.filter((c) => c.forcesReplace).map((c) => [...c.path]);
  const restart = changes.some((c) => c.impact === 'restart');
  const reprovisionNow = changes.some((c) => c.path[0] === 'instance_id' && c.impact === 'restart');
  const touchesGuest =
    replace.length > 0 ||
    restart ||
    wasRunning !== willRun ||
    changes.some((c) => c.path[0] === 'network_interface' && c.impact !== 'none') ||
    prior.addresses === null;
  return {
    changes,
    impact,
    replace,
    restart,
    reprovisionNow,
    touchesGuest,
    reprovision: decideReprovision(prior, { ...planned, id: prior.id, uuid: prior.uuid }),
  };
}
