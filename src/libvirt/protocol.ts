/**
 * Facts of libvirt's remote program (`src/remote/remote_protocol.x`): procedure numbers and the XDR layout of
 * the object references every call passes. Only the procedures this client uses are listed.
 */
import { XdrError, XdrReader, XdrWriter } from './xdr';

/** `enum remote_procedure` (subset). Numbers are stable: libvirt never renumbers procedures. */
export const RemoteProcedure = {
  CONNECT_OPEN: 1,
  CONNECT_CLOSE: 2,
  CONNECT_GET_TYPE: 3,
  CONNECT_GET_VERSION: 4,
  DOMAIN_CREATE: 9,
  DOMAIN_DEFINE_XML: 11,
  DOMAIN_DESTROY: 12,
  DOMAIN_GET_XML_DESC: 14,
  DOMAIN_LOOKUP_BY_NAME: 23,
  DOMAIN_LOOKUP_BY_UUID: 24,
  DOMAIN_REBOOT: 27,
  DOMAIN_RESUME: 28,
  DOMAIN_SET_AUTOSTART: 29,
  DOMAIN_SHUTDOWN: 33,
  CONNECT_GET_HOSTNAME: 59,
  CONNECT_SUPPORTS_FEATURE: 60,
  AUTH_LIST: 66,
  AUTH_POLKIT: 70,
  STORAGE_POOL_CREATE_XML: 76,
  STORAGE_POOL_DEFINE_XML: 77,
  STORAGE_POOL_CREATE: 78,
  STORAGE_POOL_BUILD: 79,
  STORAGE_POOL_DESTROY: 80,
  STORAGE_POOL_UNDEFINE: 82,
  STORAGE_POOL_REFRESH: 83,
  STORAGE_POOL_LOOKUP_BY_NAME: 84,
  STORAGE_POOL_LOOKUP_BY_UUID: 85,
  STORAGE_POOL_GET_INFO: 87,
  STORAGE_POOL_GET_XML_DESC: 88,
  STORAGE_POOL_GET_AUTOSTART: 89,
  STORAGE_POOL_SET_AUTOSTART: 90,
  STORAGE_VOL_CREATE_XML: 93,
  STORAGE_VOL_DELETE: 94,
  STORAGE_VOL_LOOKUP_BY_NAME: 95,
  STORAGE_VOL_LOOKUP_BY_KEY: 96,
  STORAGE_VOL_LOOKUP_BY_PATH: 97,
  STORAGE_VOL_GET_INFO: 98,
  STORAGE_VOL_GET_XML_DESC: 99,
  STORAGE_VOL_GET_PATH: 100,
  CONNECT_GET_URI: 110,
  STORAGE_VOL_CREATE_XML_FROM: 125,
  DOMAIN_IS_ACTIVE: 150,
  STORAGE_POOL_IS_ACTIVE: 154,
  CONNECT_GET_LIB_VERSION: 157,
  DOMAIN_CREATE_WITH_FLAGS: 196,
  DOMAIN_OPEN_CONSOLE: 201,
  STORAGE_VOL_UPLOAD: 208,
  STORAGE_VOL_DOWNLOAD: 209,
  DOMAIN_GET_STATE: 212,
  DOMAIN_UNDEFINE_FLAGS: 231,
  DOMAIN_DESTROY_FLAGS: 234,
  DOMAIN_SHUTDOWN_FLAGS: 258,
  STORAGE_VOL_RESIZE: 260,
  // domains: live changes (issue 20)
  DOMAIN_GET_AUTOSTART: 15,
  DOMAIN_ATTACH_DEVICE_FLAGS: 160,
  DOMAIN_DETACH_DEVICE_FLAGS: 161,
  DOMAIN_UPDATE_DEVICE_FLAGS: 174,
  DOMAIN_SET_VCPUS_FLAGS: 199,
  DOMAIN_SET_MEMORY_FLAGS: 204,
  DOMAIN_BLOCK_RESIZE: 251,
  CONNECT_LIST_ALL_DOMAINS: 273,
  CONNECT_LIST_ALL_STORAGE_POOLS: 281,
  STORAGE_POOL_LIST_ALL_VOLUMES: 282,
  DOMAIN_DEFINE_XML_FLAGS: 350,
  // domains: settings changed live (issue 22 devices: title, description, metadata, on_* actions)
  DOMAIN_SET_METADATA: 264,
  DOMAIN_SET_LIFECYCLE_ACTION: 390,
  // networks (formatnetwork) and guest addresses
  NETWORK_CREATE: 39,
  NETWORK_DEFINE_XML: 41,
  NETWORK_DESTROY: 42,
  NETWORK_GET_XML_DESC: 43,
  NETWORK_GET_AUTOSTART: 44,
  NETWORK_LOOKUP_BY_NAME: 46,
  NETWORK_LOOKUP_BY_UUID: 47,
  NETWORK_SET_AUTOSTART: 48,
  NETWORK_UNDEFINE: 49,
  NETWORK_IS_ACTIVE: 152,
  CONNECT_LIST_ALL_NETWORKS: 283,
  NETWORK_UPDATE: 291,
  NETWORK_GET_DHCP_LEASES: 341,
  DOMAIN_INTERFACE_ADDRESSES: 353,
  // domain snapshots (formatsnapshot)
  DOMAIN_SNAPSHOT_CREATE_XML: 185,
  DOMAIN_SNAPSHOT_GET_XML_DESC: 186,
  DOMAIN_SNAPSHOT_LOOKUP_BY_NAME: 189,
  DOMAIN_SNAPSHOT_CURRENT: 191,
  DOMAIN_REVERT_TO_SNAPSHOT: 192,
  DOMAIN_SNAPSHOT_DELETE: 193,
  DOMAIN_LIST_ALL_SNAPSHOTS: 274,
  // the host (virsh nodeinfo, version, capabilities, domcapabilities)
  NODE_GET_INFO: 6,
  CONNECT_GET_CAPABILITIES: 7,
  NODE_GET_FREE_MEMORY: 102,
  CONNECT_GET_DOMAIN_CAPABILITIES: 342,
  // storage pools, networks and domains: deletion, persistence and facts the data sources read
  STORAGE_POOL_DELETE: 81,
  STORAGE_POOL_IS_PERSISTENT: 155,
  NETWORK_IS_PERSISTENT: 153,
  DOMAIN_GET_INFO: 16,
  DOMAIN_IS_PERSISTENT: 151,
  // migration between hosts (a live move: peer to peer)
  DOMAIN_ABORT_JOB: 164,
  DOMAIN_MIGRATE_PERFORM3_PARAMS: 305,
  // backups (formatbackup) and checkpoints (formatcheckpoint); guest file system freeze; a job's statistics
  DOMAIN_GET_JOB_STATS: 298,
  DOMAIN_FSFREEZE: 335,
  DOMAIN_FSTHAW: 336,
  DOMAIN_CHECKPOINT_CREATE_XML: 411,
  DOMAIN_CHECKPOINT_GET_XML_DESC: 412,
  DOMAIN_LIST_ALL_CHECKPOINTS: 413,
  DOMAIN_CHECKPOINT_LOOKUP_BY_NAME: 415,
  DOMAIN_CHECKPOINT_DELETE: 417,
  DOMAIN_BACKUP_BEGIN: 421,
  DOMAIN_BACKUP_GET_XML_DESC: 422,
} as const;

