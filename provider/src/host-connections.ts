/**
 * The provider's libvirt connections: one per URI, opened when a handler first asks for it and reused by every
 * later call of the provider process. A connection that was lost (libvirtd restarted, network dropped) is opened
 * again on the next call. A connection that could not be opened is remembered per URI (27.2): every later call of
 * the process gets the same HostUnreachableError at once instead of waiting for the host again (a silent host would
 * cost each call the whole connect timeout). Terraform starts a new provider process for each walk, so the next
 * plan or apply tries again.
 */
import { Connection, HostConnector, HostUnreachableError } from './host';
import type { Logger } from './plugin/log';

export class HostConnections<C extends Connection> {
  private readonly pending = new Map<string, Promise<C>>();
  private readonly open = new Map<string, C>();
  private readonly failed = new Map<string, HostUnreachableError>();

  constructor(
    private readonly connector: HostConnector<C> | undefined,
    private readonly log: Logger,
  ) {}

  /**
   * The client of `uri` (`host`: the provider host block's name, for errors). Rejects with HostUnreachableError
   * (the connector's error as `cause`) when it cannot connect, and with Error when no connector was given.
   */
  client(uri: string, host: string | null = null): Promise<C> {
    if (!this.connector) return Promise.reject(new Error('no libvirt connector was given to the provider'));
    const failed = this.failed.get(uri);
    if (failed) return Promise.reject(failed);
    if (this.open.get(uri)?.isClosed) {
      this.log.warn(`connection to ${uri} was lost; connecting again`);
      this.open.delete(uri);
      this.pending.delete(uri);
    }
    let p = this.pending.get(uri);
    if (!p) {
      this.log.debug(`connecting to ${uri}`);
      p = this.connector.connect(uri).catch((err: unknown) => {
        const unreachable = new HostUnreachableError(uri, err, host);
        this.failed.set(uri, unreachable);
        return Promise.reject(unreachable);
      });
      this.pending.set(uri, p);
      const attempt = p;
      attempt.then(
        (c) => this.open.set(uri, c),
        () => {
          if (this.pending.get(uri) === attempt) this.pending.delete(uri); // this.failed answers from now on
        },
      );
    }
    return p;
  }

  /**
   * A new walk in this process: forgets the URIs that could not be reached and closes every client, so the walk
   * connects afresh, as a new process would (what was asked per connection goes with them). Terraform starts a
   * process per walk and never gets here; a test harness that reattaches terraform to one process does.
   */
  renew(): void {
    this.failed.clear();
    void this.close();
  }

  /** Closes every client opened (best effort, for Shutdown). */
  async close(): Promise<void> {
    const all = [...this.pending.values()];
    this.pending.clear();
    this.open.clear();
    await Promise.all(all.map((p) => p.then((c) => c.close()).catch(() => undefined)));
  }
}
