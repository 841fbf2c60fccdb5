/**
 * The part of Terraform's JSON plan representation (`terraform show -json PLANFILE`, format_version 1.x, as
 * Terraform 1.11 writes it) that the plan summary reads, and its one reader.
 *
 * Source: Terraform's "JSON Output Format" documentation (internals/json-format): `resource_changes[]` and
 * `resource_drift[]` hold `{address, mode, type, name, change: {actions, before, after, after_unknown,
 * before_sensitive, after_sensitive, replace_paths}}`. `after_unknown`, `before_sensitive` and `after_sensitive`
 * mirror the shape of the value: `true` where the value (or the whole value below) is unknown or sensitive.
 */

/** A JSON value as Terraform writes it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `change.actions` as Terraform writes them. */
export type PlanActionList = readonly string[];

/** One `resource_changes[]` or `resource_drift[]` entry. */
export interface ResourceChangeJson {
  readonly address: string;
  readonly mode?: string;
  readonly type: string;
  readonly name?: string;
  readonly action_reason?: string;
  readonly change: {
    readonly actions: PlanActionList;
    readonly before: JsonValue | undefined;
    readonly after: JsonValue | undefined;
    readonly after_unknown?: JsonValue;
    readonly before_sensitive?: JsonValue;
    readonly after_sensitive?: JsonValue;
    /** Attribute paths (lists of keys and indices) that force the replacement. */
    readonly replace_paths?: readonly (readonly (string | number)[])[];
  };
}

/** A plan as `terraform show -json PLANFILE` prints it. */
export interface PlanJson {
  readonly format_version: string;
  readonly terraform_version?: string;
  readonly resource_changes: readonly ResourceChangeJson[];
  /** Changes found by the refresh that are not from this configuration (objects changed outside Terraform). */
  readonly resource_drift: readonly ResourceChangeJson[];
  /** The resource attributes the plan's changes depend on (`{resource, attribute: path}`); Terraform's own plan
   *  output shows only the drift among them. */
  readonly relevant_attributes: readonly RelevantAttribute[];
  /** True when the plan stopped at an error (Terraform ≥ 1.4 writes it). */
  readonly errored?: boolean;
}

/** One `relevant_attributes[]` entry. */
export interface RelevantAttribute {
  readonly resource: string;
  readonly attribute: readonly (string | number)[];
}

/** The input is not the JSON of a saved Terraform plan. */
export class PlanJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanJsonError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readChanges(doc: Record<string, unknown>, key: 'resource_changes' | 'resource_drift'): ResourceChangeJson[] {
  const list = doc[key];
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new PlanJsonError(`${key}: expected a list, got ${typeof list}`);
  return list.map((entry, i) => {
    if (!isObject(entry) || typeof entry.address !== 'string' || typeof entry.type !== 'string' || !isObject(entry.change)) {
      throw new PlanJsonError(`${key}[${i}]: expected an object with address, type and change`);
    }
    const actions = entry.change.actions;
    if (!Array.isArray(actions) || !actions.every((a) => typeof a === 'string')) {
      throw new PlanJsonError(`${key}[${i}] (${entry.address}): change.actions: expected a list of strings`);
    }
    return entry as unknown as ResourceChangeJson;
  });
}

/**
 * Parses the text of `terraform show -json PLANFILE`.
 * @throws PlanJsonError when the text is not JSON, is the JSON of a state (`terraform show -json` without a plan
 *   file), or is not a plan of format_version 1.x; the message says what was found and what is expected.
 */
export function parsePlanJson(text: string): PlanJson {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new PlanJsonError(`not JSON (${(e as Error).message}); expected the output of \`terraform show -json PLANFILE\``);
  }
  if (!isObject(doc)) throw new PlanJsonError('expected a JSON object: the output of `terraform show -json PLANFILE`');
  if (typeof doc.format_version !== 'string') {
    throw new PlanJsonError('no format_version: expected the output of `terraform show -json PLANFILE`');
  }
  if (!doc.format_version.startsWith('1.')) {
    throw new PlanJsonError(`format_version ${doc.format_version} is not supported; expected 1.x (Terraform 1.0 and later)`);
  }
  if (!('planned_values' in doc) && !('resource_changes' in doc)) {
    throw new PlanJsonError(
      'this is the JSON of a state, not of a plan; save a plan with `terraform plan -out=PLANFILE` and run `terraform show -json PLANFILE`',
    );
  }
  return {
    format_version: doc.format_version,
    ...(typeof doc.terraform_version === 'string' ? { terraform_version: doc.terraform_version } : {}),
    resource_changes: readChanges(doc, 'resource_changes'),
    resource_drift: readChanges(doc, 'resource_drift'),
    relevant_attributes: Array.isArray(doc.relevant_attributes)
      ? doc.relevant_attributes.filter(
          (r): r is RelevantAttribute => isObject(r) && typeof r.resource === 'string' && Array.isArray(r.attribute),
        )
      : [],
    ...(typeof doc.errored === 'boolean' ? { errored: doc.errored } : {}),
  };
}
