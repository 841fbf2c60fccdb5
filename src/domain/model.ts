/**
 * The typed libvirt domain model: the subset of libvirt's domain XML (https://libvirt.org/formatdomain.html) that
 * virtseed renders and reads back. Types are named after the XML element paths they stand for
 * (`DomainDisk` = `<domain><devices><disk>`); unions are tagged variants whose XML `type` attribute is derived
 * when rendering. Pure data, no I/O.
 */
import type { DOMAIN_FIELDS, ValuesOf, VolumeFormat } from '../fields';
import type {
  DomainBandwidth,
  DomainBootDevice,
  DomainBootMenu,
  DomainChannel,
  DomainConsole,
  DomainDirectMode,
  DomainFilesystem,
  DomainGraphics,
  DomainHostdev,
  DomainLifecycleAction,
  DomainMemoryBacking,
  DomainSerial,
  DomainVideo,
} from './devices/model';
import type { DomainCpuTopology, DomainInput, DomainRng, DomainTpm, DomainWatchdog } from './device-options';
import type { DomainDiskOptions } from './disk-options';
import type { DomainNicOptions } from './nic-options';

/** The domain's field table: the allowed values of its fields are the unions below (src/fields/domain.ts). */
type F = (typeof DOMAIN_FIELDS)['fields'];

export type * from './devices/model';

/** `<domain type=...>`: `kvm` (hardware virtualisation) or `qemu` (TCG emulation). */
export type DomainType = ValuesOf<F['type']>;

/** `<cpu mode=...>` (formatdomain "CPU model and topology"). `custom` needs `DomainSpec.cpuModel`. */
export type DomainCpuMode = ValuesOf<F['cpu_mode']>;

/**
 * `<os firmware=...>` (formatdomain "BIOS bootloader"): `bios` is SeaBIOS (libvirt's default, no attribute);
 * `efi` is UEFI (OVMF from Debian's `ovmf`), chosen by libvirt from the host's firmware descriptors
 * (/usr/share/qemu/firmware/*.json) when the domain starts, with a per-domain NVRAM copied from the descriptor's
 * variables template (/var/lib/libvirt/qemu/nvram/NAME_VARS.fd) and removed by an undefine with
 * VIR_DOMAIN_UNDEFINE_NVRAM.
 */
export type DomainFirmware = ValuesOf<F['firmware']>;

/** `<os>` direct kernel boot (formatdomain "Direct kernel boot"). Host paths, absolute. */
export interface DomainOs {
  /** `<os><kernel>`: kernel image on the host. */
  kernel?: string;
  /** `<os><initrd>`: initramfs on the host; needs `kernel`. */
  initrd?: string;
  /** `<os><cmdline>`: kernel command line; needs `kernel`. */
  cmdline?: string;
}

/** `<disk type='file'><source file=...>`: an image file on the host (absolute path). */
export interface DomainDiskSourceFile {
  file: string;
}

/** `<disk type='volume'><source pool=... volume=...>`: a volume of a libvirt storage pool. */
export interface DomainDiskSourceVolume {
  pool: string;
  volume: string;
}

/** `<disk><source>`; the variant decides the disk's `type` attribute (`file` or `volume`). */
export type DomainDiskSource = DomainDiskSourceFile | DomainDiskSourceVolume;

/** `<disk><target bus=...>`. */
export type DomainDiskBus = ValuesOf<F['disk']['fields']['bus']>;

/** `<disk device=...>`. */
export type DomainDiskDevice = 'disk' | 'cdrom';

/** `<disk><driver name='qemu' type=...>`: the image format. */
export type DomainDiskFormat = VolumeFormat;

/** `<domain><devices><disk>`; its options (cache, serial, ...) are ./disk-options.ts `DISK_OPTIONS`. */
export interface DomainDisk extends DomainDiskOptions {
  source: DomainDiskSource;
  /** `<target dev=...>`: `vdX` on the virtio bus, `sdX` on sata/scsi. */
  target: string;
  bus: DomainDiskBus;
  device: DomainDiskDevice;
  /** `<driver type=...>`. @default - no `type` attribute: libvirt treats the image as raw */
  format?: DomainDiskFormat;
  /** `<readonly/>`; required (true) for cdroms. */
  readonly?: boolean;
}

/** `<interface><model type=...>`. */
export type DomainInterfaceModel = ValuesOf<F['network_interface']['fields']['model']>;

/** `<interface><link state=...>` (formatdomain "Modifying virtual link state"). */
export type DomainInterfaceLinkState = ValuesOf<F['network_interface']['fields']['link_state']>;

/**
 * Fields every `<interface>` variant has; its options (`model`, `linkState`, `mtu`, `vlan`: where libvirt keeps
 * each, its values and range) are ./nic-options.ts `NIC_OPTIONS`. Parsing omits an option at its default.
 */
