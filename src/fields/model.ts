/**
 * The vocabulary of the resources' field tables (one table per resource, in this folder). Every rule about an
 * attribute lives in its table: the Terraform attribute (the table key), its type and mode, its description
 * (Markdown), its default, its allowed values, whether a change replaces the object, what a change does to a
 * running guest (the impact), and, for the seed, its spellings in the other layers.
 *
 * Who reads it: the provider derives its schema (descriptions included: ./describe.ts), typed state, defaults,
 * value checks and replace decisions from a table (provider/src/resources/private/fields.ts); the constructs their
 * property mapping (./map.ts); the reference docs come from the provider schema. Conditions name a rule of
 * ./rules.ts, the one place each rule is implemented.
 * Plain data: it imports nothing, so the construct packages can carry it.
 */

/** An attribute's value type (cty): primitives, and lists and maps of strings. */
export type FieldType = 'string' | 'number' | 'bool' | 'list(string)' | 'map(string)';

/** A primitive attribute value, as a default or a compared value. */
export type Scalar = string | number | boolean;

/**
 * A condition on the values of the object (or of the block element) an attribute belongs to. `rule` names its
 * one implementation in ./rules.ts; the rest is data.
 * - `equals`: the planned value of `attribute` is `value` (e.g. `reprovision = "recreate"`);
 * - `at-most`: the attribute's new value is at most the planned value of `attribute` (e.g. memory up to
 *   `max_memory`).
 */
export type Condition =
  | { readonly rule: 'equals'; readonly attribute: string; readonly value: Scalar }
  | { readonly rule: 'at-most'; readonly attribute: string };

/**
 * What changing an attribute does to a running guest (issue 20):
 * - `live`: applied to the running guest and to its persistent definition together, no restart;
 * - `restart`: the definition changes and a running guest is shut down cleanly and started again;
 * - `replace`: the object is destroyed and created again (Terraform's "forces replacement");
 * - `next-boot`: the guest sees it when it next starts; nothing happens to it now;
 * - `none`: nothing the guest sees (how the provider itself behaves, e.g. a timeout).
 */
export type Impact = 'live' | 'restart' | 'replace' | 'next-boot' | 'none';

/** Every impact, from the least to the most disruptive. */
export const IMPACTS: readonly Impact[] = ['none', 'next-boot', 'live', 'restart', 'replace'];

/** An impact that depends on the planned values: `then` when `if` holds, else `else`. */
export interface ConditionalImpact {
  readonly if: Condition;
  readonly then: Impact;
  readonly else: Impact | ConditionalImpact;
}

/** A default that depends on the planned values: `then` when `if` holds, else `else`. */
export interface ConditionalDefault {
  readonly if: Condition;
  readonly then: Scalar;
  readonly else: Scalar;
}

/** A default the handler derives (from the host, other attributes, a hash...); `derived` says how (Markdown). */
export interface DerivedDefault {
  readonly derived: string;
}

/** The value a plan uses when the config leaves an optional attribute null. */
export type FieldDefault = Scalar | ConditionalDefault | DerivedDefault;

/**
 * When a change replaces the object: always (`true`), or only when `if` holds. `whenUnknown` overrides the
 * resource's rule for a planned value that is not known yet (see ResourceFields.whenUnknown).
 */
export type ReplaceRule = true | { readonly if?: Condition; readonly whenUnknown?: WhenUnknown };

/**
 * How a replace attribute whose planned value is unknown counts: `replace` forces the replacement at plan;
 * `wait` waits for the plan Terraform makes at apply, when the value is known.
 */
export type WhenUnknown = 'replace' | 'wait';

/** Where a field also appears, when its name there is not the default. */
export interface FieldSpellings {
  /** Key in the shared model (e.g. src/seed `SeedSpec`); default: the Terraform name. `null`: not in the model
   *  (computed or placement attributes such as `id`, `pool`). */
  readonly spec?: string | null;
  /** Key in the construct props; default: the camelCase of the model key. */
  readonly prop?: string;
  /** The construct prop's default where the Terraform attribute has none because it is required there (e.g. a
   *  `VirtualMachine`'s memory); an optional attribute's `default` is its prop's default too. */
  readonly propDefault?: Scalar;
}

/** What a change of a field means; at most one of `replace: true` and `impact` (a replacement is its impact). */
export interface ChangeRules {
  /** A change replaces the object (always, or under a condition). */
  readonly replace?: ReplaceRule;
  /** What a change does to a running guest when it does not replace the object. */
  readonly impact?: Impact | ConditionalImpact;
}

