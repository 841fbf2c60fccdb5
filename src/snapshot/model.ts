/**
 * libvirt domain snapshots (https://libvirt.org/formatsnapshot.html): what virtseed asks for when it takes one, and
 * what libvirt says a snapshot is. Plain data.
 */

/** Where a disk's (or the memory's) state goes in a snapshot (formatsnapshot `snapshot` attribute). */
export type SnapshotLocation = 'internal' | 'external' | 'manual' | 'no';

/**
 * The domain's state when the snapshot was taken (formatsnapshot `<state>`): `running`/`paused` snapshots hold the
 * guest's memory (a revert resumes it), `shutoff` ones the disks of a shut-off guest, `disk-snapshot` the disks of
 * a running guest without its memory (external).
 */
export type SnapshotDomainState =
  'nostate' | 'running' | 'blocked' | 'paused' | 'shutdown' | 'shutoff' | 'crashed' | 'pmsuspended' | 'disk-snapshot';

/** A snapshot to take (`virDomainSnapshotCreateXML`'s `<domainsnapshot>`). libvirt fills in the rest. */
export interface SnapshotRequest {
  /** Unique per domain; see SNAPSHOT_NAME_PATTERN for the names virtseed accepts. */
  readonly name: string;
  readonly description?: string;
}

/** A disk of a snapshot: its target (`vda`) and where its state went. */
export interface SnapshotDisk {
  readonly name: string;
  readonly snapshot: SnapshotLocation;
}

/** A snapshot as libvirt describes it (`virDomainSnapshotGetXMLDesc`). */
export interface SnapshotInfo {
  readonly name: string;
  readonly description?: string;
  readonly state: SnapshotDomainState;
  /** The parent snapshot's name, when there is one. */
  readonly parent?: string;
  /** When it was taken, in seconds since the epoch. */
  readonly creationTime: number;
  /** Where the guest's memory went (`no` for a snapshot of a shut-off guest or of its disks only). */
  readonly memory: SnapshotLocation;
  readonly disks: readonly SnapshotDisk[];
  /** The domain definition saved with the snapshot (the `<domain>` element, verbatim), which a revert restores. */
  readonly domainXml?: string;
}

/**
 * The snapshot names virtseed accepts: 1–64 letters, digits, `.`, `_` or `-`, starting with a letter or digit.
 * libvirt itself allows more; these names are also safe in volume names (the seed copy of a snapshot, see
 * ./seed-copy) and on command lines.
 */
export const SNAPSHOT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** True for states whose snapshot holds the guest's memory (a revert resumes the guest instead of booting it). */
export function hasMemory(info: Pick<SnapshotInfo, 'memory'>): boolean {
  return info.memory === 'internal' || info.memory === 'external';
}
