/**
 * The libvirt API subset virtseed needs, as one interface (docs/CONTRACTS.md "libvirt client"). Implemented by
 * RemoteLibvirtClient (libvirt's remote RPC protocol); tests and callers may substitute their own.
 *
 * Every method rejects with LibvirtError carrying libvirt's own error code (e.g. VIR_ERR_NO_DOMAIN = 42 when a
 * domain does not exist) and, if its optional last `options.signal` aborts, with the signal's reason.
 */
import type { CallOptions, StreamOptions, UploadOptions } from './rpc';
import type { CheckpointRef, DomRef, NetRef, PoolRef, ReadTypedParam, SnapRef, TypedParam, VolRef } from './protocol';

export type { CheckpointRef, DomRef, NetRef, PoolRef, ReadTypedParam, SnapRef, TypedParam, VolRef } from './protocol';
export type { CallOptions, StreamOptions, UploadOptions } from './rpc';

/** `virStoragePoolInfo`: state is virStoragePoolState (0 inactive, 1 building, 2 running, 3 degraded, 4 inaccessible); sizes in bytes. */
export interface StoragePoolInfo {
  state: number;
  capacity: number;
  allocation: number;
  available: number;
}

/** `virStorageVolInfo`: type is virStorageVolType (0 file, 1 block, 2 dir, 3 network, 4 netdir, 5 ploop); sizes in bytes. */
export interface StorageVolInfo {
  type: number;
  capacity: number;
  allocation: number;
}

/**
 * `virNodeInfo` (`remote_node_get_info_ret`): `model` is the CPU architecture string (e.g. `x86_64`, what `virsh
 * nodeinfo` prints as "CPU model"), `memoryKiB` the host's memory in KiB, `cpus` the active CPUs, `mhz` their
 * expected frequency, `nodes` the NUMA cells, `sockets` per cell, `cores` per socket, `threads` per core.
 */
export interface NodeInfo {
  model: string;
  memoryKiB: number;
  cpus: number;
  mhz: number;
  nodes: number;
  sockets: number;
  cores: number;
  threads: number;
}

/** `virDomainInfo` (`remote_domain_get_info_ret`): state is virDomainState; memory in KiB; CPU time in ns. */
export interface DomainInfo {
  state: number;
  maxMemoryKiB: number;
  memoryKiB: number;
  vcpus: number;
  cpuTimeNs: bigint;
}

/** virDomainState (1 running, 3 paused, 4 shutdown, 5 shutoff …) and its reason (per-state enum). */
export interface DomainStateInfo {
  state: number;
  reason: number;
}

/** virStorageVolUploadFlags: the stream may carry holes (zero runs the daemon skips instead of writing). */
export const VIR_STORAGE_VOL_UPLOAD_SPARSE_STREAM = 1;

/** virDomainState values. */
export const VIR_DOMAIN_NOSTATE = 0;
export const VIR_DOMAIN_RUNNING = 1;
export const VIR_DOMAIN_BLOCKED = 2;
export const VIR_DOMAIN_PAUSED = 3;
export const VIR_DOMAIN_SHUTDOWN = 4;
export const VIR_DOMAIN_SHUTOFF = 5;
export const VIR_DOMAIN_CRASHED = 6;
export const VIR_DOMAIN_PMSUSPENDED = 7;

/** virStoragePoolState values. */
export const VIR_STORAGE_POOL_INACTIVE = 0;
export const VIR_STORAGE_POOL_BUILDING = 1;
export const VIR_STORAGE_POOL_RUNNING = 2;
export const VIR_STORAGE_POOL_DEGRADED = 3;
export const VIR_STORAGE_POOL_INACCESSIBLE = 4;

/** virStoragePoolBuildFlags: refuse to build over existing data (e.g. a device that holds a file system). */
export const VIR_STORAGE_POOL_BUILD_NO_OVERWRITE = 4;

/** virStoragePoolDeleteFlags: remove what the pool's build made (flags 0: the directory, volume group, …). */
export const VIR_STORAGE_POOL_DELETE_NORMAL = 0;

/** virStorageXMLFlags: the persistent (inactive) definition. */
export const VIR_STORAGE_XML_INACTIVE = 1;

/** virDomainUndefineFlagsValues. */
export const VIR_DOMAIN_UNDEFINE_MANAGED_SAVE = 1;
export const VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA = 2;
export const VIR_DOMAIN_UNDEFINE_NVRAM = 4;
export const VIR_DOMAIN_UNDEFINE_KEEP_NVRAM = 8;
export const VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA = 16;
export const VIR_DOMAIN_UNDEFINE_TPM = 32;

