/**
 * How the provider reaches its libvirt hosts. `ConfigureProvider` stores the provider's `uri` (the default host) and
 * its `host { name, uri }` blocks; the first handler that needs a host calls `ctx.client()` (the resource's own
 * host) or `ctx.client(name)`, which connects once per URI through the injected `HostConnector` and reuses the
 * client (provider/src/connections.ts).
 */
import { DEFAULT_LIBVIRT_URI } from '../../src/libvirt/uri';

/** What the protocol layer needs of a host connection: closing it, and knowing when it was lost. The libvirt
 *  client (src/libvirt `LibvirtClient`) is one; the server is generic over the connection type, so resource
 *  handlers get the full client type without a cast. */
export interface Connection {
  close(): Promise<void>;
  /** True once the connection is closed or lost (then the provider connects again on the next call). */
  readonly isClosed?: boolean;
}

/** Opens a connection to a libvirt URI (`qemu:///system`, `qemu+ssh://...`). Rejects when it cannot connect. */
export interface HostConnector<C extends Connection = Connection> {
  connect(uri: string): Promise<C>;
}

/** Facts about the host that plans depend on, looked up without starting anything (see host-probe.ts). */
export interface HostFacts {
  /** The `<domain type>` for guests on the host behind `uri`: `kvm` only where KVM really runs guests. */
  domainType(uri: string): 'kvm' | 'qemu';
}

/** Host facts when none are injected: TCG everywhere (always works, only slower). */
export const TCG_ONLY: HostFacts = { domainType: () => 'qemu' };

/** The default libvirt URI when the provider block gives none. */
export const DEFAULT_URI = DEFAULT_LIBVIRT_URI;

/**
 * One libvirt host of the provider configuration: a `host` block (`name` set) or the provider's own `uri` (the
 * default host, `name` null). Limits are what placements may commit on the host (virtseed_placement).
 */
export interface HostConfig {
  /** The `host` block's name; null for the provider's `uri`. */
  readonly name: string | null;
  /** The libvirt URI this provider connects to ('' when not known yet: a value Terraform knows only after apply). */
  readonly uri: string;
  /** The URI the other hosts' libvirtd uses to reach this one (peer-to-peer migration). @default - `uri` */
  readonly migrationUri: string;
  /** MiB of guest memory placements may commit on the host. @default - the host's physical memory */
  readonly maxMemoryMiB?: number;
  /** vCPUs placements may commit on the host. @default - 4 per host CPU */
  readonly maxVcpu?: number;
}

/** How a host is named in messages: `host h2 (qemu+tls://…)`, or the URI alone for the default host. */
export function describeHost(host: Pick<HostConfig, 'name' | 'uri'>): string {
  return host.name === null ? host.uri : `host ${host.name} (${host.uri})`;
}

/** Thrown by `ctx.client()` when the libvirt host at `uri` cannot be reached (the connector's error as `cause`). */
export class HostUnreachableError extends Error {
  constructor(
    readonly uri: string,
    cause: unknown,
    /** The provider `host` block's name; null for the provider's `uri`. */
    readonly host: string | null = null,
  ) {
    super(`cannot connect to libvirt at ${uri}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'HostUnreachableError';
  }
}

/** Thrown by `ctx.client(name)` for a name that is none of the provider's `host` blocks, or a host whose URI is not known yet. */
export class UnknownHostError extends Error {
  constructor(
    readonly host: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'UnknownHostError';
  }
}
