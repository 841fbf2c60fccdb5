/**
 * The one decision of what an apply does to a `virtseed_domain`'s guest (pure): every changed attribute with its
 * impact on this guest now (`none` | `live` | `restart` | `replace`, `next-boot`), from the field table's rules
 * (src/fields/domain.ts, evaluated by src/fields/changes.ts) and the guest's running state; the re-provision by
 * instance-id included. The plan derives from it the replacement, which computed attributes become unknown and
 * the warnings; the apply recomputes it from the same prior and planned values and does what it says.
 */
import { warning, type Diagnostic } from '../../../../src/diagnostics';
import {
  DOMAIN_FIELDS,
  fieldChanges,
  isBlock,
  mostDisruptive,
  type Field,
  type FieldChange,
  type FieldTable,
  type Impact,
} from '../../../../src/fields';
import type { Path } from '../../handler';
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
  /** `change_impact` and `change_impacts` as the plan records them. */
  readonly recorded: Pick<DomainState, 'change_impact' | 'change_impacts'>;
}

/** `impact` or `impact: reason`, as `change_impacts` and the warning write it. */
function impactText(c: FieldChange): string {
  return c.reason ? `${c.impact}: ${c.reason}` : c.impact;
}

/** Attributes whose change is carried out whether the guest runs or not. */
const ALWAYS: readonly string[] = ['running', 'autostart'];

/** What a change's impact becomes when the guest does not run through the apply. */
function whenNotRunning(c: FieldChange, wasRunning: boolean, willRun: boolean): FieldChange {
  if (c.impact === 'replace' || ALWAYS.includes(String(c.path[0])) || (wasRunning && willRun)) return c;
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
  // A plan that changes nothing keeps what the last plan recorded (else every later plan would show a change).
  const recorded: DomainChangeDecision['recorded'] = changes.length
    ? {
        change_impact: impact,
        change_impacts: Object.fromEntries(changes.filter((c) => c.impact !== 'none').map((c) => [c.name, impactText(c)])),
      }
    : { change_impact: prior.change_impact, change_impacts: prior.change_impacts };
  return {
    changes,
    impact,
    replace,
    restart,
    reprovisionNow,
    touchesGuest,
    reprovision: decideReprovision(prior, { ...planned, id: prior.id, uuid: prior.uuid }),
    recorded,
  };
}

function shown(v: unknown): string {
  if (typeof v === 'symbol') return '(known after apply)';
  if (v === null || v === undefined) return 'null';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** What tells a block element apart (the first field of its block's identity it has), e.g. `target vdb`; '' when
 *  the block has no identity. */
function elementIdentity(block: string, element: unknown): string {
  const field: Field | undefined = (DOMAIN_FIELDS.fields as FieldTable)[block];
  const values = element && typeof element === 'object' ? (element as Record<string, unknown>) : {};
  const key = field && isBlock(field) ? field.identity?.find((k) => typeof values[k] === 'string') : undefined;
  return key ? ` (${key} ${String(values[key])})` : '';
}

/**
 * One change as the plan's warning words it: `memory 1024 → 2048 MiB (live)`, `disk[1] (target vdb) added
 * (live: …)`. An element removed is named by its index in the prior list, any other by its index in the plan.
 */
function changeWords(c: FieldChange, unit?: string): string {
  const how = `(${impactText(c)})`;
  const element = typeof c.path[c.path.length - 1] === 'number';
  if (element && c.from === null) return `${c.name}${elementIdentity(String(c.path[0]), c.to)} added ${how}`;
  if (element && c.to === null) return `${c.name}${elementIdentity(String(c.path[0]), c.from)} removed ${how}`;
  if (isSensitive(c.path)) return `${c.name} changed (sensitive) ${how}`;
  return `${c.name} ${shown(c.from)} → ${shown(c.to)}${unit ? ` ${unit}` : ''} ${how}`;
}

/** True when the attribute at `path` (through blocks, indexes skipped) is sensitive: its values are never shown
 *  (a display password, or the keyed digest a write-only one is compared by). */
function isSensitive(path: readonly (string | number)[]): boolean {
  let fields: FieldTable = DOMAIN_FIELDS.fields;
  for (const seg of path) {
    if (typeof seg === 'number') continue;
    const f: Field | undefined = fields[seg];
    if (!f) return false;
    if (!isBlock(f)) return f.sensitive === true;
    fields = f.fields;
  }
  return false;
}

/** The unit the field table gives a top-level attribute, if any. */
function unitOf(c: FieldChange): string | undefined {
  const fields: FieldTable = DOMAIN_FIELDS.fields;
  const field: Field | undefined = c.path.length === 1 ? fields[String(c.path[0])] : undefined;
  return field && !isBlock(field) ? field.unit : undefined;
}

/**
 * The plan's warning for a domain whose guest this plan touches (impact other than `none`): every changed
 * attribute with old → new and its impact, e.g. `web1: memory 1024 → 2048 MiB (live), vcpu 2 → 4 (restart: above
 * max_vcpu 2)`. A change of only `instance_id` has the re-provision warning (./reprovision.ts) instead.
 */
export function changeWarning(name: string, d: DomainChangeDecision): Diagnostic[] {
  if (d.impact === 'none' || d.changes.every((c) => c.path[0] === 'instance_id')) return [];
  const what = { live: 'changes live (no restart)', restart: 'restarts', replace: 'is replaced' }[d.impact];
  return [warning([], `Domain ${name} ${what}`, `${name}: ${d.changes.map((c) => changeWords(c, unitOf(c))).join(', ')}`)];
}