/** virDomainXMLFlags. */
export const VIR_DOMAIN_XML_SECURE = 1;
export const VIR_DOMAIN_XML_INACTIVE = 2;

/** virDomainDefineFlags: validate the XML against libvirt's own RELAX NG schema before defining. */
export const VIR_DOMAIN_DEFINE_VALIDATE = 1;

/** virDomainMetadataType: `<description>`, `<title>`, or one namespaced element under `<metadata>`. */
export const VIR_DOMAIN_METADATA_DESCRIPTION = 0;
export const VIR_DOMAIN_METADATA_TITLE = 1;
export const VIR_DOMAIN_METADATA_ELEMENT = 2;

/** virDomainLifecycle: which event `<on_poweroff>`, `<on_reboot>`, `<on_crash>` names. */
export const VIR_DOMAIN_LIFECYCLE_POWEROFF = 0;
export const VIR_DOMAIN_LIFECYCLE_REBOOT = 1;
export const VIR_DOMAIN_LIFECYCLE_CRASH = 2;

/** virDomainLifecycleAction: what the hypervisor does on that event (formatdomain "Events configuration"). */
export const VIR_DOMAIN_LIFECYCLE_ACTION = {
  destroy: 0,
  restart: 1,
  'rename-restart': 2,
  preserve: 3,
  'coredump-destroy': 4,
  'coredump-restart': 5,
} as const;

/** virDomainCreateFlags (subset): start with the CPUs paused (resume with domainResume). */
export const VIR_DOMAIN_START_PAUSED = 1;

/** virDomainModificationImpact (also virDomainMemoryModFlags, virDomainVcpuFlags, virDomainDeviceModifyFlags):
 *  LIVE changes the running domain, CONFIG its persistent definition; both together change both or neither. */
export const VIR_DOMAIN_AFFECT_CURRENT = 0;
export const VIR_DOMAIN_AFFECT_LIVE = 1;
export const VIR_DOMAIN_AFFECT_CONFIG = 2;

/** virDomainShutdownFlagValues (subset): how the guest is asked to shut down. */
export const VIR_DOMAIN_SHUTDOWN_ACPI_POWER_BTN = 1;
export const VIR_DOMAIN_SHUTDOWN_GUEST_AGENT = 2;

/** virDomainBlockResizeFlags: the size is in bytes (else KiB). */
export const VIR_DOMAIN_BLOCK_RESIZE_BYTES = 1;

/** virDomainConsoleFlags: FORCE takes the console from another client's session; SAFE needs a safe device. */
export const VIR_DOMAIN_CONSOLE_FORCE = 1;
export const VIR_DOMAIN_CONSOLE_SAFE = 2;

/** virConnectListAllDomainsFlags (subset). */
export const VIR_CONNECT_LIST_DOMAINS_ACTIVE = 1;
export const VIR_CONNECT_LIST_DOMAINS_INACTIVE = 2;
export const VIR_CONNECT_LIST_DOMAINS_AUTOSTART = 1024;

/** virNetworkUpdateCommand. */
export const VIR_NETWORK_UPDATE_COMMAND_MODIFY = 1;
export const VIR_NETWORK_UPDATE_COMMAND_DELETE = 2;
export const VIR_NETWORK_UPDATE_COMMAND_ADD_LAST = 3;
export const VIR_NETWORK_UPDATE_COMMAND_ADD_FIRST = 4;

/** virNetworkUpdateSection (subset). */
export const VIR_NETWORK_SECTION_IP_DHCP_HOST = 4;
export const VIR_NETWORK_SECTION_DNS_HOST = 10;

/** virNetworkUpdateFlags: the running network (LIVE) and/or its persistent definition (CONFIG). */
export const VIR_NETWORK_UPDATE_AFFECT_LIVE = 1;
export const VIR_NETWORK_UPDATE_AFFECT_CONFIG = 2;

/** virNetworkXMLFlags. */
export const VIR_NETWORK_XML_INACTIVE = 1;

/** virDomainInterfaceAddressesSource. */
export const VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_LEASE = 0;
export const VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_AGENT = 1;
export const VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_ARP = 2;

/** virIPAddrType. */
export const VIR_IP_ADDR_TYPE_IPV4 = 0;
export const VIR_IP_ADDR_TYPE_IPV6 = 1;

