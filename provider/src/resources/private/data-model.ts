/**
 * The typed value of each data source (config in, state out), derived from its field table (src/fields) as the
 * resources' states are.
 */
import type {
  DOMAIN_DATA_FIELDS,
  HOST_DATA_FIELDS,
  NETWORK_DATA_FIELDS,
  POOL_DATA_FIELDS,
  VOLUME_DATA_FIELDS,
} from '../../../../src/fields';
import type { StateOf } from './fields';

export type HostData = StateOf<typeof HOST_DATA_FIELDS.fields>;
export type PoolData = StateOf<typeof POOL_DATA_FIELDS.fields>;
export type NetworkData = StateOf<typeof NETWORK_DATA_FIELDS.fields>;
export type VolumeData = StateOf<typeof VOLUME_DATA_FIELDS.fields>;
export type DomainData = StateOf<typeof DOMAIN_DATA_FIELDS.fields>;