/** `REMOTE_STRING_MAX` of current libvirt (4 MiB; 1 MiB before libvirt 1.2.x). Decoding accepts up to this. */
export const REMOTE_STRING_MAX = 4194304;
/** `VIR_UUID_BUFLEN`: UUIDs travel as 16 raw bytes. */
export const UUID_LENGTH = 16;

/** `remote_auth_type`. */
export const REMOTE_AUTH_NONE = 0;
export const REMOTE_AUTH_SASL = 1;
export const REMOTE_AUTH_POLKIT = 2;

/** A storage pool (`remote_nonnull_storage_pool`). */
export interface PoolRef {
  readonly name: string;
  readonly uuid: Buffer;
}

/** A storage volume (`remote_nonnull_storage_vol`): its pool's name, its name, and its key (usually the path). */
export interface VolRef {
  readonly pool: string;
  readonly name: string;
  readonly key: string;
}

/** A domain (`remote_nonnull_domain`); `id` is -1 when the domain is not running. */
export interface DomRef {
  readonly name: string;
  readonly uuid: Buffer;
  readonly id: number;
}

export function writePool(w: XdrWriter, p: PoolRef): void {
  w.string(p.name).fixedOpaque(p.uuid, UUID_LENGTH);
}
export function readPool(r: XdrReader): PoolRef {
  return { name: r.string(REMOTE_STRING_MAX), uuid: r.fixedOpaque(UUID_LENGTH) };
}

export function writeVol(w: XdrWriter, v: VolRef): void {
  w.string(v.pool).string(v.name).string(v.key);
}
export function readVol(r: XdrReader): VolRef {
  return { pool: r.string(REMOTE_STRING_MAX), name: r.string(REMOTE_STRING_MAX), key: r.string(REMOTE_STRING_MAX) };
}

export function writeDom(w: XdrWriter, d: DomRef): void {
  w.string(d.name).fixedOpaque(d.uuid, UUID_LENGTH).int(d.id);
}
export function readDom(r: XdrReader): DomRef {
  return { name: r.string(REMOTE_STRING_MAX), uuid: r.fixedOpaque(UUID_LENGTH), id: r.int() };
}