/** virDomainCheckpointCreateFlags (formatcheckpoint). */
export const VIR_DOMAIN_CHECKPOINT_CREATE_REDEFINE = 1;
export const VIR_DOMAIN_CHECKPOINT_CREATE_QUIESCE = 2;
/** virDomainCheckpointDeleteFlags: CHILDREN deletes the checkpoint's descendants too. */
export const VIR_DOMAIN_CHECKPOINT_DELETE_CHILDREN = 1;
export const VIR_DOMAIN_CHECKPOINT_DELETE_METADATA_ONLY = 2;

/** virDomainGetJobStatsFlags: the statistics of the domain's last completed (or failed) job instead of the running one. */
export const VIR_DOMAIN_JOB_STATS_COMPLETED = 1;
/** virDomainJobType: what virDomainGetJobStats says of the job. */
export const VIR_DOMAIN_JOB_NONE = 0;
export const VIR_DOMAIN_JOB_BOUNDED = 1;
export const VIR_DOMAIN_JOB_UNBOUNDED = 2;
export const VIR_DOMAIN_JOB_COMPLETED = 3;
export const VIR_DOMAIN_JOB_FAILED = 4;
export const VIR_DOMAIN_JOB_CANCELLED = 5;

/** A domain job's statistics (virDomainGetJobStats): its virDomainJobType and its typed parameters
 *  (VIR_DOMAIN_JOB_* fields, e.g. `operation`, `data_total`, `errmsg`). */
export interface DomainJobStats {
  type: number;
  params: ReadTypedParam[];
}

/** virDomainSnapshotCreateFlags (formatsnapshot; `virDomainSnapshotCreateXML`). */
export const VIR_DOMAIN_SNAPSHOT_CREATE_REDEFINE = 1;
export const VIR_DOMAIN_SNAPSHOT_CREATE_CURRENT = 2;
export const VIR_DOMAIN_SNAPSHOT_CREATE_NO_METADATA = 4;
export const VIR_DOMAIN_SNAPSHOT_CREATE_HALT = 8;
export const VIR_DOMAIN_SNAPSHOT_CREATE_DISK_ONLY = 16;
export const VIR_DOMAIN_SNAPSHOT_CREATE_REUSE_EXT = 32;
export const VIR_DOMAIN_SNAPSHOT_CREATE_QUIESCE = 64;
export const VIR_DOMAIN_SNAPSHOT_CREATE_ATOMIC = 128;
export const VIR_DOMAIN_SNAPSHOT_CREATE_LIVE = 256;
export const VIR_DOMAIN_SNAPSHOT_CREATE_VALIDATE = 512;

/** virDomainSnapshotXMLFlags. */
export const VIR_DOMAIN_SNAPSHOT_XML_SECURE = 1;

/** virDomainSnapshotRevertFlags: the state after the revert (default: the snapshot's), and FORCE for risky reverts. */
export const VIR_DOMAIN_SNAPSHOT_REVERT_RUNNING = 1;
export const VIR_DOMAIN_SNAPSHOT_REVERT_PAUSED = 2;
export const VIR_DOMAIN_SNAPSHOT_REVERT_FORCE = 4;
export const VIR_DOMAIN_SNAPSHOT_REVERT_RESET_NVRAM = 8;

/** virDomainSnapshotDeleteFlags. */
export const VIR_DOMAIN_SNAPSHOT_DELETE_CHILDREN = 1;
export const VIR_DOMAIN_SNAPSHOT_DELETE_METADATA_ONLY = 2;
export const VIR_DOMAIN_SNAPSHOT_DELETE_CHILDREN_ONLY = 4;

/** virDomainSnapshotListFlags (subset). */
export const VIR_DOMAIN_SNAPSHOT_LIST_ROOTS = 1;
export const VIR_DOMAIN_SNAPSHOT_LIST_LEAVES = 4;
export const VIR_DOMAIN_SNAPSHOT_LIST_INTERNAL = 256;
export const VIR_DOMAIN_SNAPSHOT_LIST_EXTERNAL = 512;
export const VIR_DOMAIN_SNAPSHOT_LIST_TOPOLOGICAL = 1024;

/** virDomainMigrateFlags (subset). */
export const VIR_MIGRATE_LIVE = 1;
export const VIR_MIGRATE_PEER2PEER = 2;
export const VIR_MIGRATE_PERSIST_DEST = 8;
export const VIR_MIGRATE_UNDEFINE_SOURCE = 16;
/** Copy every non-shared writable disk in full (drive-mirror, sync full). */
export const VIR_MIGRATE_NON_SHARED_DISK = 64;
/** Copy only the top image of each non-shared writable disk: the destination has the same backing chain. */
export const VIR_MIGRATE_NON_SHARED_INC = 128;
export const VIR_MIGRATE_ABORT_ON_ERROR = 4096;

