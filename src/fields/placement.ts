/** `virtseed_placement`'s fields (see ./model.ts). */
import type { ResourceFields } from './model';

export const PLACEMENT_FIELDS = {
  version: 0,
  description:
    "The libvirt host of one virtual machine, chosen at plan among the provider's `host` blocks from what the hosts report (memory and vCPUs committed by their domains, the anti-affinity groups there, whether they answer) and a policy. The choice is kept in state: it never changes for an existing VM unless `pin` or `rebalance` changes. A domain and its volumes and seed follow it with `host = virtseed_placement.<name>.host`.",
  object: 'placement',
  whenUnknown: 'replace',
  fields: {
    id: { type: 'string', computed: true, description: 'The name of the domain it places (`name`).' },
    name: {
      type: 'string',
      required: true,
      replace: true,
      description: "The name of the domain it places (the domain's `name`): that domain never counts against itself when placed again.",
    },
    memory: { type: 'number', required: true, description: 'MiB of memory the domain needs (its `memory`).' },
    vcpu: { type: 'number', optional: true, computed: true, default: 1, description: 'vCPUs the domain needs (its `vcpu`).' },
    hosts: {
      type: 'list(string)',
      optional: true,
      description:
        "The hosts to choose from: names of the provider's `host` blocks, in order of preference when two hosts fit equally well. Default: every host block, in configuration order.",
    },
    policy: {
      type: 'string',
      optional: true,
      computed: true,
      values: {
        spread: 'the host whose committed memory share is lowest with the domain added; then the one with fewer domains',
        pack: 'the host whose committed memory share is highest and still fits',
      },
      default: 'spread',
      description: 'How the host is chosen among those where the domain fits (ties: the order of `hosts`).',
    },
    anti_affinity: {
      type: 'string',
      optional: true,
      description:
        "An anti-affinity group: never two domains of the group on one host. Hosts know a domain's group from its `anti_affinity` (set it to this placement's `anti_affinity`), so a group holds across plans and configurations.",
    },
    pin: {
      type: 'string',
      optional: true,
      description:
        'A host the domain must be on: setting or changing it moves the domain there (the plan fails, naming why, when the host is down or full). Removing it leaves the domain where it is.',
    },
    rebalance: {
      type: 'string',
      optional: true,
      description:
        'A trigger: any change of its value (e.g. a date) chooses the host again, as for a new domain; the domain moves when another host is now better. Otherwise the choice never changes.',
    },
    host: {
      type: 'string',
      computed: true,
      description: "The chosen host (a `host` block's name): known at plan. Give it to the domain, its volumes and seed (`host`).",
    },
    reason: {
      type: 'string',
      computed: true,
      description:
        'Why that host: the policy and what the host has committed with the domain, e.g. `spread: h2 (768 MiB committed with web-1, 3 domains)`. It names no host memory size: the size libvirt reports for a host may change between plan and apply (memory hotplug, ballooning), and the apply must plan the same reason.',
    },
  },
} as const satisfies ResourceFields;
