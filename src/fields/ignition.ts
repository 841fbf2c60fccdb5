/** `virtseed_ignition`'s fields (see ./model.ts). */
import { HOST_FIELD } from './host-field';
import type { ResourceFields } from './model';
import { writeOnlyTwin } from './write-only';

export const IGNITION_FIELDS = {
  version: 0,
  description:
    'An Ignition config (spec 3.x) stored in a libvirt storage pool and passed to the guest through fw_cfg `opt/com.coreos/config`.',
  object: 'Ignition config',
  whenUnknown: 'replace',
  fields: {
    id: { type: 'string', computed: true, description: 'libvirt volume key.' },
    pool: { type: 'string', required: true, replace: true, description: 'Storage pool name.' },
    name: { type: 'string', required: true, replace: true, description: 'Volume name, e.g. `node1.ign`.' },
    host: HOST_FIELD,
    content: {
      type: 'string',
      optional: true,
      sensitive: true,
      impact: 'next-boot',
      description:
        "Ignition JSON (`jsonencode({...})`), spec 3.0.0–3.5.0; 2.x configs are translated to 3.3.0 where that is mechanical. Rewritten in place; its new `instance_id` re-provisions the guest by the domain's `reprovision` policy. One of `content`, `content_wo`.",
    },
    content_wo: writeOnlyTwin('content', 'string', {
      impact: 'next-boot',
      description: '`content` as a write-only value: `instance_id` is then keyed too (`ign-` + 16 hex digits of `keyed_digest`).',
    }),
    version: { type: 'string', computed: true, description: 'Spec version of the stored config.' },
    instance_id: {
      type: 'string',
      computed: true,
      description: "`ign-` + 16 hex digits of the config's sha256: changes whenever the config does.",
    },
    sha256: {
      type: 'string',
      computed: true,
      description: 'sha256 (hex) of the stored JSON; null with `content_wo` (then `keyed_digest` stands for it).',
    },
    keyed_digest: {
      type: 'string',
      computed: true,
      sensitive: true,
      secretDigest: true,
      description:
        'With `content_wo`: `hmac-sha256:` + the HMAC-SHA256 (hex) of the stored JSON under a random key of this resource kept in its private state (docs/write-only.md). Null otherwise.',
    },
    path: { type: 'string', computed: true, description: 'Host path of the config file.' },
  },
} as const satisfies ResourceFields;