/** Migration parameter names (libvirt-domain.h `VIR_MIGRATE_PARAM_*`). */
export const VIR_MIGRATE_PARAM_DEST_XML = 'destination_xml';
export const VIR_MIGRATE_PARAM_PERSIST_XML = 'persistent_xml';
export const VIR_MIGRATE_PARAM_MIGRATE_DISKS = 'migrate_disks';

/** `virNetworkDHCPLease` (`remote_network_dhcp_lease`): expiry in seconds since the epoch, type virIPAddrType. */
export interface NetworkDhcpLease {
  iface: string;
  expiryTime: number;
  type: number;
  mac: string | null;
  iaid: string | null;
  ipAddress: string;
  prefix: number;
  hostname: string | null;
  clientId: string | null;
}

/** `virDomainInterface` (`remote_domain_interface`): a guest NIC and its addresses (type virIPAddrType). */
export interface DomainInterfaceAddresses {
  name: string;
  hwaddr: string | null;
  addresses: { type: number; address: string; prefix: number }[];
}

export interface LibvirtClient {
  /** Sends CONNECT_CLOSE and closes the transport. Idempotent; later calls reject. */
  close(): Promise<void>;

  // migration between hosts
  /**
   * virDomainMigrateToURI3 in peer-to-peer mode (flags must include VIR_MIGRATE_PEER2PEER): the source daemon (this
   * connection) connects to `dconnuri` itself and runs the whole migration; resolves once it finished, rejects
   * with the daemon's error (the domain then still runs on the source). `params`: VIR_MIGRATE_PARAM_* typed
   * parameters (e.g. the destination XML).
   */
  domainMigratePerform3Params(
    dom: DomRef,
    dconnuri: string,
    params: readonly TypedParam[],
    flags: number,
    options?: CallOptions,
  ): Promise<void>;
  /** virDomainAbortJob: aborts the domain's running job (e.g. an outgoing migration). */
  domainAbortJob(dom: DomRef, options?: CallOptions): Promise<void>;

  /** libvirt version of the daemon as major*1_000_000 + minor*1000 + release (e.g. 9000000 for 9.0.0). */
  connectGetLibVersion(options?: CallOptions): Promise<number>;
  connectGetUri(options?: CallOptions): Promise<string>;
  connectGetHostname(options?: CallOptions): Promise<string>;
  /** All domains matching virConnectListAllDomainsFlags `flags` (0 = all). */
  connectListAllDomains(flags?: number, options?: CallOptions): Promise<DomRef[]>;
  connectListAllStoragePools(flags?: number, options?: CallOptions): Promise<PoolRef[]>;
  /** The hypervisor's version (QEMU for qemu://), as major*1_000_000 + minor*1000 + release. */
  connectGetVersion(options?: CallOptions): Promise<number>;
  /** The host capabilities XML (formatcaps: `<capabilities><host><cpu>…`), as `virsh capabilities` prints it. */
  connectGetCapabilities(options?: CallOptions): Promise<string>;
  /**
   * The domain capabilities XML (formatdomaincaps) for an emulator/arch/machine/virttype (null = the host's
   * defaults), as `virsh domcapabilities` prints it: firmware, loaders, secure boot, CPU modes, devices.
   */
  connectGetDomainCapabilities(
    query: { emulator?: string | null; arch?: string | null; machine?: string | null; virttype?: string | null },
    flags?: number,
    options?: CallOptions,
  ): Promise<string>;
  /** `virNodeGetInfo`: CPUs, memory and topology of the host (`virsh nodeinfo`). */
  nodeGetInfo(options?: CallOptions): Promise<NodeInfo>;
  /** `virNodeGetFreeMemory`: free memory of the host in bytes. */
  nodeGetFreeMemory(options?: CallOptions): Promise<number>;

