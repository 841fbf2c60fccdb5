/**
 * The devices and settings of a {@link VirtualMachine} beyond disks and networks (issue 22), as value objects and
 * enums: each renders one block (or attribute) of `virtseed_domain` (its field table is src/fields/domain.ts; the
 * libvirt XML each stands for is in docs/devices.md). Create them with the static factories.
 */
import type {
  DomainChannel,
  DomainCharSource,
  DomainDiskOptions,
  DomainFilesystem,
  DomainHostdev,
  DomainInput,
  DomainTpm,
  DomainWatchdog,
} from '../../src/domain';
import { mutuallyExclusive } from './errors';
import { secretReference } from './secrets';

/** What happens on a guest event (libvirt formatdomain "Events configuration"). Changing it: live (no restart). */
export enum LifecycleAction {
  /** The domain stops. */
  DESTROY = 'destroy',
  /** The domain starts again. */
  RESTART = 'restart',
  /** On crash only: the domain stays paused for inspection. */
  PRESERVE = 'preserve',
  /** On crash only: a core dump, then the domain stops. */
  COREDUMP_DESTROY = 'coredump-destroy',
  /** On crash only: a core dump, then the domain starts again. */
  COREDUMP_RESTART = 'coredump-restart',
}

/** A boot device, tried in the order given. */
export enum BootDevice {
  HD = 'hd',
  CDROM = 'cdrom',
  NETWORK = 'network',
  FLOPPY = 'fd',
}

/** Boot order and menu. Changing them: from the domain's next start (a running guest keeps its order). */
export interface BootOptions {
  /**
   * Boot devices in order (not with direct kernel boot).
   * @default [BootDevice.HD]
   */
  readonly devices?: BootDevice[];
  /**
   * Show the firmware's boot menu.
   * @default false
   */
  readonly menu?: boolean;
  /**
   * Milliseconds the boot menu waits (0–65535), with `menu`.
   * @default - the firmware's own
   */
  readonly menuTimeoutMs?: number;
}

/** How the vCPUs look to the guest: sockets × dies × cores × threads must equal the maximum vCPUs. Changing it:
 *  restarts a running guest. */
export interface CpuTopology {
  readonly sockets: number;
  /** @default 1 */
  readonly dies?: number;
  readonly cores: number;
  readonly threads: number;
}

/** The guest's display adapter. Changing it: restarts a running guest. */
export enum VideoModel {
  VGA = 'vga',
  CIRRUS = 'cirrus',
  /** virtio-gpu. */
  VIRTIO = 'virtio',
  /** For SPICE. */
  QXL = 'qxl',
  BOCHS = 'bochs',
  RAMFB = 'ramfb',
  /** No display adapter. */
  NONE = 'none',
}

/** Options of {@link Graphics.vnc} and {@link Graphics.spice}. */
export interface GraphicsOptions {
  /**
   * IP address to listen on; `0.0.0.0` opens the display to every network the host is on.
   * @default '127.0.0.1' (unless `socket`)
   */
  readonly listen?: string;
  /**
   * Host path of a unix socket to listen on instead of a TCP port.
   * @default - a TCP port
   */
  readonly socket?: string;
  /**
   * TCP port (5900–65535).
   * @default - the first free port from 5900 when the guest starts (the domain's `display_uri` says which)
   */
  readonly port?: number;
  /**
   * Password a client must give (VNC: at most 8 characters). Sensitive. Changing it: live (no restart).
   * @default - none
   */
  readonly password?: string;
  /**
   * `password` as a secret: a Terraform reference (`secretVariable(this, 'vnc').stringValue`, `Fn.file(path)`)
   * sent to the provider's write-only `password_wo` (libvirt gets it in the domain definition), never written into
   * `cdk.tf.json`, the plan or the state. Exclusive with `password`. Changing it: live (no restart).
   * @default - none
   */
  readonly passwordSecret?: string;
}

/** The rendered form of a display: one `graphics` block of `virtseed_domain`. */
export interface GraphicsConfig extends Omit<GraphicsOptions, 'passwordSecret'> {
  readonly type: 'vnc' | 'spice';
  /** The write-only password (a Terraform reference). */
  readonly passwordWo?: string;
}

/** A remote display of the guest's screen, on localhost by default. Adding or removing one restarts a running guest. */
export class Graphics {
  /** @throws ConstructPropsError for a `passwordSecret` that is a plain string or given with `password`. */
  static vnc(options: GraphicsOptions = {}): Graphics {
    return new Graphics(graphicsConfig('vnc', options));
  }

  /** @throws ConstructPropsError as {@link Graphics.vnc}. */
  static spice(options: GraphicsOptions = {}): Graphics {
    return new Graphics(graphicsConfig('spice', options));
  }

  private constructor(readonly config: GraphicsConfig) {}
}

