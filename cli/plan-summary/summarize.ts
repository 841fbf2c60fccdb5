/**
 * The plan summary (pure): a parsed plan (./plan-json.ts) → per resource its action, its impact on running guests,
 * the re-provision decision, the snapshot verdict and the changed attributes with old and new values (sensitive
 * ones masked). The result is plain JSON (`virtseed plan-summary --format json` prints it as is); ./markdown.ts
 * renders it for a pull-request comment.
 *
 * Impact, per resource:
 * - create → `none`, delete → `delete`, replace → `replace`, no-op/read/forget → `none` (source `action`);
 * - an update of `virtseed_domain` whose planned state has `change_impact` → that value, and each changed
 *   attribute's from `change_impacts` (source `plan`; docs/CONTRACTS.md), which the provider decided knowing the
 *   guest (e.g. nothing restarts a guest that is shut off): an attribute it leaves out does nothing to the guest now;
 * - any other update → the most disruptive impact of its changed attributes by their field tables' rules, evaluated
 *   on the plan's values by src/fields/changes.ts (source `field-table`).
 * Without `change_impact`, a domain's `reprovision_action` (`reboot` → restart, `recreate` → replace, `next-boot`)
 * is folded in; with it, the provider has already counted the re-provision.
 * Attributes only the provider sets (computed) are listed but carry no impact.
 */
import { fieldChanges, type FieldChange } from '../../src/fields';
import { formatValuePath, changedValues, withUnknowns, type Shown, type ValueChange } from './values';
import {
  fieldAt,
  isComputedOnly,
  mostDisruptive,
  parseImpactValue,
  reprovisionImpact,
  type ImpactSource,
  type ImpactVerdict,
} from './impact';
import { PlanJsonError, type JsonValue, type PlanJson, type RelevantAttribute, type ResourceChangeJson } from './plan-json';
import { RESOURCE_FIELDS } from './resource-fields';
import { snapshotVerdict, type SnapshotVerdict } from './snapshot';

/** What Terraform plans for a resource, in one word. */
export type Action = 'create' | 'update' | 'replace' | 'delete' | 'no-op' | 'read' | 'forget';

/** One changed attribute. `before`/`after` as shown: a value, or masked. */
export interface AttributeChange {
  /** `memory`, `disk[0].volume_id`, `environment["APP_ENV"]`. */
  readonly path: string;
  readonly before: Shown;
  readonly after: Shown;
  /** null for attributes only the provider sets (their change follows from others). */
  readonly impact: ImpactVerdict | null;
  /** Why, when the provider or the table says (`above max_vcpu 2`, `re-provision: reboot`, `conditional`). */
  readonly impact_reason?: string;
  /** This attribute is among the plan's `replace_paths`. */
  readonly forces_replacement?: true;
  /** A keyed digest of write-only inputs changed (src/fields `secretDigest`): a secret changed. Its values stay
   *  masked; the summary says "secret changed". */
  readonly secret_changed?: true;
}

/** A domain's re-provision decision in this plan (docs/CONTRACTS.md: reprovision_action, previous_instance_id). */
export interface Reprovision {
  /** `reboot`, `recreate` or `next-boot`; `unknown` until apply. */
  readonly action: string;
  readonly previous_instance_id: string | null;
  /** null when unknown until apply. */
  readonly instance_id: string | null;
}

export interface ResourceSummary {
  readonly address: string;
  readonly type: string;
  readonly action: Action;
  readonly impact: ImpactVerdict;
  readonly impact_source: ImpactSource;
  /** Set when this plan re-provisions the guest. */
  readonly reprovision?: Reprovision;
  readonly snapshot: SnapshotVerdict;
  /** Changed attributes (updates and replacements; empty for the other actions). */
  readonly changes: AttributeChange[];
}

/** An object changed outside Terraform, found by the plan's refresh (`resource_drift`). */
export interface DriftSummary {
  readonly address: string;
  readonly type: string;
  /** `changed` (attributes differ from the state) or `deleted` (the object is gone). */
  readonly drift: 'changed' | 'deleted';
  /** Attributes as recorded in the state (before) and as found on the host (after). */
  readonly changes: AttributeChange[];
}

export interface PlanSummary {
  readonly terraform_version?: string;
  /** Resources by address, in the plan's order; no-ops included. */
  readonly resources: ResourceSummary[];
  readonly drift: DriftSummary[];
  /** Number of resources per action. */
  readonly counts: Readonly<Partial<Record<Action, number>>>;
  /** The most disruptive impact of the plan. */
  readonly impact: ImpactVerdict;
  /** Plain-language notes for the reader: where impacts came from, an errored plan. */
  readonly notes: string[];
}

/** The one-word action of Terraform's action list. */
function actionOf(actions: readonly string[]): Action {
  const key = actions.join(',');
  switch (key) {
    case 'create':
    case 'update':
    case 'delete':
    case 'read':
    case 'forget':
    case 'no-op':
      return key;
    case 'delete,create':
    case 'create,delete':
      return 'replace';
    default:
      throw new PlanJsonError(`unknown Terraform action list [${key}]; this virtseed knows Terraform 1.x's actions`);
  }
}