  // storage pools
  storagePoolLookupByName(name: string, options?: CallOptions): Promise<PoolRef>;
  storagePoolLookupByUuid(uuid: Buffer, options?: CallOptions): Promise<PoolRef>;
  storagePoolDefineXml(xml: string, flags?: number, options?: CallOptions): Promise<PoolRef>;
  /** Starts (activates) a defined pool. */
  storagePoolCreate(pool: PoolRef, flags?: number, options?: CallOptions): Promise<void>;
  storagePoolBuild(pool: PoolRef, flags?: number, options?: CallOptions): Promise<void>;
  /** Stops (deactivates) a pool; its volumes stay on disk. */
  storagePoolDestroy(pool: PoolRef, options?: CallOptions): Promise<void>;
  storagePoolUndefine(pool: PoolRef, options?: CallOptions): Promise<void>;
  storagePoolGetInfo(pool: PoolRef, options?: CallOptions): Promise<StoragePoolInfo>;
  storagePoolGetXmlDesc(pool: PoolRef, flags?: number, options?: CallOptions): Promise<string>;
  storagePoolRefresh(pool: PoolRef, flags?: number, options?: CallOptions): Promise<void>;
  storagePoolGetAutostart(pool: PoolRef, options?: CallOptions): Promise<boolean>;
  storagePoolSetAutostart(pool: PoolRef, autostart: boolean, options?: CallOptions): Promise<void>;
  storagePoolIsActive(pool: PoolRef, options?: CallOptions): Promise<boolean>;
  storagePoolListAllVolumes(pool: PoolRef, flags?: number, options?: CallOptions): Promise<VolRef[]>;
  /** Removes what building the pool made (its directory, volume group, …; virStoragePoolDeleteFlags). The pool
   *  must be inactive; a directory that is not empty is not removed (libvirt fails). */
  storagePoolDelete(pool: PoolRef, flags?: number, options?: CallOptions): Promise<void>;
  storagePoolIsPersistent(pool: PoolRef, options?: CallOptions): Promise<boolean>;

  // volumes
  storageVolCreateXml(pool: PoolRef, xml: string, flags?: number, options?: CallOptions): Promise<VolRef>;
  /** Creates a volume as a copy of `clone` (which may live in another pool). */
  storageVolCreateXmlFrom(pool: PoolRef, xml: string, clone: VolRef, flags?: number, options?: CallOptions): Promise<VolRef>;
  storageVolLookupByName(pool: PoolRef, name: string, options?: CallOptions): Promise<VolRef>;
  storageVolLookupByKey(key: string, options?: CallOptions): Promise<VolRef>;
  storageVolLookupByPath(path: string, options?: CallOptions): Promise<VolRef>;
  storageVolGetPath(vol: VolRef, options?: CallOptions): Promise<string>;
  storageVolGetXmlDesc(vol: VolRef, flags?: number, options?: CallOptions): Promise<string>;
  storageVolGetInfo(vol: VolRef, options?: CallOptions): Promise<StorageVolInfo>;
  storageVolDelete(vol: VolRef, flags?: number, options?: CallOptions): Promise<void>;
  /** New capacity in bytes (virStorageVolResizeFlags in `flags`). */
  storageVolResize(vol: VolRef, capacity: bigint | number, flags?: number, options?: CallOptions): Promise<void>;
  /**
   * Writes `data` into the volume from byte `offset` (default 0); `length` bytes at most (default: all of a
   * Uint8Array, 0 = unlimited for iterables). Streams packets with backpressure; an iterable source is never
   * buffered whole. `options.sparse` uploads with VIR_STORAGE_VOL_UPLOAD_SPARSE_STREAM and sends zero 4 KiB
   * blocks as holes (a sparse-created file volume stays unallocated there); `options.onProgress` gets the bytes
   * sent so far after each packet.
   */
  storageVolUpload(
    vol: VolRef,
    data: Uint8Array | AsyncIterable<Uint8Array>,
    offset?: number,
    length?: number,
    options?: UploadOptions,
  ): Promise<void>;
  /** Reads `length` bytes (0/absent = to the end) from byte `offset` into memory. */
  storageVolDownload(vol: VolRef, offset?: number, length?: number, options?: CallOptions): Promise<Uint8Array>;
  /** Like storageVolDownload, yielding chunks as they arrive (for large volumes). */
  storageVolDownloadStream(vol: VolRef, offset?: number, length?: number, options?: CallOptions): AsyncIterable<Uint8Array>;

