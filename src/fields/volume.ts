/** `virtseed_volume`'s fields (see ./model.ts), and those of the `virtseed_volume` data source. */
import { dataSourceFields } from './data-source';
import { HOST_FIELD } from './host-field';
import { valuesOf, type ResourceFields, type ValuesOf } from './model';
import { writeOnlyTwin } from './write-only';

export const VOLUME_FIELDS = {
  version: 0,
  description:
    'A storage volume in a libvirt storage pool: empty, a qcow2 overlay on a backing volume, uploaded from a file or URL, or restored from a backup (`restore_from`).',
  object: 'volume',
  whenUnknown: 'wait',
  fields: {
    id: { type: 'string', computed: true, description: 'libvirt volume key (the path for `dir` pools).' },
    pool: { type: 'string', required: true, replace: true, description: 'Storage pool name.' },
    name: { type: 'string', required: true, replace: true, description: 'Volume name.' },
    host: HOST_FIELD,
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
        'Local file path or http(s) URL uploaded into the volume (streamed; a URL may be served without Content-Length). Zero blocks of a raw image in a file pool stay unallocated (sparse upload). A URL may carry credentials, `https://user:password@host/image.qcow2` (percent-encoded): they are sent as HTTP basic auth and masked (`user:***@`) in every message of the provider; build such a URL from a sensitive variable so that Terraform hides it in plans too, or give it as `source_wo`.',
    },
    source_wo: writeOnlyTwin('source', 'string', {
      replace: true,
      description:
        "`source` as a write-only value: for a URL whose credentials (`user:password@`) or query (a signed URL's token) are secret. Neither plan nor state holds it; `keyed_digest` tells a changed URL (which replaces the volume, as a changed `source` does). One of `source`, `source_wo`, `backing_volume`.",
    }),
    keyed_digest: {
      type: 'string',
      computed: true,
      sensitive: true,
      secretDigest: true,
      spec: null,
      description:
        'With `source_wo`: `hmac-sha256:` + the HMAC-SHA256 (hex) of the URL under a random key of this volume kept in its private state (docs/write-only.md), so a plan tells a changed URL without the state holding it. Null otherwise.',
    },
    sha256: {
      type: 'string',
      optional: true,
      replace: true,
      caseInsensitive: true,
      description:
        'sha256 (64 hex digits) pinning the bytes of `source`: the upload hashes them as they stream and fails, keeping no volume, when they differ. Checked at apply, not at plan (hashing a large image at every plan would be slow).',
    },
    checksum_url: {
      type: 'string',
      optional: true,
      replace: true,
      description:
        "URL (or local path) of the checksum file published beside `source`, in `sha256sum`/`sha512sum` form (`SHA256SUMS`, `SHA512SUMS`) or BSD tagged form (`SHA256 (name) = hex`): the download must match its entry for `source`'s file name. The verified image is kept once per pool in a cache volume named by its digest (`virtseed-image-<algorithm>-<hex>`), and the volume is a qcow2 overlay on it: another volume (another stack) on the same image uploads nothing. The cache volume is deleted with the last volume on it. A mismatch fails the apply naming the file and both digests, and keeps no volume.",
    },
    checksum_algorithm: {
      type: 'string',
      optional: true,
      values: { sha256: '', sha512: '' },
      replace: true,
      description: "Which of the checksum file's entries for the image to use. Default: the one it lists (by its tag or length).",
    },
    signature_url: {
      type: 'string',
      optional: true,
      replace: true,
      description:
        'URL (or local path) of the detached OpenPGP signature of the checksum file (armored or binary, e.g. `SHA256SUMS.gpg`, `SHA512SUMS.sign`). Without it, with `signature_key`, the checksum file itself must be clearsigned.',
    },
    signature_key: {
      type: 'string',
      optional: true,
      replace: true,
      description:
        'The distribution\'s armored OpenPGP public key (e.g. `file("debian-cloud.asc")`): the checksum file must carry a valid signature by it, checked at plan and again at apply.',
    },
    digest: {
      type: 'string',
      computed: true,
      description: 'With `checksum_url`: the verified image digest, `<algorithm>:<hex>` (known at plan: read from the checksum file).',
    },
    restore_from: {
      type: 'string',
      optional: true,
      replace: true,
      description:
        "Path of a backup's folder written by `virtseed backup create` (`DIR/<domain>/<id>`, e.g. `/srv/backups/web-1/0002-incremental`), or of a domain's folder of backups (`DIR/<domain>`: its latest backup when the volume is planned), on the machine that runs terraform: the volume holds the disk `restore_disk` as it was at that backup, made from the chain's full backup and each incremental up to it (every file checked against its manifest's sha256 first, the result compared with the chain by `qemu-img compare`), as one qcow2 image uploaded into the pool. The plan shows the chain (`restore_chain`), the bytes read (`restore_bytes`), the backed-up guest's instance-id (`restore_instance_id`) and a warning naming the guest, the backup's age and that what was written after it is lost: give the guest's seed that instance-id and cloud-init does not provision it again (docs/backups.md).",
    },
    restore_disk: {
      type: 'string',
      optional: true,
      computed: true,
      replace: true,
      default: { derived: "the backup's only disk" },
      description: 'With `restore_from`: the disk target in the backup (e.g. `vda`).',
    },
    restore_chain: {
      type: 'list(string)',
      computed: true,
      description: 'With `restore_from`: the backups the volume is made from, oldest (the full backup) first. Known at plan.',
    },
    restore_bytes: {
      type: 'number',
      computed: true,
      unit: 'bytes',
      description: "With `restore_from`: the bytes of the chain's files for the disk (what the restore reads). Known at plan.",
    },
    restore_taken_at: {
      type: 'string',
      computed: true,
      description:
        "With `restore_from`: when the backup's point in time was taken (RFC 3339, UTC, from its manifest): what was written after it is not in the volume. Known at plan.",
    },
    restore_instance_id: {
      type: 'string',
      computed: true,
      description: "With `restore_from`: the cloud-init instance-id the backed-up guest had (from the backup's manifest). Known at plan.",
    },
    path: { type: 'string', computed: true, description: 'Host path of the volume.' },
    allocation: { type: 'number', computed: true, description: 'Bytes allocated on the host.' },
  },
} as const satisfies ResourceFields;

