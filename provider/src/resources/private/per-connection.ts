/**
 * A value asked of libvirt once per client connection and shared by the calls made on it: the promise is kept, so
 * calls made while it is still being asked wait for the same answer. Kept for `maxAgeMs` (milliseconds; for as long
 * as the connection lives when absent), and forgotten at once when the ask fails (the next call asks again) or when
 * `forget` is called. Serves the shared domain listing (./domain-directory.ts) and the daemon's version
 * (./lib-version.ts) (issue #38: round trips saved per domain).
 */
import { performance } from 'node:perf_hooks';
import type { LibvirtClient } from '../../../../src/libvirt';

/** One value per client connection; see the module docstring. */
export interface PerConnection<T> {
  /** The kept answer, or a new ask when none is kept or it is older than `maxAgeMs`. Rejects as the ask does. */
  get(client: LibvirtClient): Promise<T>;
  /** Drops the kept answer of `client`: the next `get` asks again. */
  forget(client: LibvirtClient): void;
}

export function perConnection<T>(ask: (client: LibvirtClient) => Promise<T>, maxAgeMs = Infinity): PerConnection<T> {
  const kept = new WeakMap<LibvirtClient, { readonly takenAt: number; readonly value: Promise<T> }>();
  return {
    get(client) {
      const current = kept.get(client);
      if (current && performance.now() - current.takenAt <= maxAgeMs) return current.value;
      const fresh = { takenAt: performance.now(), value: ask(client) };
      kept.set(client, fresh);
      fresh.value.catch(() => {
        if (kept.get(client) === fresh) kept.delete(client);
      });
      return fresh.value;
    },
    forget(client) {
      kept.delete(client);
    },
  };
}
