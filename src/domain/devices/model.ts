/**
 * The typed devices and settings of a domain beyond the provisioning path (issue 22): one type per libvirt XML
 * element (https://libvirt.org/formatdomain.html, libvirt 9.0), unions as tagged variants whose tag is the XML
 * `type` (or `driver`) attribute. Pure data, no I/O; ../model.ts `DomainSpec` holds them.
 *
 * Normal form (what parsing returns, so that parse(render(s)) deep-equals s): optional fields that are at their
 * default are left out, as each field's `@default` says.
 */
import type { BOOT_DEVICES, DOMAIN_FIELDS, ValuesOf } from '../../fields';

/** The domain's field table: the allowed values of its fields are the unions below (src/fields/domain.ts). */
type F = (typeof DOMAIN_FIELDS)['fields'];

/** `<graphics type=...>` (formatdomain "Graphical framebuffers"). */
export type DomainGraphicsType = ValuesOf<F['graphics']['fields']['type']>;

/** `<graphics><listen type='address' address=...>`: a TCP address on the host, e.g. `127.0.0.1`. */
export interface DomainGraphicsListenAddress {
  type: 'address';
  address: string;
}

/** `<graphics><listen type='socket' socket=...>`: a unix socket on the host (absolute path). */
export interface DomainGraphicsListenSocket {
  type: 'socket';
  socket: string;
}

/** `<graphics><listen>`, tagged by `type`. */
export type DomainGraphicsListen = DomainGraphicsListenAddress | DomainGraphicsListenSocket;

/** `<devices><graphics>`: a VNC or SPICE display of the guest's screen. */
export interface DomainGraphics {
  type: DomainGraphicsType;
  listen: DomainGraphicsListen;
  /** `port=`: the TCP port (5900–65535) with an address listener. @default - `autoport='yes'`: the first free port
   *  from 5900 when the domain starts */
  port?: number;
  /** `passwd=`: the password a client must give (VNC uses its first 8 characters). Sensitive. @default - none */
  password?: string;
}

/** `<video><model type=...>` (formatdomain "Video devices"); `none` is a domain without a display adapter. */
export type DomainVideoModel = ValuesOf<F['video']>;

/** `<devices><video>`: the guest's display adapter. libvirt fills in `vram`/`heads` defaults; they are not read. */
export interface DomainVideo {
  model: DomainVideoModel;
}

/** `<filesystem accessmode=...>` of a 9p share: how guest file ownership maps to the host. */
export type DomainFilesystemAccessMode = ValuesOf<F['filesystem']['fields']['access_mode']>;

/**
 * `<filesystem type='mount'><driver type='virtiofs'>`: a host directory shared through virtiofsd (Debian's
 * /usr/lib/qemu/virtiofsd, found by libvirt through /usr/share/qemu/vhost-user/50-qemu-virtiofsd.json). Needs
 * the domain's memory shared with virtiofsd: `DomainSpec.memoryBacking`. The guest mounts it with
 * `mount -t virtiofs <target> <dir>`.
 */
export interface DomainFilesystemVirtiofs {
  driver: 'virtiofs';
  /** `<source dir=...>`: the host directory (absolute path). */
  source: string;
  /** `<target dir=...>`: the mount tag the guest names. */
  target: string;
}

/** `<filesystem type='mount'>` with QEMU's 9p (virtio-9p) driver; the guest mounts it with `mount -t 9p -o
 *  trans=virtio <target> <dir>`. */
export interface DomainFilesystem9p {
  driver: '9p';
  source: string;
  target: string;
  /** `accessmode=`. Parsing omits it when it is the default. @default 'passthrough' */
  accessMode?: DomainFilesystemAccessMode;
  /** `<readonly/>`. Parsing omits it unless true. @default false */
  readonly?: boolean;
}

/** `<devices><filesystem>`, tagged by `driver`. */
export type DomainFilesystem = DomainFilesystemVirtiofs | DomainFilesystem9p;

/** `<memoryBacking><source type='memfd'/><access mode='shared'/>`: guest memory a vhost-user process (virtiofsd)
 *  can map (formatdomain "Memory Backing"). */
export interface DomainMemoryBacking {
  source: 'memfd';
  access: 'shared';
}

