/**
 * The interfaces resource and data source handlers implement (docs/CONTRACTS.md, "Provider"). The protocol layer
 * decodes DynamicValues with the handler's schema, calls these methods, and encodes their results.
 */
import type { Diagnostic } from '../../../src/diagnostics';
import type { Connection, HostConfig, HostFacts } from '../host';
import type { Logger } from './log';
import type { ResourceSchema } from './schema';

/** An attribute path from the resource's root: attribute and map keys as strings, list indexes as numbers. */
export type Path = (string | number)[];

/** What every handler call gets. `C` is the host connection type the server was given (the libvirt client). */
export interface HandlerContext<C extends Connection = Connection> {
  /**
   * The libvirt client of a host, connected on first call and reused (one connection per URI and provider
   * process). Without `host`: the resource's own host — the `host` attribute of the value the call is about (the
   * planned value of a plan or apply, else the prior state; the current state of a read), null when the resource
   * has none. `host`: a provider `host` block's name, or null for the provider's `uri`. Rejects before
   * ConfigureProvider, with UnknownHostError for a name no host block has or a host whose URI is not known yet,
   * and with HostUnreachableError when the host cannot be reached; after a failed connect, every later call of the
   * process for that host rejects at once with the same HostUnreachableError (per URI, issue 27.2).
   */
  client(host?: string | null): Promise<C>;
  /** The URI of the resource's host ('' before ConfigureProvider, or while the resource's host is unknown). */
  readonly uri: string;
  /** The resource's host: a provider `host` block's name, or null (the provider's `uri`, or not known yet). */
  readonly hostName: string | null;
  /** The provider's host named `host` (null: the default host, the provider's `uri`); undefined when no host block has that name. */
  hostConfig(host: string | null): HostConfig | undefined;
  /** The provider's `host` blocks, in configuration order. */
  readonly hosts: readonly HostConfig[];
  /** Aborted when Terraform calls StopProvider (e.g. Ctrl-C): long operations should stop early. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Facts about the host (e.g. whether KVM runs guests), for plans to use without touching libvirt. */
  readonly host: HostFacts;
  /**
   * What earlier calls of this provider process noted for later ones, kept from ConfigureProvider until the
   * process ends (Terraform starts one process per command): e.g. that a plan replaces an object whose create half
   * comes in a second call, or that a warning was given once. Keys are the resources' own.
   */
  readonly notes: Set<string>;
}

/** A managed resource type. `State` is the typed value of the schema's implied object type, decoded once from the
 *  DynamicValue by the server and encoded once from the handler's result (unknown values are the `UNKNOWN` symbol
 *  from ./cty); null means "no object" (create's prior, destroy's planned/new). `C` is the host connection type. */
export interface ResourceHandler<State, C extends Connection = Connection> {
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
  validate?(config: State, ctx: HandlerContext<C>): Diagnostic[];
  /**
   * PlanResourceChange. Each warning reaches Terraform once per resource and plan (./warnings). `validated`, when
   * present, is what `validate(config)` returned for this very config (warnings included, a copy the handler may
   * extend): the server's memo of the ValidateResourceConfig Terraform sends before each plan (./config-memo.ts),
   * so the plan need not check the config again.
   */
  plan(
    req: { prior: State | null; proposed: State | null; config: State | null; priorPrivate?: Buffer; validated?: Diagnostic[] },
    ctx: HandlerContext<C>,
  ): Promise<{ planned: State | null; requiresReplace: Path[]; diagnostics: Diagnostic[]; plannedPrivate?: Buffer }>;
  apply(
    req: { prior: State | null; planned: State | null; config: State | null; plannedPrivate?: Buffer },
    ctx: HandlerContext<C>,
  ): Promise<{ newState: State | null; diagnostics: Diagnostic[]; private?: Buffer }>;
  /** `newState: null` = the object is gone (deleted outside Terraform). `private`: the private state to keep
   *  (default: the one given). */
  read(
    req: { current: State; private?: Buffer },
    ctx: HandlerContext<C>,
  ): Promise<{ newState: State | null; diagnostics: Diagnostic[]; private?: Buffer }>;
  importState?(id: string, ctx: HandlerContext<C>): Promise<State[]>;
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
export interface DataSourceHandler<State, C extends Connection = Connection> {
  readonly typeName: string;
  readonly schema: ResourceSchema;
  /** Checks of the config alone (no host access); unknown values are the `UNKNOWN` symbol and must pass. */
  validate?(config: State, ctx: HandlerContext<C>): Diagnostic[];
  read(req: { config: State }, ctx: HandlerContext<C>): Promise<{ state: State | null; diagnostics: Diagnostic[] }>;
}
