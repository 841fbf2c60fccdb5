import { Fn, Token } from 'cdktf';
import { CLOUDINIT_SEED_FIELDS, convertFields } from '../../../src/fields';
import type { SeedSpec } from '../../../src/seed';
import type * as virtseed from '../../generated/virtseed';
import { stableJson } from '../../../src/json';
import { containsTokens } from './tokens';

/** The `virtseed_cloudinit_seed` attributes for a spec (all but `pool` and `name`). */
export type SeedContentConfig = Omit<virtseed.cloudinitSeed.CloudinitSeedConfig, 'pool' | 'name'>;

/** A JSON attribute: sorted plain JSON, or `jsonencode(...)` evaluated by Terraform when the value holds tokens. */
function jsonAttribute(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return containsTokens(value) ? Token.asString(Fn.jsonencode(value)) : stableJson(value);
}

/** Maps a `SeedSpec` (src/seed) to the resource's attributes through the seed's field table
 *  (src/fields/cloudinit-seed.ts): JSON attributes rendered as JSON, vendor-data given as a map as cloud-config. */
export function seedResourceConfig(spec: SeedSpec): SeedContentConfig {
  return convertFields(CLOUDINIT_SEED_FIELDS.fields, spec, 'spec', 'config', (field, value, name) => {
    if (field.json) return jsonAttribute(value);
    if (name === 'vendor_data' && typeof value !== 'string') return `#cloud-config\n${stableJson(value)}`;
    return value;
  }) as SeedContentConfig;
}