/** A character device's host side `<serial|console|channel type='pty'>`: a pseudo-terminal libvirt allocates. */
export interface DomainCharPty {
  type: 'pty';
}

/** `type='file'`: the guest's output is written to a host file (absolute path). */
export interface DomainCharFile {
  type: 'file';
  path: string;
}

/** `type='unix'` with `<source mode='bind' path=...>`: a unix socket QEMU listens on. `path` left out: libvirt
 *  picks one (channels only). */
export interface DomainCharUnix {
  type: 'unix';
  path?: string;
}

/** `type='tcp'` with `<source mode='bind' host=... service=...>` and `<protocol type='raw'>`: a TCP port QEMU
 *  listens on. */
export interface DomainCharTcp {
  type: 'tcp';
  host: string;
  port: number;
}

/** `type='spicevmc'`: the SPICE agent channel (with SPICE graphics). */
export interface DomainCharSpicevmc {
  type: 'spicevmc';
}

/** The host side of a serial port or console, tagged by `type`. */
export type DomainCharSource = DomainCharPty | DomainCharFile | DomainCharUnix | DomainCharTcp;

/** `<devices><serial>` beyond the console's (which is port 0, see `DomainSpec.serialLogFile`): port 1, 2, … in
 *  order. */
export interface DomainSerial {
  source: DomainCharSource;
}

/** `<devices><console><target type='virtio'>`: a virtio console (`/dev/hvc0`, …) beside the serial console. */
export interface DomainConsole {
  source: DomainCharSource;
}

/** `<devices><channel><target type='virtio' name=...>`: a named virtio-serial port (`/dev/virtio-ports/<name>`).
 *  The guest agent's is `DomainSpec.qemuAgent`. */
export interface DomainChannel {
  /** The port name, e.g. `org.example.port.0`. */
  name: string;
  source: DomainCharUnix | DomainCharPty | DomainCharSpicevmc;
}

/** A PCI address `domain:bus:slot.function`, e.g. 0000:01:00.0 (numbers). */
export interface DomainPciAddress {
  domain: number;
  bus: number;
  slot: number;
  function: number;
}

/** `<hostdev mode='subsystem' type='pci'>`: a host PCI device passed through (VFIO), by its host address. */
export interface DomainHostdevPci {
  type: 'pci';
  address: DomainPciAddress;
  /** `managed=`: libvirt detaches the device from its host driver on start. Parsing omits it unless false.
   *  @default true */
  managed?: boolean;
}

/** `<hostdev mode='subsystem' type='usb'>`: a host USB device, by its bus and device number. */
export interface DomainHostdevUsb {
  type: 'usb';
  bus: number;
  device: number;
  /** Parsing omits it unless false. @default true */
  managed?: boolean;
}

/** `<devices><hostdev>`, tagged by `type`. */
export type DomainHostdev = DomainHostdevPci | DomainHostdevUsb;

/** `<os><boot dev=...>`: a boot device, tried in order. */
export type DomainBootDevice = (typeof BOOT_DEVICES)[number];

/** `<os><bootmenu enable='yes' timeout=...>`: the firmware's interactive boot menu. */
export interface DomainBootMenu {
  /** Milliseconds the menu waits (0–65535). @default - the firmware's own */
  timeoutMs?: number;
}

/** `<on_poweroff>`, `<on_reboot>`, `<on_crash>` (formatdomain "Events configuration") as QEMU supports them:
 *  `preserve` and the coredump actions only on crash. */
export type DomainLifecycleAction = ValuesOf<F['on_crash']>;

/** `<interface type='direct'><source mode=...>`: the macvtap mode. */
export type DomainDirectMode = ValuesOf<F['network_interface']['fields']['direct_mode']>;

/** `<bandwidth><inbound|outbound average= peak= burst=>`: average and peak in KiB/s, burst in KiB. */
export interface DomainBandwidthLimit {
  average: number;
  /** @default - no peak rate */
  peak?: number;
  /** @default - no burst size */
  burst?: number;
}

/** `<interface><bandwidth>` (formatdomain "Quality of service"): limits of the traffic into and out of the guest. */
export interface DomainBandwidth {
  /** Traffic the guest receives. @default - unlimited */
  inbound?: DomainBandwidthLimit;
  /** Traffic the guest sends. @default - unlimited */
  outbound?: DomainBandwidthLimit;
}
