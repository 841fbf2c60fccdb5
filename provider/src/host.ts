/**
 * How the provider reaches a libvirt host. `ConfigureProvider` stores the URI; the first handler that needs the
 * host calls `ctx.client()`, which connects once through the injected `HostConnector` and reuses the client.
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

/** Thrown by `ctx.client()` when the libvirt host at `uri` cannot be reached (the connector's error as `cause`). */
export class HostUnreachableError extends Error {
  constructor(
    readonly uri: string,
    cause: unknown,
  ) {
    super(`cannot connect to libvirt at ${uri}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'HostUnreachableError';
  }
}
