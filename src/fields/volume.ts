/** `virtseed_volume`'s fields (see ./model.ts). */
import { HOST_CHANGE_REPLACES, hostField } from './host';
import type { ResourceFields } from './model';

export const VOLUME_FIELDS = {
  version: 0,
  description: 'A storage volume in a libvirt storage pool: empty, a qcow2 overlay on a backing volume, or uploaded from a file or URL.',
  fields: {
    id: { type: 'string', computed: true, description: 'libvirt volume key (the path for `dir` pools).' },
    pool: { type: 'string', required: true, description: 'Storage pool name.' },
    name: { type: 'string', required: true, description: 'Volume name.' },
    host: hostField(HOST_CHANGE_REPLACES),
    format: {
      type: 'string',
      optional: true,
      computed: true,
      description: "`qcow2` or `raw`. Default: the source image's format, else `qcow2`.",
    },
    capacity: {
      type: 'number',
      optional: true,
      computed: true,
      description: "Virtual size in bytes. Default: the source's or backing volume's virtual size. Grows in place; cannot shrink.",
    },
    backing_volume: {
      type: 'string',
      optional: true,
      description: 'Key or path of a base volume: the new volume is a qcow2 overlay on it.',
    },
    source: {
      type: 'string',
      optional: true,
      description:
        'Local file path or http(s) URL uploaded into the volume (streamed; a URL may be served without Content-Length). Zero blocks of a raw image in a file pool stay unallocated (sparse upload).',
    },
    sha256: {
      type: 'string',
      optional: true,
      description:
        'sha256 (64 hex digits) pinning the bytes of `source`: the upload hashes them as they stream and fails, keeping no volume, when they differ. Checked at apply, not at plan (hashing a large image at every plan would be slow). Changing it replaces the volume.',
    },
    path: { type: 'string', computed: true, description: 'Host path of the volume.' },
    allocation: { type: 'number', computed: true, description: 'Bytes allocated on the host.' },
  },
} as const satisfies ResourceFields;