export interface DomainInterfaceCommon extends DomainNicOptions {
  /** `<mac address=...>`, e.g. `52:54:00:12:34:56`. @default - libvirt (or QEMU) assigns one */
  mac?: string;
  /** `<bandwidth>`: traffic limits (not on user-mode NICs). @default - unlimited */
  bandwidth?: DomainBandwidth;
}

/** `<interface type='network'><source network=...>`: a port on a libvirt virtual network. */
export interface DomainInterfaceNetwork extends DomainInterfaceCommon {
  type: 'network';
  network: string;
}

/**
 * QEMU user-mode networking (slirp). `<interface type='user'>` when `restrict` is not set.
 *
 * `restrict: true` isolates the guest (QEMU `-netdev user,restrict=on`: no traffic leaves the host). libvirt 9.0
 * has no XML for slirp's `restrict` (only the passt backend, which is not installed on our hosts), so such an
 * interface is rendered as a QEMU command-line passthrough (`<qemu:commandline>`: `-netdev user,...,restrict=on`
 * plus `-device`), see `private/user-netdev.ts`. libvirt then marks the domain tainted (custom-argv) and does not
 * list the NIC in its own `<devices>`; `parseDomainXml` recognises the arguments and restores the interface.
 */
export interface DomainInterfaceUser extends DomainInterfaceCommon {
  type: 'user';
  /** Parsing omits it unless true. @default false */
  restrict?: boolean;
}

/** `<interface type='bridge'><source bridge=...>`: a host bridge (never for test guests). */
export interface DomainInterfaceBridge extends DomainInterfaceCommon {
  type: 'bridge';
  bridge: string;
}

/**
 * `<interface type='direct'><source dev=... mode=...>`: a macvtap interface on a host NIC (formatdomain "Direct
 * attachment to physical interface"). Never started by tests on a real NIC: the guest would be on its network.
 */
export interface DomainInterfaceDirect extends DomainInterfaceCommon {
  type: 'direct';
  /** The host NIC, e.g. `eth0`. */
  dev: string;
  mode: DomainDirectMode;
}

/** `<domain><devices><interface>`, tagged by `type`. */
export type DomainInterface = DomainInterfaceNetwork | DomainInterfaceUser | DomainInterfaceBridge | DomainInterfaceDirect;

/** `<sysinfo type='fwcfg'><entry name=... file=...>`: a QEMU fw_cfg blob read from a host file (libvirt ≥ 6.5). */
export interface DomainSysinfoFwCfgEntry {
  /** fw_cfg key, must start with `opt/`, e.g. `opt/com.coreos/config`; at most 55 characters. */
  name: string;
  /** Absolute host path of the content. */
  file: string;
}

/** A libvirt domain as virtseed defines it (contract: docs/CONTRACTS.md "Domain model"). */
export interface DomainSpec {
  /** `<name>`: letters, digits, `.`, `_`, `-`; starts with a letter or digit; at most 64 characters. */
  name: string;
  /** `<uuid>` in 8-4-4-4-12 hex form. @default - libvirt generates one */
  uuid?: string;
  type: DomainType;
  /** `<currentMemory unit='KiB'>`, in MiB (rendered × 1024 as KiB): what the guest has (the balloon's target).
   *  At least 64. */
  memoryMiB: number;
  /** `<memory unit='KiB'>`, in MiB: the most the guest can have without a restart (virtio-balloon grows the guest
   *  up to it). At least `memoryMiB`. Parsing omits it when it equals `memoryMiB`. @default memoryMiB */
  maxMemoryMiB?: number;
  /** The vCPUs the guest runs with (`<vcpu current=...>`): 1..255. */
  vcpu: number;
  /** `<vcpu>`: the most vCPUs the guest can have without a restart (hot-plug up to it). At least `vcpu`, at most
   *  255. Parsing omits it when it equals `vcpu`. @default vcpu */
  maxVcpu?: number;
  /** `<cpu mode=...>`. @default - no `<cpu>` element (libvirt's default CPU model) */
  cpuMode?: DomainCpuMode;
  /** `<cpu><model>` for `cpuMode: 'custom'`, e.g. `qemu64`. */
  cpuModel?: string;
  /** Boot firmware. Parsing omits it when it is `bios`. @default 'bios' */
  firmware?: DomainFirmware;
  /**
   * With `firmware: 'efi'`: UEFI secure boot with Microsoft's keys enrolled (OVMF's `secure-boot` and
   * `enrolled-keys` descriptor features), which needs SMM and the q35 machine, so it renders machine `q35` and
   * `<smm state='on'/>`. Parsing omits it unless true. @default false
   */
  secureBoot?: boolean;
  /** Direct kernel boot. @default - `<boot dev='hd'/>`: boot from the first disk */
  os?: DomainOs;
  disks: DomainDisk[];
  interfaces: DomainInterface[];
  /** Serial console (pty) logged to this absolute host file (`<serial><log file=... append='on'>`: each start adds
   *  to it, so the previous boot's output stays; virtlogd rolls it over at its max_size, 2 MiB by default).
   *  @default - a pty serial console without log */
  serialLogFile?: string;
  /** A QEMU guest agent channel: `<channel type='unix'><target type='virtio' name='org.qemu.guest_agent.0'/>`
   *  (formatdomain "Channel"; libvirt picks the host socket path). Lets libvirt ask the agent for the guest's
   *  addresses. Parsing omits it unless present. @default false */
  qemuAgent?: boolean;
  /** `<sysinfo type='fwcfg'>` entries, e.g. Ignition's `opt/com.coreos/config`. */
  fwCfg?: DomainSysinfoFwCfgEntry[];
  /** Extra QEMU arguments, `<qemu:commandline><qemu:arg value=...>` each (taints the domain). */
  qemuCommandline?: string[];
  /** Key/values in virtseed's metadata element (instance-id, reprovision policy, seed sha256 ...). Keys are
   *  free text; values may contain newlines and tabs but no other control characters. */
  metadata?: Record<string, string>;

