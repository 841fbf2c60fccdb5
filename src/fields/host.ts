/** The `virtseed_host` data source's fields (see ./data-source.ts). */
import { DATA_HOST_FIELD, type DataFieldTable } from './data-source';
import type { ResourceFields } from './model';

/** The libvirt host the provider connects to: versions, CPUs, memory, KVM and firmware. */
export const HOST_DATA_FIELDS = {
  version: 0,
  description:
    'The libvirt host the provider is connected to: libvirt and QEMU versions, CPUs and their topology, memory total and free, whether KVM runs guests, and the firmware guests can boot (what `virsh version`, `virsh nodeinfo`, `virsh freecell` and `virsh domcapabilities` show), so a configuration can decide from the real capacity of the host. Read at every plan.',
  object: 'host',
  whenUnknown: 'wait',
  fields: {
    host: DATA_HOST_FIELD,
    id: { type: 'string', computed: true, description: "The host's UUID (`virsh capabilities`: `host/uuid`)." },
    hostname: { type: 'string', computed: true, description: "The host's name (`virsh hostname`)." },
    uri: { type: 'string', computed: true, description: 'The libvirt URI the provider connected to.' },
    libvirt_version: { type: 'string', computed: true, description: 'libvirt version of the daemon, e.g. `9.0.0`.' },
    qemu_version: {
      type: 'string',
      computed: true,
      description: 'Version of the hypervisor (QEMU), e.g. `7.2.0` (`virsh version`: Running hypervisor).',
    },
    arch: { type: 'string', computed: true, description: 'CPU architecture, e.g. `x86_64` (`virsh nodeinfo`: CPU model).' },
    cpu_model: {
      type: 'string',
      computed: true,
      description:
        "The host CPU's model name as libvirt names it, e.g. `EPYC` or `Skylake-Client-IBRS` (`virsh capabilities`: `host/cpu/model`).",
    },
    cpus: { type: 'number', computed: true, description: 'Active logical CPUs (`virsh nodeinfo`: CPU(s)).' },
    cpu_sockets: { type: 'number', computed: true, description: 'CPU sockets per NUMA cell (`virsh nodeinfo`: CPU socket(s)).' },
    cpu_cores: { type: 'number', computed: true, description: 'Cores per socket (`virsh nodeinfo`: Core(s) per socket).' },
    cpu_threads: { type: 'number', computed: true, description: 'Threads per core (`virsh nodeinfo`: Thread(s) per core).' },
    cpu_mhz: { type: 'number', computed: true, description: 'Expected CPU frequency in MHz (`virsh nodeinfo`: CPU frequency).' },
    numa_cells: { type: 'number', computed: true, description: 'NUMA cells (`virsh nodeinfo`: NUMA cell(s)).' },
    memory_total: {
      type: 'number',
      computed: true,
      description: 'Memory of the host in MiB (`virsh nodeinfo`: Memory size, in KiB there).',
    },
    memory_free: {
      type: 'number',
      computed: true,
      description: 'Free memory of the host in MiB, now (`virsh freecell --all`, in KiB there).',
    },
    kvm: {
      type: 'bool',
      computed: true,
      description:
        "Whether KVM runs guests on the host, by the provider's own check (the default `virtseed_domain.type`): /dev/kvm usable and the CPU showing vmx/svm on a local host, plus `VIRTSEED_KVM_PROBED=1` saying a probe boot worked; false for remote hosts.",
    },
    domain_type: {
      type: 'string',
      computed: true,
      description: '`kvm` when `kvm` is true, else `qemu` (TCG): the `virtseed_domain.type` a domain gets by default.',
    },
    firmware: {
      type: 'list(string)',
      computed: true,
      description:
        "Firmware a domain can boot: `bios` (SeaBIOS, QEMU's x86 default) and `efi` when libvirt finds UEFI firmware (descriptors under /usr/share/qemu/firmware, e.g. from Debian's `ovmf`).",
    },
    secure_boot: {
      type: 'bool',
      computed: true,
      description: 'Whether UEFI secure boot is available (a secure-boot firmware for the q35 machine, which `secure_boot = true` needs).',
    },
  },
} as const satisfies ResourceFields<DataFieldTable>;
