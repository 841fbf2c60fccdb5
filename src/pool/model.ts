/**
 * The typed libvirt storage pool model: the subset of libvirt's pool XML (https://libvirt.org/formatstorage.html,
 * "Storage pool XML") that virtseed defines and reads back. Pure data, no I/O.
 */
import type { POOL_FIELDS, ValuesOf } from '../fields';

/** `<pool type=...>`: a directory of files, an LVM volume group, or a mounted network file system. */
export type PoolType = ValuesOf<(typeof POOL_FIELDS)['fields']['type']>;

/** `<source><format type=...>` of a `netfs` pool: the file system to mount (`auto` lets mount(8) probe). */
export type NetfsFormat = Exclude<ValuesOf<(typeof POOL_FIELDS)['fields']['source_format']>, 'lvm2'>;

/** `<source><format type=...>` of a `logical` pool. */
export type LogicalFormat = 'lvm2';

/** `<pool><source>`: where the pool's storage comes from (none for `dir`). */
export interface PoolSource {
  /** `<host name=...>`: the file server of a `netfs` pool (host name or address). */
  host?: string;
  /**
   * `<dir path=...>`: the exported directory of a `netfs` pool: an absolute path for `nfs`/`auto`, the share or
   * volume name for `cifs`/`glusterfs`.
   */
  dir?: string;
  /** `<name>`: the volume group of a `logical` pool. @default - the pool's name (libvirt's rule) */
  name?: string;
  /** `<device path=...>`: the physical volumes a `logical` pool's build puts the volume group on. */
  devices?: string[];
  /** `<format type=...>`. */
  format?: NetfsFormat | LogicalFormat;
}

/** A storage pool as virtseed defines it. */
export interface PoolSpec {
  /** `<name>`: letters, digits, `.`, `_`, `-`; starts with a letter or digit; at most 63 characters. */
  name: string;
  /** `<uuid>` in 8-4-4-4-12 hex form. @default - libvirt generates one */
  uuid?: string;
  type: PoolType;
  /**
   * `<target><path>`: the directory (`dir`), the mount point (`netfs`), or `/dev/<volume group>` (`logical`,
   * where libvirt sets it). Absolute.
   */
  path?: string;
  /** `<source>`. @default - none (a `dir` pool has no source) */
  source?: PoolSource;
}
