/** The `virtseed_domain` data source's fields (see ./data-source.ts), derived from `virtseed_domain`'s table. */
import { dataSourceFields } from './data-source';
import { DOMAIN_FIELDS } from './domain';

/** An existing domain by name, as `virsh dominfo` and `virsh dumpxml` show it. */
export const DOMAIN_DATA_FIELDS = dataSourceFields(DOMAIN_FIELDS, {
  description:
    'An existing libvirt domain (virtual machine), by name: its UUID, state, memory, vCPUs, firmware, disks, NICs and addresses (what `virsh dominfo`, `virsh dumpxml` and `virsh domifaddr` show). It may be any domain of the host, not only one virtseed made.',
  lookup: ['name'],
  pick: ['id', 'uuid', 'memory', 'vcpu', 'type', 'firmware', 'secure_boot', 'running', 'addresses', 'ip_address'],
  describe: {
    memory: 'Maximum memory in MiB (`virsh dominfo`: Max memory, in KiB there).',
    vcpu: 'Virtual CPUs (`virsh dominfo`: CPU(s)).',
    type: 'The `<domain type>`, e.g. `kvm` or `qemu` (TCG).',
    firmware: '`bios` or `efi` (UEFI: a pflash loader or `firmware="efi"`).',
    secure_boot: 'With `efi`: whether UEFI secure boot is on.',
    running: 'Whether the domain is active now (`running`, `idle`, `paused`, `in shutdown`, `pmsuspended`).',
    addresses:
      "The running guest's IP addresses, without prefix length: the DHCP leases of its libvirt networks, then what its QEMU guest agent reports when the agent's channel is connected; empty while it is shut off or has none.",
  },
  extra: {
    state: {
      type: 'string',
      computed: true,
      description:
        'The state as `virsh dominfo` words it: `running`, `idle` (blocked), `paused`, `in shutdown`, `shut off`, `crashed`, `pmsuspended` or `no state`.',
    },
    autostart: { type: 'bool', computed: true, description: 'Whether libvirtd starts the domain when it starts.' },
    persistent: { type: 'bool', computed: true, description: 'Whether the domain has a persistent definition.' },
    disks: {
      type: 'list(string)',
      computed: true,
      description:
        'The sources of its disks and cdroms in device order: host paths, `POOL/VOLUME` for volume disks, `""` for an empty cdrom drive.',
    },
    mac_addresses: { type: 'list(string)', computed: true, description: 'MAC addresses of its network interfaces, in order.' },
    networks: {
      type: 'list(string)',
      computed: true,
      description: 'The libvirt networks its interfaces are on, in order (interfaces of other kinds left out).',
    },
  },
});