  // domains
  /** Defines (or redefines) a persistent domain; virDomainDefineFlags in `flags` (1 = validate against schema). */
  domainDefineXml(xml: string, flags?: number, options?: CallOptions): Promise<DomRef>;
  domainLookupByName(name: string, options?: CallOptions): Promise<DomRef>;
  /** `uuid`: the 16 raw bytes (see uuidToBytes). */
  domainLookupByUuid(uuid: Buffer, options?: CallOptions): Promise<DomRef>;
  domainGetXmlDesc(dom: DomRef, flags?: number, options?: CallOptions): Promise<string>;
  /** Starts a defined domain. */
  domainCreate(dom: DomRef, options?: CallOptions): Promise<void>;
  /** Starts a defined domain with virDomainCreateFlags `flags` (VIR_DOMAIN_START_PAUSED: CPUs stopped until domainResume). */
  domainCreateWithFlags(dom: DomRef, flags: number, options?: CallOptions): Promise<void>;
  /** Resumes a paused domain's CPUs. */
  domainResume(dom: DomRef, options?: CallOptions): Promise<void>;
  /**
   * Reads the domain's console (`devName` null: the first console/serial) as a libvirt stream: yields the bytes
   * the guest writes, from the moment the stream is open, until the guest's pty closes (domain stops) or the
   * loop is left (which aborts the stream on the daemon). The domain must be running (or paused). Does not
   * disturb a `<log file>` on the same chardev. Rejects with LibvirtError (e.g. VIR_ERR_OPERATION_FAILED when
   * another console session is open and `flags` lacks VIR_DOMAIN_CONSOLE_FORCE).
   */
  domainOpenConsole(dom: DomRef, devName: string | null, flags?: number, options?: StreamOptions): AsyncIterable<Uint8Array>;
  /** Asks the guest to shut down (ACPI); returns before it has. */
  domainShutdown(dom: DomRef, options?: CallOptions): Promise<void>;
  /** Stops the domain at once (power off). */
  domainDestroy(dom: DomRef, options?: CallOptions): Promise<void>;
  domainReboot(dom: DomRef, flags?: number, options?: CallOptions): Promise<void>;
  /** Removes the persistent definition (VIR_DOMAIN_UNDEFINE_* `flags`). */
  domainUndefine(dom: DomRef, flags?: number, options?: CallOptions): Promise<void>;
  domainGetState(dom: DomRef, options?: CallOptions): Promise<DomainStateInfo>;
  domainIsActive(dom: DomRef, options?: CallOptions): Promise<boolean>;
  domainSetAutostart(dom: DomRef, autostart: boolean, options?: CallOptions): Promise<void>;
  domainGetAutostart(dom: DomRef, options?: CallOptions): Promise<boolean>;
  domainIsPersistent(dom: DomRef, options?: CallOptions): Promise<boolean>;
  /** `virDomainGetInfo`: state, maximum and current memory (KiB), vCPUs, CPU time (`virsh dominfo`). */
  domainGetInfo(dom: DomRef, options?: CallOptions): Promise<DomainInfo>;
  /** Asks the guest to shut down the way virDomainShutdownFlagValues `flags` says (0: the hypervisor's choice,
   *  VIR_DOMAIN_SHUTDOWN_ACPI_POWER_BTN, VIR_DOMAIN_SHUTDOWN_GUEST_AGENT); returns before it has. */
  domainShutdownFlags(dom: DomRef, flags: number, options?: CallOptions): Promise<void>;
  /** Sets the memory the guest has, in KiB (the balloon's target, at most `<memory>`), per VIR_DOMAIN_AFFECT_* `flags`. */
  domainSetMemoryFlags(dom: DomRef, kib: number, flags: number, options?: CallOptions): Promise<void>;
  /** Sets the vCPUs the guest runs with (hot-plug, at most `<vcpu>`), per VIR_DOMAIN_AFFECT_* `flags`. */
  domainSetVcpusFlags(dom: DomRef, nvcpus: number, flags: number, options?: CallOptions): Promise<void>;
  /** Adds a device (`<disk>`, `<interface>` XML) per VIR_DOMAIN_AFFECT_* `flags`. */
  domainAttachDeviceFlags(dom: DomRef, xml: string, flags: number, options?: CallOptions): Promise<void>;
  /** Removes a device (matched by its target or MAC) per VIR_DOMAIN_AFFECT_* `flags`; a live removal needs the
   *  guest's cooperation and may finish after the call returns. */
  domainDetachDeviceFlags(dom: DomRef, xml: string, flags: number, options?: CallOptions): Promise<void>;
  /** Changes a device in place (e.g. an `<interface>`'s `<link state>`) per VIR_DOMAIN_AFFECT_* `flags`. */
  domainUpdateDeviceFlags(dom: DomRef, xml: string, flags: number, options?: CallOptions): Promise<void>;
  /**
   * Sets `<title>` (type VIR_DOMAIN_METADATA_TITLE), `<description>` (DESCRIPTION) or the `<metadata>` element of
   * namespace `uri` (ELEMENT: `metadata` is its XML, `key` the prefix libvirt writes it with) per
   * VIR_DOMAIN_AFFECT_* `flags`; `metadata` null removes it. virDomainSetMetadata.
   */
  domainSetMetadata(
    dom: DomRef,
    type: number,
    metadata: string | null,
    key: string | null,
    uri: string | null,
    flags: number,
    options?: CallOptions,
  ): Promise<void>;
  /** Sets what the hypervisor does on an event (VIR_DOMAIN_LIFECYCLE_*: poweroff, reboot, crash) to a
   *  VIR_DOMAIN_LIFECYCLE_ACTION value, per VIR_DOMAIN_AFFECT_* `flags`. virDomainSetLifecycleAction. */
  domainSetLifecycleAction(dom: DomRef, type: number, action: number, flags: number, options?: CallOptions): Promise<void>;
  /** Grows the disk `disk` (target, e.g. `vdb`, or source path) of a running domain to `size` (bytes with
   *  VIR_DOMAIN_BLOCK_RESIZE_BYTES in `flags`, else KiB): QEMU resizes the image and the guest sees it at once. */
  domainBlockResize(dom: DomRef, disk: string, size: number, flags: number, options?: CallOptions): Promise<void>;
  /**
   * The guest's interfaces and addresses from `source` (VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_*): the DHCP leases of
   * the libvirt networks its NICs are on, or the QEMU guest agent (fails with VIR_ERR_AGENT_UNRESPONSIVE = 86
   * when no agent answers; libvirt bounds the wait). The domain must be running (else VIR_ERR_OPERATION_INVALID).
   */
  domainInterfaceAddresses(dom: DomRef, source: number, options?: CallOptions): Promise<DomainInterfaceAddresses[]>;

