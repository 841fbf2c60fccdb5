/** The `provider "virtseed" {}` block's schema. */
import { t } from './plugin/cty';
import type { ResourceSchema } from './plugin/schema';
import { DEFAULT_URI } from './host';

export const PROVIDER_SCHEMA: ResourceSchema = {
  version: 0,
  description: 'Declarative libvirt virtual machines provisioned by cloud-init or Ignition.',
  attributes: {
    uri: {
      type: t.string,
      optional: true,
      description: `libvirt connection URI, e.g. \`qemu:///system\` or \`qemu+ssh://user@host/system\`. Default: \`${DEFAULT_URI}\`.`,
    },
  },
};