  // Settings and devices of issue 22 (./devices/model.ts). Each is left out when absent or at its default.
  /** `<title>`: a one-line title (no newlines). */
  title?: string;
  /** `<description>`: free text. */
  description?: string;
  /** The user's own key/values, in their own `<metadata>` element (`USER_METADATA_XML_NAMESPACE`); same rules as
   *  `metadata`. */
  userMetadata?: Record<string, string>;
  /** `<memoryBacking>`: shared guest memory, needed by virtiofs filesystems. */
  memoryBacking?: DomainMemoryBacking;
  /** `<cpu><topology>`: its product must equal the maximum vCPUs (`maxVcpu`, else `vcpu`). */
  cpuTopology?: DomainCpuTopology;
  /** `<os><boot dev=...>` in order (not with direct kernel boot). Parsing omits `['hd']`. @default ['hd'] */
  bootDevices?: DomainBootDevice[];
  /** `<os><bootmenu enable='yes'>`. @default - no boot menu */
  bootMenu?: DomainBootMenu;
  /** `<on_poweroff>`: `destroy` or `restart`. Parsing omits the default. @default 'destroy' */
  onPoweroff?: DomainLifecycleAction;
  /** `<on_reboot>`: `destroy` or `restart`. Parsing omits the default. @default 'restart' */
  onReboot?: DomainLifecycleAction;
  /** `<on_crash>`. Parsing omits the default. @default 'destroy' */
  onCrash?: DomainLifecycleAction;
  graphics?: DomainGraphics[];
  video?: DomainVideo;
  tpm?: DomainTpm;
  filesystems?: DomainFilesystem[];
  rng?: DomainRng;
  watchdog?: DomainWatchdog;
  /** Serial ports 1, 2, … (port 0 is the console). */
  serials?: DomainSerial[];
  /** virtio consoles. */
  consoles?: DomainConsole[];
  /** virtio-serial channels (besides the guest agent's). */
  channels?: DomainChannel[];
  inputs?: DomainInput[];
  hostdevs?: DomainHostdev[];
  /**
   * The escape hatch (./escape-hatch.ts): libvirt device elements as XML text (e.g. `<sound model='ich9'/>`),
   * appended verbatim inside `<devices>`. Parsing returns it only when told which elements to look for.
   */
  extraDevices?: string;
}

/** The virtio-serial port name of the QEMU guest agent channel (`<channel><target name=...>`). */
export const QEMU_AGENT_CHANNEL_NAME = 'org.qemu.guest_agent.0';

/** Namespace of libvirt's QEMU extensions (`<qemu:commandline>`). */
export const QEMU_XML_NAMESPACE = 'http://libvirt.org/schemas/domain/qemu/1.0';

/** Namespace of virtseed's `<metadata>` element: `<virtseed:instance><virtseed:entry key=...>value</...>`. */
export const VIRTSEED_XML_NAMESPACE = 'https://virtseed.dev/xmlns/domain/1';

/** Namespace of the user's own key/values in `<metadata>` (`DomainSpec.userMetadata`): `<vsuser:entries>`. */
export const USER_METADATA_XML_NAMESPACE = 'https://virtseed.dev/xmlns/domain-user/1';

/** Metadata keys virtseed itself writes (other keys are allowed). */
export const METADATA_KEYS = {
  instanceId: 'instance-id',
  reprovisionPolicy: 'reprovision-policy',
  seedSha256: 'seed-sha256',
  /** The anti-affinity group a placement put the domain in (`virtseed_domain.anti_affinity`). */
  antiAffinity: 'anti-affinity',
} as const;
