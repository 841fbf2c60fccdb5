import { Token } from 'cdktf';
import { Construct } from 'constructs';
import type { Diagnostic } from '../../src/diagnostics';
import { validatePoolSpec, type PoolSource, type PoolSpec } from '../../src/pool';
import * as virtseed from '../generated/virtseed';
import { invalidPool } from './errors';
import { containsTokens } from './private/tokens';

/** What a storage pool keeps its volumes in (libvirt formatstorage `<pool type=...>`). */
export enum StoragePoolType {
  /** Files in a directory of the host. */
  DIR = 'dir',
  /** Logical volumes of an LVM volume group. */
  LOGICAL = 'logical',
  /** Files on a network file system (NFS, GlusterFS, CIFS) mounted on the host. */
  NETFS = 'netfs',
}

/** The file system a `NETFS` pool mounts (`<source><format type=...>`). */
export type NetfsFormat = 'auto' | 'nfs' | 'glusterfs' | 'cifs';

/** Properties of a {@link StoragePool}. */
export interface StoragePoolProps {
  /** Pool name, e.g. `web-images`. Changing it replaces the pool. */
  readonly name: string;
  /**
   * What the pool keeps its volumes in. Changing it replaces the pool.
   * @default StoragePoolType.DIR
   */
  readonly type?: StoragePoolType;
  /**
   * Absolute host path: the directory of a `DIR` pool, the mount point of a `NETFS` pool (required for both;
   * created when the pool first starts if missing, and removed with the pool then).
   * @default - `/dev/<volumeGroup>` for `LOGICAL` (libvirt's rule); none for the other types (required)
   */
  readonly path?: string;
  /**
   * `NETFS`: the file server (host name or address).
   * @default - none (required for NETFS)
   */
  readonly host?: string;
  /**
   * `NETFS`: what the server exports: an absolute path for nfs/auto, the share (cifs) or volume (glusterfs) name.
   * @default - none (required for NETFS)
   */
  readonly exportDir?: string;
  /**
   * `NETFS`: the file system to mount.
   * @default 'auto' (mount probes it)
   */
  readonly format?: NetfsFormat;
  /**
   * `LOGICAL`: the LVM volume group.
   * @default - the pool name
   */
  readonly volumeGroup?: string;
  /**
   * `LOGICAL`: block devices a new volume group is built on when it does not exist yet (never over existing
   * data).
   * @default - none (the volume group must exist)
   */
  readonly devices?: string[];
  /**
   * Start the pool when libvirtd starts.
   * @default true
   */
  readonly autostart?: boolean;
  /**
   * Keep the pool running.
   * @default true
   */
  readonly active?: boolean;
}

/** The props' paths of the pool model's fields (src/pool `PoolSpec`). */
const PROP_OF_SOURCE: Record<keyof PoolSource, string> = {
  host: 'host',
  dir: 'exportDir',
  format: 'format',
  name: 'volumeGroup',
  devices: 'devices',
};

/** The pool model of `props` (no tokens). */
function specOf(props: StoragePoolProps): PoolSpec {
  const source: PoolSource = {
    ...(props.host !== undefined ? { host: props.host } : {}),
    ...(props.exportDir !== undefined ? { dir: props.exportDir } : {}),
    ...(props.format !== undefined ? { format: props.format } : {}),
    ...(props.volumeGroup !== undefined ? { name: props.volumeGroup } : {}),
    ...(props.devices?.length ? { devices: [...props.devices] } : {}),
  };
  return {
    name: props.name,
    type: props.type ?? StoragePoolType.DIR,
    ...(props.path !== undefined ? { path: props.path } : {}),
    ...(Object.keys(source).length ? { source } : {}),
  };
}

/** validatePoolSpec's problems with paths in the props' names (`source.devices[1]` → `devices[1]`). */
function validateStoragePoolProps(props: StoragePoolProps): Diagnostic[] {
  return validatePoolSpec(specOf(props)).map((d) => {
    const [head, key, ...rest] = d.path;
    return head === 'source' && typeof key === 'string' ? { ...d, path: [PROP_OF_SOURCE[key as keyof PoolSource] ?? key, ...rest] } : d;
  });
}

/**
 * A libvirt storage pool (Terraform `virtseed_pool`): a directory (default), an LVM volume group or a network file
 * system, started (its directory, mount point or volume group built first when missing) and autostarted. Give it
 * to {@link VirtualMachine} or {@link Volume} as `pool`: their volumes then refer to it, so Terraform creates the
 * pool before them and deletes them before it. Destroying a pool that still holds volumes Terraform does not
 * manage fails, naming them.
 */
export class StoragePool extends Construct {
  /** The generated resource. */
  readonly resource: virtseed.pool.Pool;
  /** The pool name as given (for names and keys derived at synth). */
  readonly name: string;
  /**
   * The pool name as a reference to the resource (a token): what volumes put in their `pool`, so Terraform orders
   * them after the pool.
   */
  readonly poolName: string;
  /** The pool's UUID (a token). */
  readonly poolId: string;
  /** The target path on the host (a token: known after deploy for logical pools). */
  readonly path: string;

  /**
   * @throws ConstructPropsError when the definition breaks a rule libvirt would reject (a relative path, a dir pool
   *   without path, a netfs pool without host or exportDir, a field of another pool type, ...): the message lists
   *   each error with its prop path, e.g. `devices[1]`.
   */
  constructor(scope: Construct, id: string, props: StoragePoolProps) {
    super(scope, id);
    if (!containsTokens(props)) {
      const errors = validateStoragePoolProps(props).filter((d) => d.severity === 'error');
      if (errors.length) throw invalidPool('StoragePool', errors);
    } else if (!Token.isUnresolved(props.name)) {
      const errors = validateStoragePoolProps({ name: props.name, type: StoragePoolType.DIR, path: '/' }).filter(
        (d) => d.path[0] === 'name',
      );
      if (errors.length) throw invalidPool('StoragePool', errors);
    }
    this.resource = new virtseed.pool.Pool(this, 'Resource', {
      name: props.name,
      type: props.type ?? StoragePoolType.DIR,
      path: props.path,
      sourceHost: props.host,
      sourceDir: props.exportDir,
      sourceFormat: props.format,
      sourceName: props.volumeGroup,
      sourceDevices: props.devices ? [...props.devices] : undefined,
      autostart: props.autostart ?? true,
      active: props.active ?? true,
    });
    this.name = props.name;
    this.poolName = this.resource.name;
    this.poolId = this.resource.id;
    this.path = this.resource.path;
  }
}