/** An attribute. Exactly one of: `required`; `optional`; `computed`; `optional` + `computed`. */
export interface AttributeField extends FieldSpellings, ChangeRules {
  readonly type: FieldType;
  readonly required?: true;
  readonly optional?: true;
  readonly computed?: true;
  /** Terraform hides the value in plan output. */
  readonly sensitive?: true;
  /**
   * Write-only (tfplugin6 `Schema.Attribute.write_only`, Terraform 1.11 and later): the value reaches the provider
   * in the config at validate, plan and apply, and never the plan or the state (planned and new state hold null).
   * It accepts ephemeral values. Only on optional, non-computed attributes (./write-only.ts). docs/write-only.md.
   */
  readonly writeOnly?: true;
  /** For a write-only attribute: the attribute whose value it stands in for (its `_wo` twin is exclusive with it
   *  and carries the same content; the handler reads the twin as that attribute, ./write-only.ts `mergeTwins`). */
  readonly twinOf?: string;
  /** A keyed digest of write-only inputs (e.g. `keyed_digest`): its change means a secret changed. Plan summaries
   *  say "secret changed" there, never its value. */
  readonly secretDigest?: true;
  /** The model holds a map; Terraform a JSON or YAML string of it. */
  readonly json?: true;
  /** Markdown: what the attribute is. The sentences on allowed values, default and change are generated. */
  readonly description: string;
  /** The value a plan uses when the config leaves the attribute null (optional + computed attributes). */
  readonly default?: FieldDefault;
  /** The allowed values, each with what it means (Markdown, may be empty); the typed state gets their union. */
  readonly values?: { readonly [value: string]: string };
  /** Values that differ only in letter case are the same (e.g. hex digests). */
  readonly caseInsensitive?: true;
  /** The unit of a number, as plans show it (e.g. `memory 1024 → 2048 MiB`). */
  readonly unit?: 'MiB' | 'bytes' | 'seconds';
}

/** A nested block: `list` holds 0..n blocks (an absent block is `[]`), `single` one or null. Its `replace` and
 *  `impact` say what adding or removing an element does, and changing an element's field that has no rule of its
 *  own; `replace` (unconditional) replaces on any change of the block. */
export interface BlockField extends FieldSpellings, ChangeRules {
  readonly nesting: 'list' | 'single';
  /** Markdown. */
  readonly description: string;
  readonly fields: FieldTable;
  /**
   * For a `list`: the fields that say which element is which, in order of preference (e.g. a disk's `target`,
   * else its `volume_id`, else its `file`). Two elements are the same when the first of these fields known in
   * both is equal. A change compares the prior and planned elements that are the same, so removing an element
   * from the middle is that element removed, not a change of each one after it (./changes.ts `matchElements`).
   * Without it, elements are compared by position.
   */
  readonly identity?: readonly string[];
}

export type Field = AttributeField | BlockField;

/** A resource's (or block's) fields by Terraform name, in schema order. */
export type FieldTable = { readonly [name: string]: Field };

/** A resource's field table with its schema version and description. */
export interface ResourceFields<F extends FieldTable = FieldTable> {
  readonly version: number;
  /** Markdown. */
  readonly description: string;
  /** The object the resource manages, as the "Changing it: replaces the …" sentence names it (e.g. `domain`). */
  readonly object: string;
  /** How replace attributes whose planned value is unknown count, unless a field says otherwise. */
  readonly whenUnknown: WhenUnknown;
  readonly fields: F;
}

export function isBlock(f: Field): f is BlockField {
  return 'nesting' in f;
}

/** True when a replace rule replaces on every change (no condition). */
export function replacesAlways(rule: ReplaceRule | undefined): boolean {
  return rule === true || (rule !== undefined && rule.if === undefined);
}

/** True when a field states what a change of it does (else it follows its block's rule). */
export function hasChangeRule(f: ChangeRules): boolean {
  return f.replace !== undefined || f.impact !== undefined;
}

export function isConditionalDefault(d: FieldDefault): d is ConditionalDefault {
  return typeof d === 'object' && 'if' in d;
}

export function isDerivedDefault(d: FieldDefault): d is DerivedDefault {
  return typeof d === 'object' && 'derived' in d;
}

/** The allowed values of a field of a table, as a union (`values`' keys). */
export type ValuesOf<T extends { readonly values: object }> = keyof T['values'] & string;

/**
 * A field's allowed values as a list, in table order, typed as the union {@link ValuesOf}: the one spelling of
 * the set for parsers and checks (`values`' keys).
 */
export function valuesOf<T extends { readonly values: { readonly [value: string]: string } }>(field: T): readonly ValuesOf<T>[] {
  return Object.keys(field.values) as ValuesOf<T>[];
}

/** True when `value` is one of `values` (a type guard: then it has their type, no cast needed). */
export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return values.some((v) => v === value);
}