  // domain snapshots (formatsnapshot)
  /**
   * Takes a snapshot described by `<domainsnapshot>` XML (VIR_DOMAIN_SNAPSHOT_CREATE_* `flags`; with REDEFINE it
   * rewrites an existing snapshot's metadata, e.g. its description). Rejects with VIR_ERR_CONFIG_UNSUPPORTED /
   * VIR_ERR_OPERATION_UNSUPPORTED when the domain's disks or firmware do not allow that kind of snapshot.
   */
  domainSnapshotCreateXml(dom: DomRef, xml: string, flags?: number, options?: CallOptions): Promise<SnapRef>;
  /** Fails with VIR_ERR_NO_DOMAIN_SNAPSHOT (72) when the domain has no snapshot of that name. */
  domainSnapshotLookupByName(dom: DomRef, name: string, options?: CallOptions): Promise<SnapRef>;
  /** The snapshot's `<domainsnapshot>` XML (VIR_DOMAIN_SNAPSHOT_XML_SECURE in `flags` for what REDEFINE needs). */
  domainSnapshotGetXmlDesc(snap: SnapRef, flags?: number, options?: CallOptions): Promise<string>;
  /** The domain's snapshots matching virDomainSnapshotListFlags `flags` (0 = all). */
  domainListAllSnapshots(dom: DomRef, flags?: number, options?: CallOptions): Promise<SnapRef[]>;
  /** The current snapshot; VIR_ERR_NO_DOMAIN_SNAPSHOT when there is none. */
  domainSnapshotCurrent(dom: DomRef, options?: CallOptions): Promise<SnapRef>;
  /** Reverts the domain to the snapshot (VIR_DOMAIN_SNAPSHOT_REVERT_* `flags`): its disks, definition and, with memory, its running state. */
  domainRevertToSnapshot(snap: SnapRef, flags?: number, options?: CallOptions): Promise<void>;
  /** Deletes the snapshot and its data (VIR_DOMAIN_SNAPSHOT_DELETE_* `flags`). */
  domainSnapshotDelete(snap: SnapRef, flags?: number, options?: CallOptions): Promise<void>;

