/**
 * The interfaces resource and data source handlers implement (docs/CONTRACTS.md, "Provider"). The protocol layer
 * decodes DynamicValues with the handler's schema, calls these methods, and encodes their results.
 */
import type { Diagnostic } from '../../../src/diagnostics';
import type { Connection, HostFacts } from '../host';
import type { Logger } from './log';
import type { ResourceSchema } from './schema';

/** An attribute path from the resource's root: attribute and map keys as strings, list indexes as numbers. */
export type Path = (string | number)[];

/** What every handler call gets. `C` is the host connection type the server was given (the libvirt client). */
export interface HandlerContext<C extends Connection = Connection> {
  /** The configured libvirt client, connected on first call and reused. Rejects before ConfigureProvider or
   *  when the host cannot be reached; after a failed connect, every later call of the process rejects at once with
   *  the same HostUnreachableError (per URI). */
  client(): Promise<C>;
  /** The provider's configured libvirt URI ('' before ConfigureProvider). */
  readonly uri: string;
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
  /** ValidateResourceConfig: only the errors reach Terraform; warnings belong to `plan` (./warnings). */
  validate?(config: State, ctx: HandlerContext<C>): Diagnostic[];
  /** PlanResourceChange. Each warning reaches Terraform once per resource and plan (./warnings). */
  plan(
    req: { prior: State | null; proposed: State | null; config: State | null; priorPrivate?: Buffer },
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