/** A virtual network (`remote_nonnull_network`). */
export interface NetRef {
  readonly name: string;
  readonly uuid: Buffer;
}

export function writeNet(w: XdrWriter, n: NetRef): void {
  w.string(n.name).fixedOpaque(n.uuid, UUID_LENGTH);
}
export function readNet(r: XdrReader): NetRef {
  return { name: r.string(REMOTE_STRING_MAX), uuid: r.fixedOpaque(UUID_LENGTH) };
}

/** A domain snapshot (`remote_nonnull_domain_snapshot`): its name and its domain. */
export interface SnapRef {
  readonly name: string;
  readonly dom: DomRef;
}

export function writeSnap(w: XdrWriter, s: SnapRef): void {
  w.string(s.name);
  writeDom(w, s.dom);
}
export function readSnap(r: XdrReader): SnapRef {
  return { name: r.string(REMOTE_STRING_MAX), dom: readDom(r) };
}

/** A domain checkpoint (`remote_nonnull_domain_checkpoint`): its name and its domain. */
export interface CheckpointRef {
  readonly name: string;
  readonly dom: DomRef;
}

export function writeCheckpoint(w: XdrWriter, c: CheckpointRef): void {
  w.string(c.name);
  writeDom(w, c.dom);
}
export function readCheckpoint(r: XdrReader): CheckpointRef {
  return { name: r.string(REMOTE_STRING_MAX), dom: readDom(r) };
}

/** `virTypedParameterType` values (the discriminant of `remote_typed_param_value`). */
export const VIR_TYPED_PARAM_INT = 1;
export const VIR_TYPED_PARAM_UINT = 2;
export const VIR_TYPED_PARAM_LLONG = 3;
export const VIR_TYPED_PARAM_ULLONG = 4;
export const VIR_TYPED_PARAM_DOUBLE = 5;
export const VIR_TYPED_PARAM_BOOLEAN = 6;
export const VIR_TYPED_PARAM_STRING = 7;

/**
 * A typed parameter (`remote_typed_param`: field name and a `remote_typed_param_value` union), as the migration
 * APIs take them. A field may repeat (e.g. `migrate_disks` once per disk).
 */
export type TypedParam =
  | { readonly field: string; readonly type: 'string'; readonly value: string }
  | { readonly field: string; readonly type: 'int' | 'uint'; readonly value: number }
  | { readonly field: string; readonly type: 'ullong'; readonly value: bigint | number }
  | { readonly field: string; readonly type: 'boolean'; readonly value: boolean };

export function writeTypedParam(w: XdrWriter, p: TypedParam): void {
  w.string(p.field);
  switch (p.type) {
    case 'string':
      w.union(VIR_TYPED_PARAM_STRING, (x) => x.string(p.value));
      break;
    case 'int':
      w.union(VIR_TYPED_PARAM_INT, (x) => x.int(p.value));
      break;
    case 'uint':
      w.union(VIR_TYPED_PARAM_UINT, (x) => x.uint(p.value));
      break;
    case 'ullong':
      w.union(VIR_TYPED_PARAM_ULLONG, (x) => x.uhyper(p.value));
      break;
    case 'boolean':
      w.union(VIR_TYPED_PARAM_BOOLEAN, (x) => x.int(p.value ? 1 : 0));
      break;
  }
}

/** A typed parameter as the daemon returns it (e.g. a job's statistics): numbers as JS numbers (64-bit ones may
 *  lose precision above 2^53), booleans as booleans. */
export interface ReadTypedParam {
  readonly field: string;
  readonly value: number | string | boolean;
}

/** Reads one `remote_typed_param`. @throws XdrError on an unknown type discriminant. */
export function readTypedParam(r: XdrReader): ReadTypedParam {
  const field = r.string(REMOTE_STRING_MAX);
  const type = r.int();
  switch (type) {
    case VIR_TYPED_PARAM_INT:
      return { field, value: r.int() };
    case VIR_TYPED_PARAM_UINT:
      return { field, value: r.uint() };
    case VIR_TYPED_PARAM_LLONG:
      return { field, value: Number(r.hyper()) };
    case VIR_TYPED_PARAM_ULLONG:
      return { field, value: Number(r.uhyper()) };
    case VIR_TYPED_PARAM_DOUBLE:
      return { field, value: r.fixedOpaque(8).readDoubleBE(0) };
    case VIR_TYPED_PARAM_BOOLEAN:
      return { field, value: r.int() !== 0 };
    case VIR_TYPED_PARAM_STRING:
      return { field, value: r.string(REMOTE_STRING_MAX) };
    default:
      throw new XdrError(`typed parameter ${field}: unknown type ${type}`);
  }
}

/** `remote_string`: an optional string. */
export function writeOptionalString(w: XdrWriter, s: string | null | undefined): void {
  w.optional(s, (x, v) => x.string(v));
}