  // backups (formatbackup), checkpoints (formatcheckpoint), file system freeze
  /**
   * Starts a backup job described by `<domainbackup>` XML (push mode: QEMU writes each disk's copy to the named
   * file; `<incremental>` copies only what changed since that checkpoint) and, with `checkpointXml`, creates that
   * checkpoint at the same instant. Returns when the job started; it runs on (see domainGetJobStats). The domain
   * must be running (VIR_ERR_OPERATION_INVALID). virDomainBackupBegin.
   */
  domainBackupBegin(dom: DomRef, backupXml: string, checkpointXml: string | null, flags?: number, options?: CallOptions): Promise<void>;
  /** The running backup job's `<domainbackup>` XML; VIR_ERR_NO_DOMAIN_BACKUP when none runs. */
  domainBackupGetXmlDesc(dom: DomRef, flags?: number, options?: CallOptions): Promise<string>;
  /** The statistics of the domain's current job, or (VIR_DOMAIN_JOB_STATS_COMPLETED) its last completed one. */
  domainGetJobStats(dom: DomRef, flags?: number, options?: CallOptions): Promise<DomainJobStats>;
  /** Creates a checkpoint (`<domaincheckpoint>` XML) of a running domain's qcow2 disks (dirty bitmaps). */
  domainCheckpointCreateXml(dom: DomRef, xml: string, flags?: number, options?: CallOptions): Promise<CheckpointRef>;
  /** Fails with VIR_ERR_NO_DOMAIN_CHECKPOINT when the domain has no checkpoint of that name. */
  domainCheckpointLookupByName(dom: DomRef, name: string, options?: CallOptions): Promise<CheckpointRef>;
  domainCheckpointGetXmlDesc(checkpoint: CheckpointRef, flags?: number, options?: CallOptions): Promise<string>;
  /** The domain's checkpoints (virDomainCheckpointListFlags `flags`, 0 = all). */
  domainListAllCheckpoints(dom: DomRef, flags?: number, options?: CallOptions): Promise<CheckpointRef[]>;
  /** Deletes the checkpoint (its bitmaps merge into its parent's); VIR_DOMAIN_CHECKPOINT_DELETE_* `flags`. */
  domainCheckpointDelete(checkpoint: CheckpointRef, flags?: number, options?: CallOptions): Promise<void>;
  /** Freezes the guest's file systems through the QEMU guest agent (all of them when `mountpoints` is empty);
   *  returns how many were frozen. Fails with VIR_ERR_AGENT_UNRESPONSIVE when no agent answers. */
  domainFsFreeze(dom: DomRef, mountpoints: readonly string[], flags?: number, options?: CallOptions): Promise<number>;
  /** Thaws what domainFsFreeze froze; returns how many were thawed. */
  domainFsThaw(dom: DomRef, mountpoints: readonly string[], flags?: number, options?: CallOptions): Promise<number>;

  // networks (formatnetwork)
  /** All networks matching virConnectListAllNetworksFlags `flags` (0 = all). */
  connectListAllNetworks(flags?: number, options?: CallOptions): Promise<NetRef[]>;
  /** Defines (or redefines, same name and UUID) a persistent network. */
  networkDefineXml(xml: string, options?: CallOptions): Promise<NetRef>;
  /** Starts a defined network. */
  networkCreate(net: NetRef, options?: CallOptions): Promise<void>;
  /** Stops a network (its definition stays). */
  networkDestroy(net: NetRef, options?: CallOptions): Promise<void>;
  networkUndefine(net: NetRef, options?: CallOptions): Promise<void>;
  /** Fails with VIR_ERR_NO_NETWORK (43) when there is none. */
  networkLookupByName(name: string, options?: CallOptions): Promise<NetRef>;
  networkLookupByUuid(uuid: Buffer, options?: CallOptions): Promise<NetRef>;
  /** `flags`: VIR_NETWORK_XML_INACTIVE for the persistent definition. */
  networkGetXmlDesc(net: NetRef, flags?: number, options?: CallOptions): Promise<string>;
  networkGetAutostart(net: NetRef, options?: CallOptions): Promise<boolean>;
  networkSetAutostart(net: NetRef, autostart: boolean, options?: CallOptions): Promise<void>;
  networkIsActive(net: NetRef, options?: CallOptions): Promise<boolean>;
  networkIsPersistent(net: NetRef, options?: CallOptions): Promise<boolean>;
  /**
   * virNetworkUpdate: one `command` (VIR_NETWORK_UPDATE_COMMAND_*) on one `section` (VIR_NETWORK_SECTION_*) with
   * an XML fragment (e.g. `<host mac=... ip=.../>`); `parentIndex` picks the `<ip>` element (-1 = the first that
   * fits); `flags` VIR_NETWORK_UPDATE_AFFECT_*.
   */
  networkUpdate(
    net: NetRef,
    command: number,
    section: number,
    parentIndex: number,
    xml: string,
    flags?: number,
    options?: CallOptions,
  ): Promise<void>;
  /** The network's DHCP leases, only those of `mac` when given. */
  networkGetDhcpLeases(net: NetRef, mac?: string | null, options?: CallOptions): Promise<NetworkDhcpLease[]>;
}
