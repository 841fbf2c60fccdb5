/**
 * The field table (src/fields) of each resource type the provider serves, for the plan summary's impacts and
 * computed attributes. test/cli/plan-summary/resource-fields.test.ts checks it against the provider's handlers
 * (same type names, each schema derived from the table named here).
 */
import {
  BACKUP_POLICY_FIELDS,
  CLOUDINIT_SEED_FIELDS,
  DOMAIN_FIELDS,
  IGNITION_FIELDS,
  NETWORK_FIELDS,
  PLACEMENT_FIELDS,
  POOL_FIELDS,
  SNAPSHOT_FIELDS,
  VOLUME_FIELDS,
  type ResourceFields,
} from '../../src/fields';

export const RESOURCE_FIELDS: Readonly<Record<string, ResourceFields>> = {
  virtseed_volume: VOLUME_FIELDS,
  virtseed_cloudinit_seed: CLOUDINIT_SEED_FIELDS,
  virtseed_ignition: IGNITION_FIELDS,
  virtseed_domain: DOMAIN_FIELDS,
  virtseed_network: NETWORK_FIELDS,
  virtseed_pool: POOL_FIELDS,
  virtseed_snapshot: SNAPSHOT_FIELDS,
  virtseed_placement: PLACEMENT_FIELDS,
  virtseed_backup_policy: BACKUP_POLICY_FIELDS,
};