function isObject(v: unknown): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asObject(v: unknown): object {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};
}

/** The planned value of a top-level attribute: a value, `unknown` until apply, or absent from the schema. */
function planned(rc: ResourceChangeJson, name: string): { known: true; value: JsonValue } | { known: false } | undefined {
  if (isObject(rc.change.after_unknown) && rc.change.after_unknown[name] === true) return { known: false };
  if (isObject(rc.change.after) && name in rc.change.after) return { known: true, value: rc.change.after[name]! };
  return undefined;
}

/** Attributes the summary shows in columns of their own, not among the changes. */
const DECISION_ATTRIBUTES = new Set(['reprovision_action', 'previous_instance_id', 'change_impact', 'change_impacts']);

function isReplacePath(rc: ResourceChangeJson, path: readonly (string | number)[]): boolean {
  return (rc.change.replace_paths ?? []).some((p) => p.length <= path.length && p.every((seg, i) => seg === path[i]));
}

/** A top-level attribute of the prior state, when it is a string. */
function priorString(rc: ResourceChangeJson, name: string): string | null {
  const v = isObject(rc.change.before) ? rc.change.before[name] : undefined;
  return typeof v === 'string' ? v : null;
}

/**
 * The re-provision decision of a domain change, when it re-provisions. A `recreate` is a replacement forced by
 * `instance_id`, whose new half plans `reprovision_action = none` (docs/CONTRACTS.md): read from `replace_paths`.
 */
function reprovisionOf(rc: ResourceChangeJson, action: Action): Reprovision | undefined {
  if (rc.type !== 'virtseed_domain') return undefined;
  if (action === 'replace' && isReplacePath(rc, ['instance_id'])) {
    const next = planned(rc, 'instance_id');
    return {
      action: 'recreate',
      previous_instance_id: priorString(rc, 'instance_id'),
      instance_id: next?.known && typeof next.value === 'string' ? next.value : null,
    };
  }
  const decided = planned(rc, 'reprovision_action');
  if (!decided) return undefined;
  if (decided.known && (decided.value === 'none' || decided.value === null)) return undefined;
  const previous = planned(rc, 'previous_instance_id');
  const next = planned(rc, 'instance_id');
  return {
    action: decided.known ? String(decided.value) : 'unknown',
    previous_instance_id: previous?.known && typeof previous.value === 'string' ? previous.value : null,
    instance_id: next?.known && typeof next.value === 'string' ? next.value : null,
  };
}

/** The change rule that covers value path `path`: the field change at that path or the nearest one above it (a
 *  block element added or removed covers the values inside it). */
function ruleFor(changes: readonly FieldChange[], path: readonly (string | number)[]): FieldChange | undefined {
  let best: FieldChange | undefined;
  for (const c of changes) {
    if (c.path.length <= path.length && c.path.every((seg, i) => seg === path[i]) && (!best || c.path.length > best.path.length)) best = c;
  }
  return best;
}

/**
 * The attribute changes of an update or replacement, each with its impact: from the planned state's
 * `change_impacts` when given, else from the field table's rules (src/fields fieldChanges on the plan's values).
 */
function attributeChanges(
  rc: ResourceChangeJson,
  values: readonly ValueChange[],
  planImpacts: Readonly<Record<string, string>> | undefined,
): AttributeChange[] {
  const resource = RESOURCE_FIELDS[rc.type];
  const rules = resource
    ? fieldChanges(resource, asObject(rc.change.before), asObject(withUnknowns(rc.change.after, rc.change.after_unknown)))
    : [];
  const out: AttributeChange[] = [];
  for (const v of values) {
    const top = v.path[0];
    if (typeof top === 'string' && DECISION_ATTRIBUTES.has(top)) continue;
    const field = resource ? fieldAt(resource.fields, v.path) : undefined;
    const rule = ruleFor(rules, v.path);
    const given = planImpacts && (planImpacts[rule?.name ?? ''] ?? (typeof top === 'string' ? planImpacts[top] : undefined));
    let impact: ImpactVerdict | null;
    let reason: string | undefined;
    if (given !== undefined) ({ impact, reason } = parseImpactValue(given));
    else if (planImpacts && field && !isComputedOnly(field)) [impact, reason] = ['none', 'nothing happens to the guest now'];
    else if (rule) ({ impact, reason } = rule);
    else if (!field) [impact, reason] = ['unknown', 'not in the field table'];
    else impact = isComputedOnly(field) ? null : 'none';
    out.push({
      path: formatValuePath(v.path),
      before: v.before,
      after: v.after,
      impact,
      ...(reason ? { impact_reason: reason } : {}),
      ...(isReplacePath(rc, v.path) ? { forces_replacement: true as const } : {}),
      ...(field && !('nesting' in field) && field.secretDigest ? { secret_changed: true as const } : {}),
    });
  }
  return out;
}