/**
 * The image formats of a volume, and of a domain disk (libvirt `<driver type>`): `format`'s allowed values in table
 * order, the one spelling of the set for parsers, checks, the typed state and the constructs.
 */
export const VOLUME_FORMATS = valuesOf(VOLUME_FIELDS.fields.format);

/** One of {@link VOLUME_FORMATS}: `qcow2` or `raw`. */
export type VolumeFormat = ValuesOf<typeof VOLUME_FIELDS.fields.format>;

/** The `virtseed_volume` data source: an existing volume by pool and name, as `virsh vol-info` shows it. */
export const VOLUME_DATA_FIELDS = dataSourceFields(VOLUME_FIELDS, {
  description:
    'An existing storage volume, by pool and name: its key, path, format and sizes (what `virsh vol-info` and `virsh vol-dumpxml` show), e.g. a base image uploaded once and used as `backing_volume` by volumes of this configuration.',
  lookup: ['pool', 'name'],
  pick: ['id', 'path', 'format', 'capacity', 'allocation', 'backing_volume'],
  describe: {
    pool: 'Storage pool name.',
    format: "The volume's format as libvirt reads it, e.g. `qcow2`, `raw`, `iso`.",
    capacity: 'Virtual size in bytes.',
    backing_volume: 'Path of the backing file of a qcow2 overlay; null when the volume has none.',
  },
  extra: {
    type: {
      type: 'string',
      computed: true,
      description: '`file`, `block`, `dir`, `network`, `netdir` or `ploop` (`virsh vol-info`: Type).',
    },
  },
});
