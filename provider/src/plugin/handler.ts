/**
 * The interfaces resource and data source handlers implement (docs/CONTRACTS.md, "Provider"), and the one the
 * provider itself implements (`ProviderHosting`). The protocol layer decodes DynamicValues with the handler's
 * schema, calls these methods, and encodes their results; it knows nothing of libvirt or of the provider's hosts.
 */
import type { Diagnostic } from '../../../src/diagnostics';
import type { Logger } from './log';
import type { ResourceSchema } from './schema';

/** An attribute path from the resource's root: attribute and map keys as strings, list indexes as numbers. */
export type Path = (string | number)[];

/** What every handler call gets from the protocol layer; the provider's context (`Ctx`) adds its own. */
export interface BaseContext {
  /** Aborted when Terraform calls StopProvider (e.g. Ctrl-C): long operations should stop early. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /**
   * What earlier calls of this provider process noted for later ones, kept from ConfigureProvider until the
   * process ends (Terraform starts one process per command): e.g. that a plan replaces an object whose create half
   * comes in a second call, or that a warning was given once. Keys are the resources' own.
   */
  readonly notes: Set<string>;
}

/**
 * What a provider gives the protocol layer beside its handlers: what its provider block means, where each object
 * lives and the context of each call. The layer knows only that an object may name its location by a `host`
 * attribute (a string, null for the default, or UNKNOWN from ./cty); what a location is stays the provider's.
 */
export interface ProviderHosting<Ctx> {
  /** The checks of the provider block's config (ValidateProviderConfig, and ConfigureProvider before it applies). */
  validateConfig(config: Record<string, unknown> | null): Diagnostic[];
  /** ConfigureProvider with a config that passed `validateConfig`; returns what to log of it (one line). */
  configure(config: Record<string, unknown> | null): string;
  /** The context of a call about an object at `location` (its `host` attribute's value; null when it has none). */
  context(base: BaseContext, location: unknown): Ctx;
  /** True when `location` names a place the configured provider knows (false before ConfigureProvider). */
  knows(location: string): boolean;
  /** Why `location` is no place the provider knows (for an "Unknown host" error on `host`). */
  unknownMessage(location: string): string;
  /** A diagnostic for an error a handler threw that the provider explains (e.g. its host does not answer), or undefined. */
  explain(err: unknown): Diagnostic | undefined;
  /**
   * For an error a read threw because the object's place does not answer: the place (one warning per place and
   * process), the warning, and the log line; undefined for any other error (the read then fails).
   */
  unreachable(err: unknown): { place: string; warning: Diagnostic; message: string } | undefined;
  /** Closes what the provider opened (best effort, for Shutdown). */
  close(): Promise<void>;
}

/** A managed resource type. `State` is the typed value of the schema's implied object type, decoded once from the
 *  DynamicValue by the server and encoded once from the handler's result (unknown values are the `UNKNOWN` symbol
 *  from ./cty); null means "no object" (create's prior, destroy's planned/new). `Ctx` is the provider's call context. */
export interface ResourceHandler<State, Ctx extends BaseContext = BaseContext> {
  readonly typeName: string;
  readonly schema: ResourceSchema;
  /**
   * What the resource's `host` attribute is (when its schema has one): `'location'` (the default) — the host the
   * object lives on, which `ctx.client()` and `ctx.uri` of its calls stand for (what a change of it does is the
   * field table's rule, or the handler's); `'output'` — a value the resource computes, not where it lives
   * (virtseed_placement's chosen host).
   */
  readonly hostAttribute?: 'location' | 'output';
  /** ValidateResourceConfig: only the errors reach Terraform; warnings belong to `plan` (./warnings). */
  validate?(config: State, ctx: Ctx): Diagnostic[];
  /**
   * PlanResourceChange. Each warning reaches Terraform once per resource and plan (./warnings). `validated`, when
   * present, is what `validate(config)` returned for this very config (warnings included, a copy the handler may
   * extend): the server's memo of the ValidateResourceConfig Terraform sends before each plan (./config-memo.ts),
   * so the plan need not check the config again.
   */
  plan(
    req: { prior: State | null; proposed: State | null; config: State | null; priorPrivate?: Buffer; validated?: Diagnostic[] },
    ctx: Ctx,
  ): Promise<{ planned: State | null; requiresReplace: Path[]; diagnostics: Diagnostic[]; plannedPrivate?: Buffer }>;
  apply(
    req: { prior: State | null; planned: State | null; config: State | null; plannedPrivate?: Buffer },
    ctx: Ctx,
  ): Promise<{ newState: State | null; diagnostics: Diagnostic[]; private?: Buffer }>;
  /** `newState: null` = the object is gone (deleted outside Terraform). `private`: the private state to keep
   *  (default: the one given). */
  read(
    req: { current: State; private?: Buffer },
    ctx: Ctx,
  ): Promise<{ newState: State | null; diagnostics: Diagnostic[]; private?: Buffer }>;
  importState?(id: string, ctx: Ctx): Promise<State[]>;
  /** Turns the stored JSON state of schema `version` (< schema.version) into the current shape. */
  upgrade?(rawJson: unknown, version: number): State;
}

/**
 * A data source type (tfplugin6 `ValidateDataResourceConfig`, `ReadDataSource`): reads an object the host already
 * has, named by the config, without changing anything. `State` is the typed value of the schema's implied object
 * type, as for resources. Terraform calls `read` once its config is wholly known (at plan when it can be, else at
 * apply); `state` is the config with every computed attribute filled in. An object that does not exist is an error
 * diagnostic on the attribute that names it (the state is then null).
 */
export interface DataSourceHandler<State, Ctx extends BaseContext = BaseContext> {
  readonly typeName: string;
  readonly schema: ResourceSchema;
  /** Checks of the config alone (no host access); unknown values are the `UNKNOWN` symbol and must pass. */
  validate?(config: State, ctx: Ctx): Diagnostic[];
  read(req: { config: State }, ctx: Ctx): Promise<{ state: State | null; diagnostics: Diagnostic[] }>;
}
