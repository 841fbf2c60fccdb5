/** `virtseed_domain`'s fields (see ./model.ts). */
import { hostField } from './host';
import type { ResourceFields } from './model';

export const DOMAIN_FIELDS = {
  version: 0,
  description: 'A libvirt domain (virtual machine) provisioned by a cloud-init seed or an Ignition config.',
  fields: {
    id: { type: 'string', computed: true, description: 'Domain UUID.' },
    uuid: { type: 'string', computed: true, description: 'Domain UUID.' },
    name: { type: 'string', required: true, description: 'Domain name.' },
    host: hostField(
      'Changing it moves the domain: a running guest whose old and new hosts both answer is live-migrated with its storage copied (it keeps running; its volumes and seed are replaced on the new host first and the old copies removed after the move); otherwise the domain is replaced. The plan says which.',
    ),
    memory: { type: 'number', required: true, description: 'Memory in MiB.' },
    vcpu: { type: 'number', optional: true, computed: true, description: 'Virtual CPUs. Default 1.' },
    type: {
      type: 'string',
      optional: true,
      computed: true,
      description: '`kvm` or `qemu` (TCG). Default: `kvm` only where KVM really runs guests.',
    },
    cpu_mode: { type: 'string', optional: true, description: '`host-passthrough`, `host-model`, `maximum` or `custom`.' },
    firmware: {
      type: 'string',
      optional: true,
      computed: true,
      description:
        "Boot firmware: `bios` (default, SeaBIOS) or `efi` (UEFI: OVMF from the host's `ovmf` package, chosen by libvirt; the domain's NVRAM is created from OVMF's variables template when it starts and removed with the domain). Changing it replaces the domain.",
    },
    secure_boot: {
      type: 'bool',
      optional: true,
      computed: true,
      description:
        'With `firmware = "efi"`: UEFI secure boot with Microsoft\'s keys enrolled (q35 machine, SMM); the guest\'s boot loader must be signed. Default false. Changing it replaces the domain.',
    },
    kernel: { type: 'string', optional: true, description: 'Host path of a kernel for direct kernel boot.' },
    initrd: { type: 'string', optional: true, description: 'Host path of an initrd (with `kernel`).' },
    cmdline: { type: 'string', optional: true, description: 'Kernel command line (with `kernel`).' },
    cloudinit_seed_id: { type: 'string', optional: true, description: 'A `virtseed_cloudinit_seed.id`, attached as a read-only cdrom.' },
    ignition_id: {
      type: 'string',
      optional: true,
      description: 'A `virtseed_ignition.id`, passed through fw_cfg `opt/com.coreos/config`.',
    },
    instance_id: {
      type: 'string',
      optional: true,
      description: "The seed's (or Ignition config's) `instance_id`. A change re-provisions the guest according to `reprovision`.",
    },
    reprovision: {
      type: 'string',
      optional: true,
      computed: true,
      description:
        'What a changed `instance_id` does: `reboot` (default: restart the guest on the same disks), `recreate` (replace the domain), `next-boot` (only swap the seed).',
    },
    running: { type: 'bool', optional: true, computed: true, description: 'Whether the domain runs. Default true.' },
    shutdown_timeout: {
      type: 'number',
      optional: true,
      computed: true,
      description: 'Seconds to wait for a clean shutdown before powering off. Default 60.',
    },
    console_log: {
      type: 'string',
      computed: true,
      description:
        'Host path of the serial console log (null on a per-user session daemon, `.../session`, whose QEMU cannot write the system log folder).',
    },
    wait_for: {
      type: 'string',
      optional: true,
      computed: true,
      description:
        "What an apply that starts the guest waits for, read through libvirt only (so it works for remote hosts too): `none` (default), `lease` (an address appeared: a DHCP lease on the domain's libvirt networks, or the guest agent's), `cloud-init` (cloud-init finished this boot; its module failures fail the apply), `ignition` (Ignition finished on the first boot).",
    },
    wait_timeout: {
      type: 'number',
      optional: true,
      computed: true,
      description: "Seconds `wait_for` waits from the guest's start before the apply fails (the guest keeps running). Default 600.",
    },
    reprovision_action: {
      type: 'string',
      computed: true,
      description: 'What this plan does to the guest because of `instance_id`: `none`, `reboot`, `recreate` or `next-boot`.',
    },
    previous_instance_id: {
      type: 'string',
      computed: true,
      description: 'The instance-id before a re-provision decision (null when `reprovision_action` is `none`).',
    },
    anti_affinity: {
      type: 'string',
      optional: true,
      description:
        "The anti-affinity group the domain belongs to (give it the `anti_affinity` of its `virtseed_placement`): kept in the domain's libvirt metadata, where placements read it, so they never put two domains of a group on one host. Changing it changes only the metadata.",
    },
    qemu_agent: {
      type: 'bool',
      optional: true,
      computed: true,
      description:
        'Give the guest a QEMU guest agent channel (virtio-serial `org.qemu.guest_agent.0`), so `addresses` also holds what a running qemu-guest-agent reports (NICs on user-mode networking or without DHCP). Default false.',
    },
    addresses: {
      type: 'list(string)',
      computed: true,
      description:
        "The running guest's IP addresses, without prefix length: DHCP leases of its libvirt networks first, then (with `qemu_agent`) what the guest agent reports; loopback and IPv6 link-local left out. Empty while the guest is shut off or has no address yet; refreshed at every read (which never waits for the guest).",
    },
    ip_address: {
      type: 'string',
      computed: true,
      description: 'The first IPv4 address of `addresses` (else its first address); null when there is none.',
    },
    disk: {
      nesting: 'list',
      description: 'A disk. Exactly one of `volume_id` and `file`.',
      fields: {
        volume_id: { type: 'string', optional: true, description: 'A `virtseed_volume.id` (volume key).' },
        file: { type: 'string', optional: true, description: 'Host path of an image file.' },
        target: { type: 'string', optional: true, computed: true, description: 'Guest device, default `vda`, `vdb`, … in order.' },
        bus: { type: 'string', optional: true, computed: true, description: '`virtio` (default), `sata` or `scsi`.' },
        readonly: { type: 'bool', optional: true, computed: true, description: 'Default false.' },
      },
    },
    network_interface: {
      nesting: 'list',
      description: 'A network interface: a libvirt network (`network`), or QEMU user networking (`user = true`).',
      fields: {
        network: {
          type: 'string',
          optional: true,
          description: 'A libvirt network: a `virtseed_network.id` (UUID) or a network name, e.g. `default`.',
        },
        user: { type: 'bool', optional: true, computed: true, description: 'QEMU user-mode networking.' },
        restrict: {
          type: 'bool',
          optional: true,
          computed: true,
          description: 'With `user`: isolate the guest (no traffic leaves the host). Default true.',
        },
        mac: {
          type: 'string',
          optional: true,
          computed: true,
          description: 'MAC address. Default: stable, derived from the domain name and position.',
        },
        model: { type: 'string', optional: true, computed: true, description: 'NIC model, default `virtio`.' },
      },
    },
  },
} as const satisfies ResourceFields;
