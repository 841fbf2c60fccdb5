/**
 * The client side of one serial number: the awaited REPLY, and for streams the queue of received STREAM data
 * and end-of-stream markers. Filled by RpcConnection's dispatcher, drained by the call or stream that owns it.
 */
export class Channel {
  private replyPayload: Buffer | null = null;
  private readonly queue: Buffer[] = [];
  private okReceived = 0;
  private okConsumed = 0;
  private error: Error | null = null;
  private daemonFailed = false;
  private wake: (() => void) | null = null;
  private readonly onAbort?: () => void;
  /** Bytes received and not yet taken by the consumer. */
  queuedBytes = 0;
  /** Called when a consumer takes data and the queue is empty again. */
  onDrained?: () => void;
  /** Settles (never rejects) once the channel has failed; lets a writer stop waiting for the socket to drain. */
  readonly failure: Promise<void>;
  private settleFailure!: () => void;

  constructor(
    readonly procedure: number,
    private readonly signal?: AbortSignal,
  ) {
    this.failure = new Promise((resolve) => {
      this.settleFailure = resolve;
    });
    if (signal) {
      this.onAbort = () => this.fail(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** True when the daemon reported an error for this serial (no abort packet is needed then). */
  get failed(): boolean {
    return this.daemonFailed;
  }

  /** Records the first error; `fromDaemon` marks errors the daemon sent. */
  fail(error: Error, fromDaemon = false): void {
    if (this.error) return;
    this.error = error;
    this.daemonFailed = fromDaemon;
    this.settleFailure();
    this.notify();
  }

  onReply(payload: Buffer): void {
    if (this.replyPayload === null) this.replyPayload = payload;
    else this.okReceived++; // a late REPLY OK ends a stream like STREAM OK
    this.notify();
  }

  /**
   * `null` = STREAM status OK (end of data, or confirmation of our finish). An empty CONTINUE packet is also
   * end of data: libvirtd marks the end of a read stream that way.
   */
  onStream(data: Buffer | null): void {
    if (data === null || data.length === 0) this.okReceived++;
    else {
      this.queue.push(data);
      this.queuedBytes += data.length;
    }
    this.notify();
  }

  throwIfFailed(): void {
    if (this.error) throw this.error;
  }

  /** Resolves with the REPLY payload; rejects with the first error. */
  async reply(): Promise<Buffer> {
    for (;;) {
      this.throwIfFailed();
      if (this.replyPayload !== null) return this.replyPayload;
      await this.wait();
    }
  }

  /** Next data chunk, or null at the daemon's end of stream. Rejects with the first error. */
  async nextData(): Promise<Buffer | null> {
    for (;;) {
      this.throwIfFailed();
      const next = this.queue.shift();
      if (next) {
        this.queuedBytes -= next.length;
        if (this.queue.length === 0) this.onDrained?.();
        return next;
      }
      if (this.okReceived > this.okConsumed) {
        this.okConsumed++;
        return null;
      }
      await this.wait();
    }
  }

  /** Waits for the next STREAM OK (the daemon's confirmation of our finish packet). */
  async streamEnd(): Promise<void> {
    for (;;) {
      this.throwIfFailed();
      if (this.okReceived > this.okConsumed) {
        this.okConsumed++;
        return;
      }
      await this.wait();
    }
  }

  dispose(): void {
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
  }

  private wait(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
