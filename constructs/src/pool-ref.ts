/** The `pool?: string | StoragePool` props of Volume and VirtualMachine. */
import { StoragePool } from './storage-pool';

/** A pool as a `pool` prop takes it: its name now (for names and keys) and the value for the resources. */
export interface PoolRef {
  /** The pool name as given. */
  readonly name: string;
  /** What goes into `pool` attributes: the name, or the {@link StoragePool}'s reference to its resource. */
  readonly ref: string;
}

/** The pool a `pool?: string | StoragePool` prop names (`default` when absent). */
export function poolRefOf(pool: string | StoragePool | undefined): PoolRef {
  if (pool instanceof StoragePool) return { name: pool.name, ref: pool.poolName };
  return { name: pool ?? 'default', ref: pool ?? 'default' };
}
