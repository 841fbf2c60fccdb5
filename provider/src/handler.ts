/**
 * The provider's side of the handler interfaces of ./plugin/handler.ts: the context each call gets (the libvirt
 * client of the resource's host, the provider's host blocks, the host facts) and the handler types over it.
 */
import type { BaseContext, DataSourceHandler as PluginDataSourceHandler, ResourceHandler as PluginResourceHandler } from './plugin/handler';
import type { Connection, HostConfig, HostFacts } from './host';

export type { Path } from './plugin/handler';

/** What every handler call of this provider gets: the protocol layer's part and the host's. `C` is the host
 *  connection type the server was given (the libvirt client). */
export interface HandlerContext<C extends Connection = Connection> extends BaseContext {
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
  /** Facts about the host (e.g. whether KVM runs guests), for plans to use without touching libvirt. */
  readonly host: HostFacts;
}

/** A managed resource type of this provider (./plugin/handler.ts `ResourceHandler` over `HandlerContext<C>`). */
export type ResourceHandler<State, C extends Connection = Connection> = PluginResourceHandler<State, HandlerContext<C>>;

/** A data source type of this provider (./plugin/handler.ts `DataSourceHandler` over `HandlerContext<C>`). */
export type DataSourceHandler<State, C extends Connection = Connection> = PluginDataSourceHandler<State, HandlerContext<C>>;
