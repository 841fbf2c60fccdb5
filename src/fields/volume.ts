/** `virtseed_volume`'s fields (see ./model.ts). */
import type { ResourceFields } from './model';

export const VOLUME_FIELDS = {
  version: 0,
  description: 'A storage volume in a libvirt storage pool: empty, a qcow2 overlay on a backing volume, or uploaded from a file or URL.',
  object: 'volume',
  whenUnknown: 'wait',
  fields: {
    id: { type: 'string', computed: true, description: 'libvirt volume key (the path for `dir` pools).' },
    pool: { type: 'string', required: true, replace: true, description: 'Storage pool name.' },
    name: { type: 'string', required: true, replace: true, description: 'Volume name.' },
    format: {
      type: 'string',
      optional: true,
      computed: true,
      values: { qcow2: '', raw: '' },
      default: { derived: "the source image's format, else `qcow2`" },
      // A format the config sets replaces even while unknown; one it leaves to the source is recomputed.
      replace: { whenUnknown: 'replace' },
      description: 'Image format.',
    },
    capacity: {
      type: 'number',
      optional: true,
      computed: true,
      unit: 'bytes',
      default: { derived: "the source's or backing volume's virtual size" },
      impact: 'live',
      description:
        "Virtual size in bytes. Grows in place, also under a running guest that has it attached (libvirt block resize: the guest sees the larger disk at once; cloud-init's growpart and resizefs grow the root partition and file system at the guest's next boot). Cannot shrink.",
    },
    backing_volume: {
      type: 'string',
      optional: true,
      replace: true,
      description: 'Key or path of a base volume: the new volume is a qcow2 overlay on it.',
    },
    source: {
      type: 'string',
      optional: true,
      replace: true,
      description:
        'Local file path or http(s) URL uploaded into the volume (streamed; a URL may be served without Content-Length). Zero blocks of a raw image in a file pool stay unallocated (sparse upload).',
    },
    sha256: {
      type: 'string',
      optional: true,
      replace: true,
      caseInsensitive: true,
      description:
        'sha256 (64 hex digits) pinning the bytes of `source`: the upload hashes them as they stream and fails, keeping no volume, when they differ. Checked at apply, not at plan (hashing a large image at every plan would be slow).',
    },
    path: { type: 'string', computed: true, description: 'Host path of the volume.' },
    allocation: { type: 'number', computed: true, description: 'Bytes allocated on the host.' },
  },
} as const satisfies ResourceFields;