/** `change_impacts` of the planned state as a map, when it is there and known. */
function planImpactsOf(rc: ResourceChangeJson): Record<string, string> | undefined {
  const p = planned(rc, 'change_impacts');
  if (!p?.known || !isObject(p.value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Notes collected while summarizing. */
interface Notes {
  fieldTableDomains: string[];
}

function summarizeResource(rc: ResourceChangeJson, notes: Notes): ResourceSummary {
  const action = actionOf(rc.change.actions);
  const reprovision = action === 'update' || action === 'replace' ? reprovisionOf(rc, action) : undefined;
  const values = action === 'update' || action === 'replace' ? changedValues(rc.change) : [];
  const changeImpact = action === 'update' && rc.type === 'virtseed_domain' ? planned(rc, 'change_impact') : undefined;
  const changes = attributeChanges(rc, values, changeImpact ? planImpactsOf(rc) : undefined);

  let impact: ImpactVerdict;
  let source: ImpactSource;
  if (action !== 'update') {
    impact = action === 'delete' ? 'delete' : action === 'replace' ? 'replace' : 'none';
    source = 'action';
  } else if (changeImpact) {
    // The provider's decision for this plan and this guest, the re-provision included (a shut-off guest restarts
    // for nothing, say).
    impact = changeImpact.known ? parseImpactValue(String(changeImpact.value)).impact : 'unknown';
    source = 'plan';
  } else {
    impact = mostDisruptive([
      ...changes.flatMap((c) => (c.impact === null ? [] : [c.impact])),
      ...(reprovision ? [reprovisionImpact(reprovision.action)] : []),
    ]);
    source = 'field-table';
    if (rc.type === 'virtseed_domain') notes.fieldTableDomains.push(rc.address);
  }
  return {
    address: rc.address,
    type: rc.type,
    action,
    impact,
    impact_source: source,
    ...(reprovision ? { reprovision } : {}),
    snapshot: snapshotVerdict({ type: rc.type, action, before: rc.change.before, after: rc.change.after, impact }),
    changes,
  };
}

/**
 * An object changed outside Terraform, with the changes that matter: attributes a configuration sets (the plan puts
 * them back) and those the plan depends on (`relevant_attributes`). Attributes only the provider sets and nothing
 * reads (a volume's allocation that a running guest grows) are left out, as in Terraform's own plan output; an
 * entry left with no change is dropped.
 */
function summarizeDrift(rc: ResourceChangeJson, relevant: readonly RelevantAttribute[]): DriftSummary | undefined {
  const action = actionOf(rc.change.actions);
  if (action === 'delete') return { address: rc.address, type: rc.type, drift: 'deleted', changes: [] };
  if (action !== 'update') return undefined;
  const table = RESOURCE_FIELDS[rc.type]?.fields;
  const matters = (path: readonly (string | number)[]) => {
    const field = table ? fieldAt(table, path) : undefined;
    if (!field || !isComputedOnly(field)) return true;
    return relevant.some((r) => r.resource === rc.address && r.attribute.every((seg, i) => i >= path.length || seg === path[i]));
  };
  const changes = changedValues(rc.change)
    .filter((v) => matters(v.path))
    .map((v) => ({ path: formatValuePath(v.path), before: v.before, after: v.after, impact: null }));
  return changes.length ? { address: rc.address, type: rc.type, drift: 'changed', changes } : undefined;
}

/** The summary of a plan (see the module comment). Managed resources only; data sources are left out. */
export function summarizePlan(plan: PlanJson): PlanSummary {
  const notes: Notes = { fieldTableDomains: [] };
  const managed = (rc: ResourceChangeJson) => rc.mode === undefined || rc.mode === 'managed';
  const resources = plan.resource_changes.filter(managed).map((rc) => summarizeResource(rc, notes));
  const drift = plan.resource_drift
    .filter(managed)
    .map((rc) => summarizeDrift(rc, plan.relevant_attributes))
    .filter((d): d is DriftSummary => d !== undefined);
  const counts: Partial<Record<Action, number>> = {};
  for (const r of resources) counts[r.action] = (counts[r.action] ?? 0) + 1;

  const out: string[] = [];
  if (plan.errored) out.push('Terraform stopped this plan at an error: it is incomplete and cannot be applied.');
  if (notes.fieldTableDomains.length) {
    out.push(
      `The planned state of ${notes.fieldTableDomains.join(', ')} has no \`change_impact\` (a provider without issue 20's plan attributes): ` +
        "its impact is what the field tables (src/fields) declare for a running guest, not the provider's decision for this plan.",
    );
  }
  return {
    ...(plan.terraform_version ? { terraform_version: plan.terraform_version } : {}),
    resources,
    drift,
    counts,
    impact: mostDisruptive(resources.map((r) => r.impact)),
    notes: out,
  };
}
