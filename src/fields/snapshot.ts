/** `virtseed_snapshot`'s fields (see ./model.ts). */
import { HOST_FIELD } from './host-field';
import type { ResourceFields } from './model';

export const SNAPSHOT_FIELDS = {
  version: 0,
  object: 'snapshot',
  whenUnknown: 'replace',
  description:
    "A libvirt snapshot of a `virtseed_domain` (formatsnapshot), kept inside the domain's qcow2 disks (an internal snapshot). Of a running guest it holds the guest's memory and disks, and reverting resumes the guest where it was (BIOS guests); of a shut-off guest it holds the disks, and reverting leaves the guest shut off (BIOS and UEFI guests; a UEFI guest's NVRAM is in no snapshot). Read-only disks and the cloud-init seed are not in it; a snapshot of a shut-off guest keeps a copy of its seed, which a revert writes back. Reverting is an explicit act: `virtseed snapshot revert DOMAIN SNAPSHOT`, never a plan or apply. Import as `DOMAIN/SNAPSHOT` (domain name or UUID).",
  fields: {
    id: { type: 'string', computed: true, description: '`<domain UUID>/<name>`.' },
    host: { ...HOST_FIELD, description: `${HOST_FIELD.description} The domain's own host.` },
    domain_id: {
      type: 'string',
      required: true,
      replace: true,
      description: 'The domain: a `virtseed_domain.id` (its UUID) or a domain name.',
    },
    name: {
      type: 'string',
      required: true,
      replace: true,
      description:
        'Snapshot name, unique per domain: 1–64 letters, digits, `.`, `_` or `-`, starting with a letter or digit. A new name takes a new snapshot and deletes the old one.',
    },
    description: {
      type: 'string',
      optional: true,
      impact: 'none',
      description: "Free text kept with the snapshot; a change rewrites the snapshot's metadata in place, its data stays.",
    },
    memory: {
      type: 'bool',
      optional: true,
      computed: true,
      default: { derived: '`true` when the guest runs when the snapshot is taken, `false` when it is shut off' },
      replace: true,
      description:
        "Whether the snapshot holds the guest's memory: `true` needs the guest running (and BIOS firmware, and no virtiofs share: libvirt 9.0 takes no internal snapshot of a running UEFI guest, QEMU cannot save a virtiofs device), `false` needs it shut off. A writable disk that is not qcow2 refuses both.",
    },
    state: {
      type: 'string',
      computed: true,
      description: "The domain's state when the snapshot was taken: `running` or `paused` (with memory) or `shutoff`.",
    },
    creation_time: { type: 'number', computed: true, description: 'When the snapshot was taken, in seconds since the epoch.' },
    instance_id: {
      type: 'string',
      computed: true,
      description:
        "The domain's instance-id when the snapshot was taken (what a revert returns the guest to); null when the domain had none.",
    },
    disks: {
      type: 'list(string)',
      computed: true,
      description: 'The disks in the snapshot, by target (e.g. `vda`); read-only disks and cdroms are not in it.',
    },
  },
} as const satisfies ResourceFields;
