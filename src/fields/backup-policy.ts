/** `virtseed_backup_policy`'s fields (see ./model.ts). */
import { HOST_FIELD } from './host-field';
import type { ResourceFields } from './model';

export const BACKUP_POLICY_FIELDS = {
  version: 0,
  object: 'backup policy',
  whenUnknown: 'replace',
  description:
    "Backups of a running `virtseed_domain` into a directory (docs/backups.md), declared: the apply that creates the policy takes a backup, every later plan that finds the latest backup older than `max_age` plans one more (a warning says so, `latest` is then known after apply), and each backup is followed by a prune to the `keep` latest (and what they need). Between applies a timer runs the same `virtseed backup create` and `prune` with the same directory and keep; the policy reads their backups too. Terraform must run on the domain's host (QEMU writes the copies into `dir` there). Destroying the policy keeps the backups.",
  fields: {
    id: { type: 'string', computed: true, description: "`<dir>/<domain>`: the folder of the domain's backups (and the import id)." },
    host: { ...HOST_FIELD, description: `${HOST_FIELD.description} The domain's own host.` },
    domain: {
      type: 'string',
      required: true,
      replace: true,
      description: 'The domain to back up, by name (e.g. `virtseed_domain.web.name`); it must be running when a backup is taken.',
    },
    dir: {
      type: 'string',
      required: true,
      replace: true,
      description:
        "Absolute path of the backup directory on the domain's host (and the machine that runs terraform): backups go to `<dir>/<domain>/<NNNN-kind>/`. QEMU must be able to enter it (not a folder only root may enter).",
    },
    keep: {
      type: 'number',
      required: true,
      impact: 'none',
      description:
        'How many of the latest backups to keep (at least 1); older ones are removed after each backup unless a kept one needs them.',
    },
    max_age: {
      type: 'number',
      optional: true,
      computed: true,
      default: 86400,
      unit: 'seconds',
      impact: 'none',
      description: 'A plan that finds the latest backup older than this (at least 60) plans a new one.',
    },
    latest: {
      type: 'string',
      computed: true,
      description: 'The id of the latest backup (`0003-incremental`); known after apply when a backup is due.',
    },
    latest_taken_at: {
      type: 'string',
      computed: true,
      description: "When the latest backup's point in time was taken (RFC 3339, UTC, from its manifest).",
    },
    backups: {
      type: 'list(string)',
      computed: true,
      description: "The domain's backups in `dir`, oldest first.",
    },
  },
} as const satisfies ResourceFields;
