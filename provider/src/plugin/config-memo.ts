/**
 * What a provider process already worked out for a resource config, keyed by the config's bytes (the
 * `DynamicValue` Terraform sends): Terraform's plan of one resource calls ValidateResourceConfig and then
 * PlanResourceChange with the same config (its apply re-plans the same way), so a check of the config alone — a
 * pure function of those bytes — is done once and served to the second call.
 *
 * Keys are sha256 digests of the type name and the bytes, never the bytes themselves (configs carry sensitive
 * values); the memo holds at most `capacity` entries, forgetting the oldest first. Nothing is logged.
 */
import { createHash } from 'node:crypto';
import type { DynamicValueMsg } from './messages';

/** The memo's key of a config: sha256 (hex) of the type name and the DynamicValue's bytes (msgpack, else JSON);
 *  undefined for a null or absent value (nothing to key). */
export function configKey(typeName: string, dv: DynamicValueMsg | null | undefined): string | undefined {
  const bytes = dv?.msgpack?.length ? dv.msgpack : dv?.json?.length ? dv.json : undefined;
  if (!bytes) return undefined;
  const kind = dv?.msgpack?.length ? 'm' : 'j';
  return createHash('sha256').update(`${typeName}\u0000${kind}\u0000`).update(bytes).digest('hex');
}

/** A bounded memo of values by config key (see the module doc). `capacity` ≥ 1 entries. */
export class ConfigMemo<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity = 512) {
    if (!(capacity >= 1)) throw new RangeError(`ConfigMemo capacity must be ≥ 1, got ${capacity}`);
  }

  /** The value kept for `key`, else `compute()` kept and returned (no key: computed, not kept). */
  get(key: string | undefined, compute: () => V): V {
    if (key === undefined) return compute();
    if (this.entries.has(key)) return this.entries.get(key) as V;
    const value = compute();
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, value);
    return value;
  }

  /** The value kept for `key`, undefined when none is. */
  peek(key: string | undefined): V | undefined {
    return key === undefined ? undefined : this.entries.get(key);
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
  }

  /** How many entries are kept. */
  get size(): number {
    return this.entries.size;
  }
}