function graphicsConfig(type: GraphicsConfig['type'], options: GraphicsOptions): GraphicsConfig {
  const { passwordSecret, ...rest } = options;
  if (passwordSecret === undefined) return { type, ...rest };
  if (rest.password !== undefined)
    throw mutuallyExclusive(
      `Graphics.${type} password`,
      'passwordSecret',
      'Give the password in clear (password) or as a secret (passwordSecret).',
    );
  return { type, ...rest, passwordWo: secretReference(`Graphics.${type} passwordSecret`, passwordSecret) };
}

/** The rendered form of a TPM: the `tpm` block of `virtseed_domain` (src/domain/device-options.ts `TPM_OPTIONS`). */
export interface TpmConfig {
  readonly model: DomainTpm['model'];
  readonly version: DomainTpm['version'];
}

/** A TPM emulated by swtpm on the host (Debian `swtpm`, `swtpm-tools`); its state is removed with the domain. */
export class Tpm {
  /** TPM 2.0 over CRB (what Windows 11 and measured boot want). */
  static v2(): Tpm {
    return new Tpm({ model: 'tpm-crb', version: '2.0' });
  }

  /** A TPM 1.2 over TIS (older guests). */
  static v12(): Tpm {
    return new Tpm({ model: 'tpm-tis', version: '1.2' });
  }

  private constructor(readonly config: TpmConfig) {}
}

/** The rendered form of a share: one `filesystem` block of `virtseed_domain`. */
export interface FilesystemConfig {
  readonly source: string;
  readonly target: string;
  readonly driver: DomainFilesystem['driver'];
  readonly accessMode?: 'passthrough' | 'mapped' | 'squash';
  readonly readonly?: boolean;
}

/** Options of {@link Filesystem.ninep}. */
export interface NinePOptions {
  /**
   * How file ownership maps to the host.
   * @default 'passthrough'
   */
  readonly accessMode?: 'passthrough' | 'mapped' | 'squash';
  /**
   * The guest cannot write.
   * @default false
   */
  readonly readonly?: boolean;
}

/** A host directory shared with the guest, mounted by its tag. Changing it: restarts a running guest. */
export class Filesystem {
  /** virtiofs (virtiofsd; the domain gets shared memory): `mount -t virtiofs TAG DIR` in the guest. */
  static virtiofs(source: string, tag: string): Filesystem {
    return new Filesystem({ source, target: tag, driver: 'virtiofs' });
  }

  /** QEMU's 9p: `mount -t 9p -o trans=virtio TAG DIR` in the guest. */
  static ninep(source: string, tag: string, options: NinePOptions = {}): Filesystem {
    return new Filesystem({ source, target: tag, driver: '9p', ...options });
  }

  private constructor(readonly config: FilesystemConfig) {}
}

/** Options of {@link Rng.virtio}. */
export interface RngOptions {
  /**
   * Host device the entropy comes from.
   * @default '/dev/urandom'
   */
  readonly source?: string;
  /**
   * At most this many bytes per `ratePeriodMs`.
   * @default - unlimited
   */
  readonly rateBytes?: number;
  /**
   * Milliseconds of a rate period.
   * @default 1000
   */
  readonly ratePeriodMs?: number;
}

/** A virtio hardware RNG (the guest's /dev/hwrng). Changing it: restarts a running guest. */
export class Rng {
  static virtio(options: RngOptions = {}): Rng {
    return new Rng(options);
  }

  private constructor(readonly options: RngOptions) {}
}

/** What a watchdog does when the guest stops feeding it. */
export enum WatchdogAction {
  RESET = 'reset',
  SHUTDOWN = 'shutdown',
  POWEROFF = 'poweroff',
  PAUSE = 'pause',
  NONE = 'none',
  DUMP = 'dump',
  INJECT_NMI = 'inject-nmi',
}

/** A watchdog device (/dev/watchdog in the guest). Changing it: restarts a running guest. */
export class Watchdog {
  /** The PCI i6300esb. */
  static i6300esb(action: WatchdogAction = WatchdogAction.RESET): Watchdog {
    return new Watchdog('i6300esb', action);
  }

  /** The ISA ib700. */
  static ib700(action: WatchdogAction = WatchdogAction.RESET): Watchdog {
    return new Watchdog('ib700', action);
  }

  private constructor(
    readonly model: Exclude<DomainWatchdog['model'], 'itco'>,
    readonly action: WatchdogAction,
  ) {}
}

/** The rendered form of a serial port or console: one `serial`/`console` block of `virtseed_domain`. */
export interface CharDeviceConfig {
  readonly type: DomainCharSource['type'];
  readonly path?: string;
  readonly host?: string;
  readonly port?: number;
}

/** The host side of a serial port or virtio console. Changing it: restarts a running guest. */
export class CharDevice {
  /** A pseudo-terminal (`virsh console`). */
  static pty(): CharDevice {
    return new CharDevice({ type: 'pty' });
  }

  /** The guest's output written to a host file. */
  static file(path: string): CharDevice {
    return new CharDevice({ type: 'file', path });
  }

