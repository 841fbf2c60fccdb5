/**
 * The provider's `ProviderHosting` (./plugin/handler.ts): what the provider block means (its `uri` and `host`
 * blocks, ./host-config.ts), the libvirt connection of each host (./host-connections.ts), the `HandlerContext` of
 * each call, and the diagnostics of a host that is unknown or does not answer.
 */
import type { Diagnostic } from '../../src/diagnostics';
import type { HandlerContext } from './handler';
import { providerHosts, ProviderHosts, validateProviderConfig } from './host-config';
import { HostConnections } from './host-connections';
import { Connection, describeHost, HostConfig, HostConnector, HostFacts, HostUnreachableError, TCG_ONLY, UnknownHostError } from './host';
import { isUnknown, UNKNOWN } from './plugin/cty';
import { hostUnreachable } from './plugin/diagnostics';
import type { BaseContext, ProviderHosting } from './plugin/handler';
import type { Logger } from './plugin/log';
import { ProviderServer, type ProviderServerOptions } from './plugin/server';

/** What the hosting is made of: how to connect (absent = handlers may not use the host) and the host facts. */
export interface HostingOptions<C extends Connection = Connection> {
  /** Opens the libvirt connection on first `ctx.client()`; absent = handlers may not use the host. */
  readonly connector?: HostConnector<C>;
  /** Host facts handed to handlers (`ctx.host`); default: TCG only. */
  readonly host?: HostFacts;
}

/** The provider's hosts, connections and call contexts (one per provider process). */
export class LibvirtHosting<C extends Connection> implements ProviderHosting<HandlerContext<C>> {
  private configured = false;
  private hosts: ProviderHosts = providerHosts(null);
  private readonly connections: HostConnections<C>;

  constructor(
    private readonly options: HostingOptions<C>,
    log: Logger,
  ) {
    this.connections = new HostConnections(options.connector, log);
  }

  validateConfig(config: Record<string, unknown> | null): Diagnostic[] {
    return validateProviderConfig(config);
  }

  configure(config: Record<string, unknown> | null): string {
    if (this.configured) this.connections.renew(); // a second walk in this process (a reattached test provider)
    this.hosts = providerHosts(config);
    this.configured = true;
    const named = this.hosts.named.map((h) => `, host ${h.name} ${h.uri || '(unknown)'}`).join('');
    return `uri ${this.hosts.default.uri || '(unknown)'}${named}`;
  }

  context(base: BaseContext, location: unknown): HandlerContext<C> {
    const name = typeof location === 'string' ? location : null;
    const own = isUnknown(location) ? undefined : this.hostConfig(name);
    return {
      ...base,
      client: (h?: string | null) => (h === undefined ? this.clientOf(isUnknown(location) ? UNKNOWN : name) : this.clientOf(h)),
      uri: own?.uri ?? '',
      hostName: name,
      hostConfig: (h) => this.hostConfig(h),
      hosts: this.hosts.named,
      host: this.options.host ?? TCG_ONLY,
    };
  }

  knows(location: string): boolean {
    return this.hostConfig(location) !== undefined;
  }

  unknownMessage(location: string): string {
    const names = this.hosts.named.map((h) => h.name);
    return `host ${JSON.stringify(location)} is none of the provider's host blocks (${names.length ? names.join(', ') : 'it has none'}). Add a host block { name = ${JSON.stringify(location)}, uri = "..." } to the provider, or name one of its hosts`;
  }

  explain(err: unknown): Diagnostic | undefined {
    if (err instanceof HostUnreachableError) return hostUnreachable(err.uri, err.cause, err.host);
    if (err instanceof UnknownHostError) return { severity: 'error', summary: 'Unknown host', detail: `${err.message}.`, path: [] };
    return undefined;
  }

  unreachable(err: unknown): { place: string; warning: Diagnostic; message: string } | undefined {
    if (!(err instanceof HostUnreachableError)) return undefined;
    const d = hostUnreachable(err.uri, err.cause, err.host);
    return {
      place: err.uri,
      message: err.message,
      warning: {
        severity: 'warning',
        summary: `Not refreshed: ${describeHost({ name: err.host, uri: err.uri })} does not answer`,
        detail: `${d.detail} The objects on this host keep their last known state in this plan; applying a change to one of them needs the host.`,
        path: [],
      },
    };
  }

  close(): Promise<void> {
    return this.connections.close();
  }

  /** The provider's host named `name` (null: the default host); undefined when there is none of that name. */
  private hostConfig(name: string | null): HostConfig | undefined {
    if (!this.configured) return undefined;
    return name === null ? this.hosts.default : this.hosts.named.find((h) => h.name === name);
  }

  private clientOf(host: string | null | typeof UNKNOWN): Promise<C> {
    if (!this.configured) return Promise.reject(new Error('the provider is not configured yet (its uri is unknown)'));
    if (isUnknown(host)) return Promise.reject(new UnknownHostError(null, "the resource's host is not known yet"));
    const config = this.hostConfig(host);
    if (!config) return Promise.reject(new UnknownHostError(host, this.unknownMessage(host ?? 'null')));
    if (!config.uri)
      return Promise.reject(new UnknownHostError(host, `the URI of ${host === null ? 'the provider' : `host ${host}`} is not known yet`));
    return this.connections.client(config.uri, host);
  }
}

/** The hosting factory the protocol layer's server and serve take (`hosting`), for these options. */
export function libvirtHosting<C extends Connection>(options: HostingOptions<C> = {}): (log: Logger) => LibvirtHosting<C> {
  return (log) => new LibvirtHosting(options, log);
}

/** The protocol layer's server over this provider's hosting (options: the server's, and the hosting's). */
export class LibvirtProviderServer<C extends Connection = Connection> extends ProviderServer<HandlerContext<C>> {
  constructor(options: Omit<ProviderServerOptions<HandlerContext<C>>, 'hosting'> & HostingOptions<C>) {
    super({ ...options, hosting: libvirtHosting(options) });
  }
}
