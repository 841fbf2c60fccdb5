/**
 * The typed state of each resource: the plain-JS value of its schema's implied cty object type, as the protocol
 * layer decodes it from a DynamicValue (every attribute present; null when unset; `UNKNOWN` when Terraform does not
 * know it yet) and encodes it back. Derived from the resources' field tables (src/fields), as their schemas are.
 */
import type {
  BACKUP_POLICY_FIELDS,
  CLOUDINIT_SEED_FIELDS,
  DOMAIN_FIELDS,
  IGNITION_FIELDS,
  NETWORK_FIELDS,
  SNAPSHOT_FIELDS,
  PLACEMENT_FIELDS,
  POOL_FIELDS,
  VOLUME_FIELDS,
} from '../../../../src/fields';
import type { Unknown } from '../../plugin/cty';
import type { StateOf } from './fields';

/** An attribute value: known, null (unset) or unknown. */
export type Val<T> = T | null | Unknown;
/** A list block: its elements, or unknown as a whole (a `dynamic` block over an unknown collection). */
export type Blocks<T> = T[] | Unknown;

type Element<B> = B extends (infer E)[] ? E : never;
/** The known values of an attribute type (without null and unknown). */
export type Known<T> = Exclude<T, null | Unknown>;

export type VolumeState = StateOf<typeof VOLUME_FIELDS.fields>;
export type VolumeFormat = Known<VolumeState['format']>;
export type IgnitionState = StateOf<typeof IGNITION_FIELDS.fields>;
export type CloudinitSeedState = StateOf<typeof CLOUDINIT_SEED_FIELDS.fields>;
export type DomainState = StateOf<typeof DOMAIN_FIELDS.fields>;
export type DomainDiskState = Element<DomainState['disk']>;
export type DomainInterfaceState = Element<DomainState['network_interface']>;
export type NetworkState = StateOf<typeof NETWORK_FIELDS.fields>;
export type NetworkDhcpHostState = Element<NetworkState['dhcp_host']>;
export type NetworkDnsHostState = Element<NetworkState['dns_host']>;
export type SnapshotState = StateOf<typeof SNAPSHOT_FIELDS.fields>;
export type PlacementState = StateOf<typeof PLACEMENT_FIELDS.fields>;
export type BackupPolicyState = StateOf<typeof BACKUP_POLICY_FIELDS.fields>;
export type PoolState = StateOf<typeof POOL_FIELDS.fields>;