  /** A unix socket QEMU listens on. */
  static unix(path: string): CharDevice {
    return new CharDevice({ type: 'unix', path });
  }

  /** A TCP port QEMU listens on (raw), on `host` (default 127.0.0.1). */
  static tcp(port: number, host?: string): CharDevice {
    return new CharDevice({ type: 'tcp', port, host });
  }

  private constructor(readonly config: CharDeviceConfig) {}
}

/** The rendered form of a channel: one `channel` block of `virtseed_domain`. */
export interface ChannelConfig {
  readonly name: string;
  readonly type: DomainChannel['source']['type'];
  readonly path?: string;
}

/** A named virtio-serial port (`/dev/virtio-ports/NAME` in the guest). Changing it: restarts a running guest. */
export class Channel {
  /** On a unix socket of the host (`path`, or one libvirt picks). */
  static unix(name: string, path?: string): Channel {
    return new Channel({ name, type: 'unix', path });
  }

  /** On a pseudo-terminal. */
  static pty(name: string): Channel {
    return new Channel({ name, type: 'pty' });
  }

  /** SPICE's agent channel (`com.redhat.spice.0`), with SPICE graphics. */
  static spiceAgent(): Channel {
    return new Channel({ name: 'com.redhat.spice.0', type: 'spicevmc' });
  }

  private constructor(readonly config: ChannelConfig) {}
}

/** An input device (a PS/2 mouse and keyboard are always there). Changing it: restarts a running guest. */
export class InputDevice {
  /** A USB (or virtio) tablet: the VNC pointer follows. */
  static tablet(bus: DomainInput['bus'] = 'usb'): InputDevice {
    return new InputDevice('tablet', bus);
  }

  static mouse(bus: DomainInput['bus'] = 'usb'): InputDevice {
    return new InputDevice('mouse', bus);
  }

  static keyboard(bus: DomainInput['bus'] = 'usb'): InputDevice {
    return new InputDevice('keyboard', bus);
  }

  private constructor(
    readonly type: DomainInput['type'],
    readonly bus: DomainInput['bus'],
  ) {}
}

/** Options of {@link HostDevice}. */
export interface HostDeviceOptions {
  /**
   * libvirt detaches the device from its host driver while the guest runs.
   * @default true
   */
  readonly managed?: boolean;
}

/** A host PCI or USB device passed through to the guest, by its host address. Changing it: restarts a running guest. */
export class HostDevice {
  /** A PCI device at `DDDD:BB:SS.F` (as `lspci -D` shows it), e.g. `0000:01:00.0`. */
  static pci(address: string, options: HostDeviceOptions = {}): HostDevice {
    return new HostDevice('pci', address, options.managed);
  }

  /** A USB device at `BUS:DEVICE` (decimal), e.g. `1:4` for lsusb's `Bus 001 Device 004`. */
  static usb(address: string, options: HostDeviceOptions = {}): HostDevice {
    return new HostDevice('usb', address, options.managed);
  }

  private constructor(
    readonly type: DomainHostdev['type'],
    readonly address: string,
    readonly managed?: boolean,
  ) {}
}

/**
 * Host cache, I/O and discard options and the serial number of a disk (src/domain/disk-options.ts `DISK_OPTIONS`:
 * one prop per option, its values the field table's). Changing them: restarts a running guest.
 */
export interface DiskOptions {
  /**
   * Host cache mode.
   * @default - QEMU's (writeback)
   */
  readonly cache?: DomainDiskOptions['cache'];
  /**
   * I/O backend (`native` needs cache `none` or `directsync`).
   * @default - QEMU's (threads)
   */
  readonly io?: DomainDiskOptions['io'];
  /**
   * Whether the guest's discard (TRIM) frees space in the image.
   * @default - QEMU's (ignore)
   */
  readonly discard?: DomainDiskOptions['discard'];
  /**
   * Serial number the guest sees (at most 20 letters, digits, spaces or `_ . + -`).
   * @default - none
   */
  readonly serial?: string;
  /**
   * Rotation rate the guest sees: `1` for a solid-state disk, else 1025 to 65534 rpm (sata and scsi buses only).
   * @default - none reported
   */
  readonly rotationRate?: number;
}

/**
 * The escape hatch, for what the typed props lack (see docs/devices.md): extra libvirt device elements and/or an
 * XSLT 1.0 stylesheet applied to the whole domain XML. Checked against libvirt's schema at plan where Terraform's
 * machine has it, and by libvirtd at apply. Changing it: restarts a running guest.
 */
export interface DomainXml {
  /**
   * libvirt device elements appended inside `<devices>`, e.g. `<sound model='ich9'/>`.
   * @default - none
   */
  readonly devices?: string;
  /**
   * An XSLT 1.0 stylesheet applied to the domain XML (it must keep `<name>` and virtseed's `<metadata>`).
   * @default - none
   */
  readonly xslt?: string;
}
