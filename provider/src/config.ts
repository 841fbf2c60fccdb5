/** The `provider "virtseed" {}` block's schema (its value is read in ./host-config.ts). */
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
      description: `libvirt connection URI of the default host (resources without \`host\`), e.g. \`qemu:///system\` or \`qemu+ssh://user@host/system\`. Default: \`${DEFAULT_URI}\`.`,
    },
  },
  blocks: {
    host: {
      nesting: 'list',
      block: {
        description:
          'A named libvirt host. Resources choose it with `host = "<name>"`; `virtseed_placement` chooses among these hosts. The provider connects to each host the first time a resource needs it, once per provider run.',
        attributes: {
          name: {
            type: t.string,
            required: true,
            description: 'The name resources use (`host = "<name>"`): letters, digits, `.`, `_` and `-`, up to 63 characters.',
          },
          uri: {
            type: t.string,
            required: true,
            description: 'libvirt connection URI of the host, e.g. `qemu+tls://kvm2.example.net/system` or `qemu+ssh://root@kvm2/system`.',
          },
          migration_uri: {
            type: t.string,
            optional: true,
            description:
              "The URI the other hosts' libvirtd uses to reach this host when a running domain live-migrates to it (peer to peer: the source host's libvirtd connects, with its own credentials). Default: `uri`.",
          },
          max_memory: {
            type: t.number,
            optional: true,
            description:
              "MiB of guest memory placements may commit on the host (the memory of every domain there, running or not, counts). Default: the host's physical memory.",
          },
          max_vcpu: {
            type: t.number,
            optional: true,
            description: 'vCPUs placements may commit on the host (every domain there counts). Default: 4 per host CPU.',
          },
        },
      },
    },
  },
};
