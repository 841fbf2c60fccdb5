/** `virtseed_domain`'s fields (see ./model.ts). */
import { DOMAIN_HOST_FIELD } from './host-field';
import type { ResourceFields } from './model';
import { writeOnlyTwin } from './write-only';

/**
 * The boot devices `boot_devices` takes (libvirt `<os><boot dev>`), in the order the docs list them: the one
 * spelling of the set (a list attribute has no `values`) for its description, the parser, the checks, the model's
 * `DomainBootDevice` and the constructs' `BootDevice`.
 */
export const BOOT_DEVICES = ['hd', 'cdrom', 'network', 'fd'] as const;

/** The fields of a serial port's or console's host side (libvirt `<serial|console type=...>`). */
function CHAR_FIELDS(what: string) {
  return {
    type: {
      type: 'string',
      required: true,
      values: {
        pty: 'a pseudo-terminal (`virsh console DOMAIN DEVICE`)',
        file: "the guest's output is written to `path`",
        unix: 'a unix socket at `path` QEMU listens on',
        tcp: 'a TCP port QEMU listens on (`host`, `port`), raw',
      },
      description: `Host side of the ${what}.`,
    },
    path: { type: 'string', optional: true, description: 'With `file` or `unix`: the host path (absolute).' },
    host: {
      type: 'string',
      optional: true,
      computed: true,
      default: { derived: '`127.0.0.1` with `tcp`, else null' },
      description: 'With `tcp`: the IP address QEMU listens on.',
    },
    port: { type: 'number', optional: true, description: 'With `tcp`: the TCP port.' },
  } as const;
}

