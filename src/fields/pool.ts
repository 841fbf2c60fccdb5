/** `virtseed_pool`'s fields (see ./model.ts), and those of the `virtseed_pool` data source. */
import { dataSourceFields } from './data-source';
import { HOST_FIELD } from './host-field';
import type { ResourceFields } from './model';

export const POOL_FIELDS = {
  version: 0,
  description:
    'A libvirt storage pool (formatstorage): a directory (`dir`), an LVM volume group (`logical`) or a mounted network file system (`netfs`), defined, built when its target is missing, started and (by default) autostarted. Volumes, seeds and Ignition configs name it in `pool`. Destroying a running pool fails, naming them, while it holds volumes Terraform does not manage; otherwise it removes the pool and what its start built (a stopped pool is only undefined: its target stays).',
  object: 'storage pool',
  whenUnknown: 'wait',
  fields: {
    id: { type: 'string', computed: true, description: 'Pool UUID.' },
    uuid: { type: 'string', computed: true, description: 'Pool UUID.' },
    name: { type: 'string', required: true, replace: true, description: 'Pool name.' },
    host: HOST_FIELD,
    type: {
      type: 'string',
      optional: true,
      computed: true,
      values: {
        dir: 'volumes are files in `path`',
        logical: 'volumes are logical volumes of an LVM volume group',
        netfs: 'volumes are files on a network file system mounted at `path`',
      },
      default: 'dir',
      replace: true,
      description: 'What the pool keeps its volumes in.',
    },
    path: {
      type: 'string',
      optional: true,
      computed: true,
      default: { derived: "`/dev/<volume group>` for `logical` (libvirt's rule); `dir` and `netfs` need one" },
      replace: true,
      description:
        'Target path on the host, absolute: the directory of a `dir` pool and the mount point of a `netfs` pool (created by the build when missing); for `logical` `/dev/<volume group>`.',
    },
    source_host: { type: 'string', optional: true, replace: true, description: '`netfs`: the file server (host name or address).' },
    source_dir: {
      type: 'string',
      optional: true,
      replace: true,
      description:
        '`netfs`: what the server exports: an absolute path for `nfs` and `auto`, the share (`cifs`) or volume (`glusterfs`) name.',
    },
    source_format: {
      type: 'string',
      optional: true,
      computed: true,
      values: {
        auto: '`netfs`: mount(8) probes the file system',
        nfs: '`netfs`',
        glusterfs: '`netfs`',
        cifs: '`netfs`',
        lvm2: '`logical`',
      },
      default: { derived: '`auto` for `netfs`, `lvm2` for `logical`, none for `dir`' },
      replace: true,
      description: "The file system a `netfs` pool mounts, or a `logical` pool's format.",
    },
    source_name: {
      type: 'string',
      optional: true,
      computed: true,
      default: { derived: 'the pool name, for `logical`' },
      replace: true,
      description: '`logical`: the volume group.',
    },
    source_devices: {
      type: 'list(string)',
      optional: true,
      replace: true,
      description:
        '`logical`: the block devices (physical volumes) the build puts a new volume group on; it refuses devices that already hold data. Not needed for an existing volume group.',
    },
    autostart: {
      type: 'bool',
      optional: true,
      computed: true,
      default: true,
      impact: 'none',
      description: 'Start the pool when libvirtd starts.',
    },
    active: {
      type: 'bool',
      optional: true,
      computed: true,
      default: true,
      impact: 'none',
      description:
        'Whether the pool runs (is started). Starting a pool whose target is missing builds it first (creates the directory or mount point; `logical`: the volume group on `source_devices`). A pool stopped outside Terraform shows as a change and is started again.',
    },
    capacity: { type: 'number', computed: true, description: 'Size of the pool in bytes (0 while it is not active).' },
    allocation: { type: 'number', computed: true, description: 'Bytes allocated to volumes.' },
    available: { type: 'number', computed: true, description: 'Bytes free for new volumes.' },
  },
} as const satisfies ResourceFields;

/** The `virtseed_pool` data source: an existing pool by name, as `virsh pool-info` and `pool-dumpxml` show it. */
export const POOL_DATA_FIELDS = dataSourceFields(POOL_FIELDS, {
  description:
    'An existing libvirt storage pool, by name: its type, target, source, state and sizes (what `virsh pool-info` and `virsh pool-dumpxml` show), so a configuration can put volumes into a pool it does not manage and size them from what is free.',
  lookup: ['name'],
  pick: [
    'id',
    'uuid',
    'type',
    'path',
    'source_host',
    'source_dir',
    'source_format',
    'source_name',
    'source_devices',
    'autostart',
    'active',
    'capacity',
    'allocation',
    'available',
  ],
  describe: {
    type: '`dir`, `logical` or `netfs` (a pool of another type is an error).',
    path: 'Target path on the host: the directory (`dir`), the mount point (`netfs`) or `/dev/<volume group>` (`logical`).',
    source_format: '`netfs`: the file system mounted (`auto`, `nfs`, `glusterfs`, `cifs`); `logical`: `lvm2`.',
    source_name: '`logical`: the volume group.',
    source_devices: '`logical`: the physical volumes of the volume group, as the pool definition lists them.',
    autostart: 'Whether libvirtd starts the pool when it starts.',
    active: 'Whether the pool runs now.',
  },
  extra: {
    persistent: {
      type: 'bool',
      computed: true,
      description: 'Whether the pool has a persistent definition (`virsh pool-info`: Persistent).',
    },
    volumes: {
      type: 'list(string)',
      computed: true,
      description: 'Names of the volumes in the pool, sorted (empty while the pool is not active).',
    },
  },
});
