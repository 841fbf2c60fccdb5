/**
 * How the provider reaches a libvirt host. `ConfigureProvider` stores the URI; the first handler that needs the
 * host calls `ctx.client()`, which connects once through the injected `HostConnector` and reuses the client.
 */

/** The part of the libvirt client (src/libvirt `LibvirtClient`, docs/CONTRACTS.md) the protocol layer relies on.
 *  The real client satisfies it; resource handlers narrow `ctx.client()` to the full interface. */
export interface LibvirtClient {
  close(): Promise<void>;
  /** True once the connection is closed or lost (then the provider connects again on the next call). */
  readonly isClosed?: boolean;
}

/** Opens a connection to a libvirt URI (`qemu:///system`, `qemu+ssh://...`). Rejects when it cannot connect. */
export interface HostConnector<C extends LibvirtClient = LibvirtClient> {
  connect(uri: string): Promise<C>;
}

/** The default libvirt URI when the provider block gives none. */
export const DEFAULT_URI = 'qemu:///system';

/** Thrown by `ctx.client()` when the libvirt host at `uri` cannot be reached (the connector's error as `cause`). */
export class HostUnreachableError extends Error {
  constructor(readonly uri: string, cause: unknown) {
    super(`cannot connect to libvirt at ${uri}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'HostUnreachableError';
  }
}