export const DOMAIN_FIELDS = {
  version: 0,
  description: 'A libvirt domain (virtual machine) provisioned by a cloud-init seed or an Ignition config.',
  object: 'domain',
  whenUnknown: 'wait',
  fields: {
    id: { type: 'string', computed: true, description: 'Domain UUID.' },
    uuid: { type: 'string', computed: true, description: 'Domain UUID.' },
    name: { type: 'string', required: true, replace: true, description: 'Domain name.' },
    host: DOMAIN_HOST_FIELD,
    memory: {
      type: 'number',
      required: true,
      unit: 'MiB',
      prop: 'memoryMiB',
      propDefault: 512,
      impact: { if: { rule: 'at-most', attribute: 'max_memory' }, then: 'live', else: 'restart' },
      description: "Memory in MiB the guest has (libvirt `<currentMemory>`); changed live by the guest's virtio balloon.",
    },
    max_memory: {
      type: 'number',
      optional: true,
      computed: true,
      unit: 'MiB',
      prop: 'maxMemoryMiB',
      default: { derived: '`memory` (no room to grow without a restart)' },
      impact: 'restart',
      description: 'The most memory in MiB the guest can have without a restart (libvirt `<memory>`): at least `memory`.',
    },
    vcpu: {
      type: 'number',
      optional: true,
      computed: true,
      default: 1,
      prop: 'vcpus',
      // TCG (QEMU 7.2, Debian 12) may abort the guest on a hot-added vCPU, and no domain setting libvirt 9.0 offers
      // avoids it (docs/FACTS.md, "TCG: no vCPU hot-plug"): hot-plug only with KVM.
      impact: {
        if: { rule: 'equals', attribute: 'type', value: 'qemu' },
        then: 'restart',
        else: { if: { rule: 'at-most', attribute: 'max_vcpu' }, then: 'live', else: 'restart' },
      },
      description:
        'Virtual CPUs the guest runs with (libvirt `<vcpu current>`); changed live by vCPU hot-plug with KVM (a Linux guest onlines a hot-added CPU when a udev rule or its kernel does so).',
    },
    max_vcpu: {
      type: 'number',
      optional: true,
      computed: true,
      prop: 'maxVcpus',
      default: { derived: '`vcpu` (no room to grow without a restart)' },
      impact: 'restart',
      description: 'The most virtual CPUs the guest can have without a restart (libvirt `<vcpu>`): at least `vcpu`, at most 255.',
    },
    type: {
      type: 'string',
      optional: true,
      computed: true,
      values: { kvm: 'hardware virtualisation', qemu: 'TCG emulation' },
      default: { derived: '`kvm` only where KVM really runs guests' },
      impact: 'restart',
      description: 'Domain type.',
    },
    cpu_mode: {
      type: 'string',
      optional: true,
      values: { 'host-passthrough': '', 'host-model': '', maximum: '', custom: '' },
      impact: 'restart',
      description: "CPU model mode (libvirt's default CPU model when null).",
    },
    firmware: {
      type: 'string',
      optional: true,
      computed: true,
      values: {
        bios: 'SeaBIOS',
        efi: "UEFI: OVMF from the host's `ovmf` package, chosen by libvirt; the domain's NVRAM is created from OVMF's variables template when it starts and removed with the domain",
      },
      default: 'bios',
      replace: true,
      description: 'Boot firmware.',
    },
    secure_boot: {
      type: 'bool',
      optional: true,
      computed: true,
      default: false,
      replace: true,
      description:
        'With `firmware = "efi"`: UEFI secure boot with Microsoft\'s keys enrolled (q35 machine, SMM); the guest\'s boot loader must be signed.',
    },
    kernel: { type: 'string', optional: true, impact: 'restart', description: 'Host path of a kernel for direct kernel boot.' },
    initrd: { type: 'string', optional: true, impact: 'restart', description: 'Host path of an initrd (with `kernel`).' },
    cmdline: { type: 'string', optional: true, impact: 'restart', description: 'Kernel command line (with `kernel`).' },
    cloudinit_seed_id: {
      type: 'string',
      optional: true,
      impact: 'restart',
      description: 'A `virtseed_cloudinit_seed.id`, attached as a read-only cdrom.',
    },
    ignition_id: {
      type: 'string',
      optional: true,
      impact: 'restart',
      description: 'A `virtseed_ignition.id`, passed through fw_cfg `opt/com.coreos/config`.',
    },
    instance_id: {
      type: 'string',
      optional: true,
      replace: { if: { rule: 'equals', attribute: 'reprovision', value: 'recreate' }, whenUnknown: 'replace' },
      impact: { if: { rule: 'equals', attribute: 'reprovision', value: 'next-boot' }, then: 'next-boot', else: 'restart' },
      description: "The seed's (or Ignition config's) `instance_id`. A change re-provisions the guest according to `reprovision`.",
    },
    reprovision: {
      type: 'string',
      optional: true,
      computed: true,
      values: {
        reboot: 'restart the guest on the same disks',
        recreate: 'replace the domain',
        'next-boot': 'only swap the seed',
      },
      default: 'reboot',
      impact: 'none',
      description: 'What a changed `instance_id` does.',
    },
    running: { type: 'bool', optional: true, computed: true, default: true, impact: 'live', description: 'Whether the domain runs.' },
    autostart: {
      type: 'bool',
      optional: true,
      computed: true,
      default: false,
      impact: 'live',
      description: 'Start the domain when libvirtd starts (virDomainSetAutostart).',
    },
    shutdown_timeout: {
      type: 'number',
      optional: true,
      computed: true,
      default: 60,
      impact: 'none',
      description: 'Seconds to wait for a clean shutdown before powering off.',
    },
    console_log: {
      type: 'string',
      computed: true,
      description:
        "Host path of the serial console log (null on a per-user session daemon, `.../session`, whose QEMU cannot write the system log folder). Each start of the guest appends to it, so the previous boots' output (a shutdown's included) stays; libvirt's virtlogd bounds it: at 2 MiB it renames the file to `<path>.1` (older ones to `.2`, `.3`; the oldest is deleted) and starts a new one, so at most 8 MiB per domain (virtlogd.conf `max_size` and `max_backups`, defaults 2097152 and 3).",
    },
    wait_for: {
      type: 'string',
      optional: true,
      computed: true,
      values: {
        none: '',
        lease: "an address appeared: a DHCP lease on the domain's libvirt networks, or the guest agent's",
        'cloud-init': 'cloud-init finished this boot; its module failures fail the apply',
        ignition: 'Ignition finished on the first boot',
      },
      default: 'none',
      impact: 'none',
      description: 'What an apply that starts the guest waits for, read through libvirt only (so it works for remote hosts too).',
    },
    wait_timeout: {
      type: 'number',
      optional: true,
      computed: true,
      default: 600,
      prop: 'waitTimeoutSeconds',
      impact: 'none',
      description:
        "Seconds of silence `wait_for` allows: `cloud-init` and `ignition` give up when the guest's serial console printed nothing for `wait_timeout` seconds, or after 6 × `wait_timeout` in all (a guest that prints for ever); a slow boot that keeps printing (TCG on a busy host) is waited for. `lease` gives up `wait_timeout` seconds after the guest's start. The apply then fails with the last console lines; the guest keeps running.",
    },
    snapshot_before: {
      type: 'string',
      optional: true,
      computed: true,
      values: {
        none: '',
        disruptive:
          "before an apply that restarts or re-provisions the guest: a snapshot of its disks, taken while it is shut down (BIOS and UEFI guests; the guest's cloud-init seed is kept with it)",
        always:
          'before every apply that changes the guest: as `disruptive`, and before other changes of a running BIOS guest a snapshot with its memory (a running UEFI guest, or one with a virtiofs share, gets none: libvirt 9.0 takes none without a shutdown)',
      },
      default: 'none',
      impact: 'none',
      description:
        "Take an internal snapshot (named `virtseed-auto-N`, in the domain's qcow2 disks) before an apply changes the guest. When that apply's `wait_for` then fails, the guest is reverted to the snapshot (disks, definition, seed) and started again, and the apply fails naming the cause and the snapshot; Terraform keeps the prior state, so the next plan shows the same change again. Not for a replaced domain (its disks go with it). Every writable disk must be qcow2.",
    },
    snapshot_keep: {
      type: 'number',
      optional: true,
      computed: true,
      default: 1,
      impact: 'none',
      description:
        'How many automatic snapshots (`snapshot_before`) to keep: after each apply that took one, older ones are deleted (0: none is kept once the apply is over). Destroying the domain deletes them all.',
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
      impact: 'none',
      description:
        "The anti-affinity group the domain belongs to (give it the `anti_affinity` of its `virtseed_placement`): kept in the domain's libvirt metadata, where placements read it, so they never put two domains of a group on one host.",
    },
    change_impact: {
      type: 'string',
      computed: true,
      description:
        'What this plan does to the running guest, the most disruptive of its changes: `none`, `live` (applied to the running guest and its definition, no restart), `restart` (a clean shutdown and start) or `replace` (a new domain). Kept from the last plan when nothing changes.',
    },
    change_impacts: {
      type: 'map(string)',
      computed: true,
      description:
        'Per changed attribute (`memory`, `disk[1]`, `network_interface[0].link_state`, …) what it does: `live`, `restart`, `replace` or `next-boot`, followed by `: <reason>` where a condition decided it (e.g. `restart: above max_vcpu 2`). Changes that do nothing to the guest now (it is shut off) are left out. Kept from the last plan when nothing changes.',
    },
    qemu_agent: {
      type: 'bool',
      optional: true,
      computed: true,
      default: false,
      impact: 'restart',
      description:
        'Give the guest a QEMU guest agent channel (virtio-serial `org.qemu.guest_agent.0`), so `addresses` also holds what a running qemu-guest-agent reports (NICs on user-mode networking or without DHCP).',
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
      impact: { if: { rule: 'equals', attribute: 'bus', value: 'virtio' }, then: 'live', else: 'restart' },
      identity: ['target', 'volume_id', 'file'],
      description: 'A disk. Exactly one of `volume_id` and `file`.',
      fields: {
        volume_id: { type: 'string', optional: true, impact: 'restart', description: 'A `virtseed_volume.id` (volume key).' },
        file: { type: 'string', optional: true, impact: 'restart', description: 'Host path of an image file.' },
        target: {
          type: 'string',
          optional: true,
          computed: true,
          default: { derived: '`vda`, `vdb`, … in order (`sda`, … on `sata` and `scsi`)' },
          impact: 'restart',
          description: 'Guest device.',
        },
        bus: {
          type: 'string',
          optional: true,
          computed: true,
          values: { virtio: '', sata: '', scsi: '' },
          default: 'virtio',
          impact: 'restart',
          description: 'Disk bus.',
        },
        readonly: { type: 'bool', optional: true, computed: true, default: false, impact: 'restart', description: 'Read-only disk.' },
        cache: {
          type: 'string',
          optional: true,
          values: {
            default: "QEMU's default (writeback)",
            none: 'no host page cache (O_DIRECT)',
            writethrough: '',
            writeback: '',
            directsync: 'O_DIRECT and O_DSYNC',
            unsafe: 'flushes ignored: fast, loses data on a host crash',
          },
          impact: 'restart',
          description: "Host cache mode of the disk (libvirt `<driver cache>`); null: QEMU's default.",
        },
        io: {
          type: 'string',
          optional: true,
          values: { threads: '', native: 'Linux AIO; needs `cache` `none` or `directsync`', io_uring: '' },
          impact: 'restart',
          description: "QEMU's I/O backend for the disk (libvirt `<driver io>`); null: QEMU's default (threads).",
        },
        discard: {
          type: 'string',
          optional: true,
          values: { unmap: "the guest's discard (TRIM) frees space in the image", ignore: '' },
          impact: 'restart',
          description: "What a discard request of the guest does (libvirt `<driver discard>`); null: QEMU's default (ignore).",
        },
        serial: {
          type: 'string',
          optional: true,
          impact: 'restart',
          description: 'Serial number the guest sees (`/dev/disk/by-id/virtio-<serial>`): at most 20 letters, digits, spaces or `_ . + -`.',
        },
        rotation_rate: {
          type: 'number',
          optional: true,
          impact: 'restart',
          description:
            'Rotation rate the guest sees (libvirt `<target rotation_rate>`): `1` for a solid-state disk, else 1025 to 65534 rpm; on the `sata` and `scsi` buses only. Null: none reported.',
        },
      },
    },
    network_interface: {
      nesting: 'list',
      impact: { if: { rule: 'equals', attribute: 'user', value: false }, then: 'live', else: 'restart' },
      identity: ['mac', 'network', 'direct'],
      description: 'A network interface: a libvirt network (`network`), or QEMU user networking (`user = true`).',
      fields: {
        network: {
          type: 'string',
          optional: true,
          impact: 'restart',
          description: 'A libvirt network: a `virtseed_network.id` (UUID) or a network name, e.g. `default`.',
        },
        user: {
          type: 'bool',
          optional: true,
          computed: true,
          default: false,
          impact: 'restart',
          description: 'QEMU user-mode networking.',
        },
        restrict: {
          type: 'bool',
          optional: true,
          computed: true,
          default: { if: { rule: 'equals', attribute: 'user', value: true }, then: true, else: false },
          impact: 'restart',
          description: 'With `user`: isolate the guest (no traffic leaves the host).',
        },
        mac: {
          type: 'string',
          optional: true,
          computed: true,
          default: { derived: 'stable, derived from the domain name and position' },
          impact: 'restart',
          description: 'MAC address.',
        },
        model: {
          type: 'string',
          optional: true,
          computed: true,
          values: { virtio: '', e1000: '', rtl8139: '' },
          default: 'virtio',
          impact: 'restart',
          description: 'NIC model.',
        },
        link_state: {
          type: 'string',
          optional: true,
          computed: true,
          values: { up: '', down: 'the virtual cable unplugged: the guest sees no carrier' },
          default: 'up',
          impact: 'live',
          description: 'Link state of the NIC (not on a restricted user-mode NIC).',
        },
        direct: {
          type: 'string',
          optional: true,
          impact: 'restart',
          description:
            "A host NIC (e.g. `eth0`) the guest joins directly through macvtap (libvirt `<interface type='direct'>`), instead of `network` or `user`. The guest is then on that NIC's network; the host itself cannot reach it through the same NIC in `vepa` and `bridge` modes.",
        },
        direct_mode: {
          type: 'string',
          optional: true,
          computed: true,
          values: {
            vepa: 'traffic between guests goes through the external switch',
            bridge: 'guests on the same NIC reach each other directly',
            private: 'guests are isolated from each other',
            passthrough: "the NIC is the guest's alone",
          },
          default: { derived: '`vepa` with `direct`, else null' },
          impact: 'restart',
          description: 'macvtap mode of a `direct` NIC.',
        },
        mtu: {
          type: 'number',
          optional: true,
          impact: 'restart',
          description: "MTU of the guest's NIC in bytes (68–65535; libvirt `<mtu>`); null: the network's.",
        },
        vlan: {
          type: 'number',
          optional: true,
          impact: 'restart',
          description:
            'An 802.1Q VLAN tag (0–4095; libvirt `<vlan><tag>`), applied where the network supports it (Open vSwitch, SR-IOV); checked at define, not on plain Linux bridges.',
        },
        bandwidth: {
          nesting: 'single',
          impact: 'live',
          description:
            "Traffic limits of the NIC (libvirt `<bandwidth>`; not on user-mode NICs): rates in KiB/s, bursts in KiB. Applied to the running guest's tap device too.",
          fields: {
            inbound_average: { type: 'number', optional: true, description: 'Average rate of the traffic the guest receives, KiB/s.' },
            inbound_peak: { type: 'number', optional: true, description: 'Peak rate of the traffic the guest receives, KiB/s.' },
            inbound_burst: { type: 'number', optional: true, description: 'KiB the guest may receive at peak rate.' },
            outbound_average: { type: 'number', optional: true, description: 'Average rate of the traffic the guest sends, KiB/s.' },
            outbound_peak: { type: 'number', optional: true, description: 'Peak rate of the traffic the guest sends, KiB/s.' },
            outbound_burst: { type: 'number', optional: true, description: 'KiB the guest may send at peak rate.' },
          },
        },
      },
    },
    title: {
      type: 'string',
      optional: true,
      impact: 'live',
      description: 'A one-line title of the domain (libvirt `<title>`, shown by `virsh list --title`).',
    },
    description: {
      type: 'string',
      optional: true,
      impact: 'live',
      description: 'Free text about the domain (libvirt `<description>`).',
    },
    metadata: {
      type: 'map(string)',
      optional: true,
      impact: 'live',
      description:
        "Your own key/values, kept in the domain's `<metadata>` under virtseed's namespace `https://virtseed.dev/xmlns/domain-user/1` (`<vsuser:entries><vsuser:entry key=...>`). Values may hold newlines and tabs.",
    },
    on_poweroff: {
      type: 'string',
      optional: true,
      computed: true,
      values: { destroy: 'the domain stops', restart: 'it starts again' },
      default: 'destroy',
      impact: 'live',
      description: 'What happens when the guest powers off (libvirt `<on_poweroff>`).',
    },
    on_reboot: {
      type: 'string',
      optional: true,
      computed: true,
      values: { restart: 'it reboots', destroy: 'the domain stops instead' },
      default: 'restart',
      impact: 'live',
      description:
        'What happens when the guest reboots (libvirt `<on_reboot>`); `destroy` with `on_poweroff = "restart"` is refused (QEMU).',
    },
    on_crash: {
      type: 'string',
      optional: true,
      computed: true,
      values: {
        destroy: 'the domain stops',
        restart: 'it starts again',
        preserve: 'it stays paused for inspection',
        'coredump-destroy': 'a core dump, then it stops',
        'coredump-restart': 'a core dump, then it starts again',
      },
      default: 'destroy',
      impact: 'live',
      description: 'What happens when the guest crashes (a panic device or watchdog reports it; libvirt `<on_crash>`).',
    },
    boot_devices: {
      type: 'list(string)',
      optional: true,
      impact: 'next-boot',
      description: `Boot devices in the order the firmware tries them (libvirt \`<os><boot dev>\`): ${BOOT_DEVICES.map((d) => `\`${d}\``).join(', ')}; null: \`["hd"]\` (not with \`kernel\`). A running guest keeps the order it started with until the domain next starts (a reboot inside the guest too).`,
    },
    boot_menu: {
      type: 'bool',
      optional: true,
      computed: true,
      default: false,
      impact: 'next-boot',
      description: "Show the firmware's boot menu (libvirt `<os><bootmenu>`), from the domain's next start.",
    },
    boot_menu_timeout: {
      type: 'number',
      optional: true,
      impact: 'next-boot',
      description: "Milliseconds the boot menu waits (0–65535), with `boot_menu`; null: the firmware's own.",
    },
    cpu_topology: {
      nesting: 'single',
      impact: 'restart',
      description:
        'How the vCPUs look to the guest (libvirt `<cpu><topology>`): sockets × dies × cores × threads must equal `max_vcpu` (which defaults to `vcpu`).',
      fields: {
        sockets: { type: 'number', required: true, description: 'CPU sockets.' },
        dies: { type: 'number', optional: true, computed: true, default: 1, description: 'Dies per socket.' },
        cores: { type: 'number', required: true, description: 'Cores per die.' },
        threads: { type: 'number', required: true, description: 'Threads per core.' },
      },
    },
    video: {
      type: 'string',
      optional: true,
      computed: true,
      values: { vga: '', cirrus: '', virtio: 'virtio-gpu', qxl: 'for SPICE', bochs: '', ramfb: '', none: 'no display adapter' },
      default: { derived: '`vga` when the domain has `graphics`, else null (no video device)' },
      impact: 'restart',
      description: "The guest's display adapter (libvirt `<video><model>`).",
    },
    graphics: {
      nesting: 'list',
      impact: 'restart',
      description:
        "A remote display of the guest's screen (libvirt `<graphics>`), listening on localhost by default. At most one of each `type`.",
      fields: {
        type: { type: 'string', required: true, values: { vnc: '', spice: '' }, impact: 'restart', description: 'Display protocol.' },
        listen: {
          type: 'string',
          optional: true,
          computed: true,
          default: { derived: '`127.0.0.1` (this host only) unless `socket` is set' },
          impact: 'restart',
          description: 'IP address the display listens on; `0.0.0.0` opens it to every network the host is on.',
        },
        socket: {
          type: 'string',
          optional: true,
          impact: 'restart',
          description:
            'Host path of a unix socket the display listens on instead of a TCP port (QEMU must be able to create it, e.g. under `/var/lib/libvirt/qemu/`).',
        },
        port: {
          type: 'number',
          optional: true,
          impact: 'restart',
          description: 'TCP port (5900–65535); null: the first free port from 5900 when the guest starts (see `display_uri`).',
        },
        password: {
          type: 'string',
          optional: true,
          sensitive: true,
          impact: 'live',
          description:
            "Password a client must give (VNC: at most 8 characters); null: none. Never logged. Reads keep the state's value (libvirt shows passwords only to VIR_DOMAIN_XML_SECURE, which slows every read), so a password changed outside Terraform is not seen as drift. One of `password`, `password_wo`.",
        },
        password_wo: writeOnlyTwin('password', 'string', {
          impact: 'live',
          description:
            '`password` as a write-only value: libvirt gets it in the domain definition; neither plan nor state holds it, and `password_keyed_digest` tells a changed one (set on the running display, as a changed `password` is).',
        }),
        password_keyed_digest: {
          type: 'string',
          computed: true,
          sensitive: true,
          secretDigest: true,
          spec: null,
          description:
            'With `password_wo`: `hmac-sha256:` + the HMAC-SHA256 (hex) of the password under a random key of this domain kept in its private state (docs/write-only.md). Null otherwise.',
        },
        display_uri: {
          type: 'string',
          computed: true,
          description:
            "Where to connect while the guest runs, read from libvirt's live XML: `vnc://127.0.0.1:5901`, `spice://127.0.0.1:5902`, or `vnc+unix:///path` for a socket (as `remote-viewer` takes it); null while the guest is shut off.",
        },
      },
    },
    tpm: {
      nesting: 'single',
      impact: 'restart',
      description:
        "A TPM emulated by swtpm (Debian packages `swtpm`, `swtpm-tools` on the host; libvirt `<tpm><backend type='emulator'>`), e.g. for Windows 11 or measured boot. Its state lives in /var/lib/libvirt/swtpm/<uuid>/ and is removed with the domain.",
      fields: {
        model: {
          type: 'string',
          optional: true,
          computed: true,
          values: { 'tpm-crb': 'TPM 2.0 only', 'tpm-tis': '' },
          default: 'tpm-crb',
          description: 'TPM interface.',
        },
        version: {
          type: 'string',
          optional: true,
          computed: true,
          values: { '2.0': '', '1.2': '' },
          default: '2.0',
          description: 'TPM version.',
        },
      },
    },
    filesystem: {
      nesting: 'list',
      impact: 'restart',
      description:
        "A host directory shared with the guest (libvirt `<filesystem>`). The guest mounts it by its `target` tag: `mount -t virtiofs TAG DIR`, or `mount -t 9p -o trans=virtio TAG DIR`. virtiofs gives the domain shared memory (memfd) for virtiofsd (Debian's /usr/lib/qemu/virtiofsd).",
      fields: {
        source: { type: 'string', required: true, impact: 'restart', description: 'Host directory (absolute path).' },
        target: { type: 'string', required: true, impact: 'restart', description: 'Mount tag the guest names (1–36 characters).' },
        driver: {
          type: 'string',
          optional: true,
          computed: true,
          values: { virtiofs: 'virtiofsd, fast, POSIX semantics', '9p': "QEMU's virtio-9p" },
          default: 'virtiofs',
          impact: 'restart',
          description: 'Sharing protocol.',
        },
        access_mode: {
          type: 'string',
          optional: true,
          computed: true,
          values: { passthrough: "the guest's file owners as they are", mapped: 'owners kept in extended attributes (9p)', squash: '9p' },
          default: 'passthrough',
          impact: 'restart',
          description: 'How file ownership maps to the host (virtiofs: `passthrough` only).',
        },
        readonly: {
          type: 'bool',
          optional: true,
          computed: true,
          default: false,
          impact: 'restart',
          description: 'The guest cannot write (9p only; libvirt 9.0 has no read-only virtiofs).',
        },
      },
    },
    rng: {
      nesting: 'single',
      impact: 'restart',
      description:
        "A virtio hardware random number generator (libvirt `<rng model='virtio'>`): the guest's /dev/hwrng, fed from a host device.",
      fields: {
        source: {
          type: 'string',
          optional: true,
          computed: true,
          default: '/dev/urandom',
          description: 'Host device the entropy comes from.',
        },
        rate_bytes: { type: 'number', optional: true, description: 'At most this many bytes per `rate_period`; null: unlimited.' },
        rate_period: { type: 'number', optional: true, description: 'Milliseconds of a rate period (with `rate_bytes`); null: 1000.' },
      },
    },
    watchdog: {
      nesting: 'single',
      impact: 'restart',
      description: 'A watchdog device (libvirt `<watchdog>`): when the guest stops feeding /dev/watchdog, `action` happens.',
      fields: {
        model: {
          type: 'string',
          optional: true,
          computed: true,
          values: { i6300esb: 'PCI', ib700: 'ISA', itco: 'q35 machines only (`secure_boot`)' },
          default: 'i6300esb',
          description: 'Watchdog model.',
        },
        action: {
          type: 'string',
          optional: true,
          computed: true,
          values: { reset: '', shutdown: 'ACPI shutdown', poweroff: '', pause: '', none: '', dump: '', 'inject-nmi': '' },
          default: 'reset',
          description: 'What happens when the watchdog fires.',
        },
      },
    },
    serial: {
      nesting: 'list',
      impact: 'restart',
      description: 'A serial port beside the console (which is port 0, logged to `console_log`): ports 1, 2, … in order (`/dev/ttyS1`, …).',
      fields: CHAR_FIELDS('serial port'),
    },
    console: {
      nesting: 'list',
      impact: 'restart',
      description: 'A virtio console beside the serial console (`/dev/hvc0`, … in the guest).',
      fields: CHAR_FIELDS('console'),
    },
    channel: {
      nesting: 'list',
      impact: 'restart',
      description:
        "A named virtio-serial port (libvirt `<channel>`; `/dev/virtio-ports/<name>` in the guest). The guest agent's is `qemu_agent`.",
      fields: {
        name: { type: 'string', required: true, description: 'Port name, e.g. `org.example.port.0`.' },
        type: {
          type: 'string',
          optional: true,
          computed: true,
          values: { unix: 'a unix socket on the host', pty: 'a pseudo-terminal', spicevmc: "SPICE's agent channel (with SPICE graphics)" },
          default: 'unix',
          description: 'Host side of the channel.',
        },
        path: { type: 'string', optional: true, description: 'With `unix`: the socket path; null: libvirt picks one.' },
      },
    },
    input: {
      nesting: 'list',
      impact: 'restart',
      description:
        'An input device (libvirt `<input>`). A PS/2 mouse and keyboard are always there; a USB `tablet` makes the VNC pointer follow.',
      fields: {
        type: {
          type: 'string',
          required: true,
          values: { tablet: 'absolute pointer', mouse: '', keyboard: '' },
          description: 'Device type.',
        },
        bus: { type: 'string', optional: true, computed: true, values: { usb: '', virtio: '' }, default: 'usb', description: 'Bus.' },
      },
    },
    hostdev: {
      nesting: 'list',
      impact: 'restart',
      description:
        "A host PCI or USB device passed through to the guest (libvirt `<hostdev mode='subsystem'>`, VFIO for PCI): it is the guest's alone while the guest runs.",
      fields: {
        type: { type: 'string', required: true, values: { pci: '', usb: '' }, description: 'Device bus.' },
        address: {
          type: 'string',
          required: true,
          description:
            'Host address: PCI `DDDD:BB:SS.F` (e.g. `0000:01:00.0`, as `lspci -D` shows), USB `BUS:DEVICE` (e.g. `1:4`, as `lsusb` shows `Bus 001 Device 004`).',
        },
        managed: {
          type: 'bool',
          optional: true,
          computed: true,
          default: true,
          description: 'libvirt detaches the device from its host driver when the guest starts, and gives it back after.',
        },
      },
    },
    xml: {
      nesting: 'single',
      impact: 'restart',
      description:
        "The escape hatch, for what the typed attributes lack: libvirt XML added to the domain's definition (see the device guide, docs/devices.md). Checked against libvirt's own RELAX NG schema at plan where the machine running Terraform has it (`xmllint` and /usr/share/libvirt/schemas), and by libvirtd at apply; kept through reads, so it shows no drift.",
      fields: {
        devices: {
          type: 'string',
          optional: true,
          description: "libvirt device elements appended inside `<devices>`, e.g. `<sound model='ich9'/>`.",
        },
        xslt: {
          type: 'string',
          optional: true,
          description:
            "An XSLT 1.0 stylesheet applied to the whole domain XML (after `devices`), as the libvirt provider 0.8 applied `xml { xslt }`; it must keep `<name>` and virtseed's `<metadata>` element. `xsl:import`, `xsl:include` and `document()` are refused.",
        },
      },
    },
  },
} as const satisfies ResourceFields;
