/**
 * Properties of a {@link VirtualMachine} and the option types only they use, in a file of their own so the helpers
 * that read them (device-spec.ts) need not import the construct.
 */
import type { IgnitionSpec } from '../../src/seed/ignition';
import type { BaseImage } from './base-image';
import type { CloudInit } from './cloud-init';
import type {
  BootOptions,
  Channel,
  CharDevice,
  CpuTopology,
  DiskOptions,
  DomainXml,
  Filesystem,
  Graphics,
  HostDevice,
  InputDevice,
  LifecycleAction,
  Rng,
  Tpm,
  VideoModel,
  Watchdog,
} from './devices';
import type { Firmware } from './firmware';
import type { Placement } from './host-pool';
import type { IgnitionConfig } from './ignition-config';
import type { NetworkAttachment } from './network-attachment';
import type { Reprovision } from './reprovision';
import type { Size } from './size';
import type { StoragePool } from './storage-pool';
import type { SnapshotBefore } from './snapshot-before';
import type { WaitFor } from './wait-for';

/** Direct kernel boot: the host's kernel and initrd files, instead of the boot loader on the root disk. */
export interface KernelBoot {
  /** Host path of the kernel image, e.g. `/var/cache/images/vmlinuz`. */
  readonly kernel: string;
  /**
   * Host path of the initrd.
   * @default - none
   */
  readonly initrd?: string;
  /**
   * Kernel command line, e.g. `root=/dev/vda rw console=ttyS0,115200`.
   * @default - empty
   */
  readonly cmdline?: string;
}

/** An Ignition config created by the virtual machine itself. */
export interface VirtualMachineIgnitionProps {
  /** The Ignition config: typed (spec 3.x) or raw JSON text. */
  readonly config: IgnitionSpec | string;
  /**
   * Name of the config volume.
   * @default `<name>-ignition`
   */
  readonly name?: string;
}

/** Properties of a {@link VirtualMachine}. */
export interface VirtualMachineProps {
  /**
   * Domain name, also the prefix of its own volumes (`<name>-root`, `<name>-seed`). Changing it: replaces the
   * domain.
   */
  readonly name: string;
  /**
   * Storage pool for the volumes and the seed: a pool's name, or a {@link StoragePool} of the stack (the volumes
   * then refer to it, so Terraform creates the pool first and deletes them before it).
   * @default 'default'
   */
  readonly pool?: string | StoragePool;
  /**
   * The host the VM is placed on by a {@link HostPool}: `pool.place({ antiAffinity: 'web' })`. Its domain,
   * volumes and seed follow the host the placement chooses at plan; a new pin or a rebalance moves the VM (live
   * when it runs and both hosts answer). Exclusive with `host`.
   * @default - `host`, else the provider's default host
   */
  readonly placement?: Placement;
  /**
   * A fixed host (a {@link HostPool} host's name) for the VM's domain, volumes and seed. Exclusive with `placement`.
   * @default - the provider's default host
   */
  readonly host?: string;
  /** The image the root disk is layered on (copy-on-write). */
  readonly baseImage: BaseImage;
  /**
   * Virtual size of the root disk.
   * @default - the base image's virtual size
   */
  readonly diskSize?: Size;
  /**
   * Memory in MiB. Changing it: live (no restart) up to `max_memory`, else restarts a running guest.
   * (`max_memory` is {@link VirtualMachineProps.maxMemoryMiB}; the guest's virtio balloon takes the change.)
   * @default 512
   */
  readonly memoryMiB?: number;
  /**
   * The most memory in MiB the guest can have without a restart (libvirt `<memory>`), so that `memoryMiB` can
   * change live up to it. Changing it: restarts a running guest.
   * @default - `memoryMiB` (no room to grow without a restart)
   */
  readonly maxMemoryMiB?: number;
  /**
   * Number of virtual CPUs. Changing it: restarts a running guest with `type = "qemu"`, else live (no restart) up to
   * `max_vcpu`, else restarts a running guest. (`max_vcpu` is {@link VirtualMachineProps.maxVcpus}; under KVM CPUs
   * are hot-plugged, and a Linux guest onlines them when a udev rule or its kernel does so; QEMU's TCG, `type =
   * "qemu"`, cannot hot-plug them.)
   * @default 1
   */
  readonly vcpus?: number;
  /**
   * The most virtual CPUs the guest can have without a restart (libvirt `<vcpu>`), so that `vcpus` can change live
   * up to it. Changing it: restarts a running guest.
   * @default - `vcpus` (no room to grow without a restart)
   */
  readonly maxVcpus?: number;
  /**
   * cloud-init content, delivered as a seed ISO (cdrom). Exclusive with `ignition`.
   * @default - no cloud-init seed
   */
  readonly cloudInit?: CloudInit;
  /**
   * Ignition config, delivered through fw_cfg: an existing {@link IgnitionConfig} or the config to create one.
   * Exclusive with `cloudInit`.
   * @default - no Ignition config
   */
  readonly ignition?: IgnitionConfig | VirtualMachineIgnitionProps;
  /**
   * Boot firmware. Changing it: replaces the domain.
   * @default Firmware.BIOS
   */
  readonly firmware?: Firmware;
  /**
   * UEFI secure boot with Microsoft's keys enrolled (needs `firmware: Firmware.EFI` and a signed boot loader in the
   * image; the domain runs on the q35 machine with SMM). Changing it: replaces the domain.
   * @default false
   */
  readonly secureBoot?: boolean;
  /**
   * Direct kernel boot. Changing it: restarts a running guest.
   * @default - boot from the root disk
   */
  readonly kernel?: KernelBoot;
  /**
   * Network interfaces, in order: on a {@link Network} (`network.attach()`), on an existing libvirt network
   * (`NetworkAttachment.libvirtNetwork('name')`), or QEMU user-mode networking (`NetworkAttachment.userMode()`:
   * restricted, nothing reaches the guest and nothing leaves the host).
   * @default - one interface on the libvirt network named `default` (`NetworkAttachment.libvirtNetwork('default')`;
   *   Debian's and Fedora's libvirt define it as NAT 192.168.122.0/24)
   */
  readonly networks?: NetworkAttachment[];
  /**
   * Give the guest a QEMU guest agent channel, so `addresses` also holds what a running qemu-guest-agent reports
   * (the guest must run it, e.g. cloud-init `packages: ['qemu-guest-agent']`). Changing it: restarts a running guest.
   * @default false
   */
  readonly qemuAgent?: boolean;
  /**
   * What happens to the guest when the instance-id changes. Changing it: no effect on the guest.
   * @default Reprovision.REBOOT
   */
  readonly reprovision?: Reprovision;
  /**
   * Keep the domain running (true) or defined and shut off (false). Changing it: live (no restart).
   * @default true
   */
  readonly running?: boolean;
  /**
   * Start the domain when libvirtd starts (virDomainSetAutostart). Changing it: live (no restart).
   * @default false
   */
  readonly autostart?: boolean;
  /**
   * What a deploy that starts the guest waits for: `WaitFor.CLOUD_INIT` (needs `cloudInit`) or `WaitFor.IGNITION`
   * (needs `ignition`) make the deploy return once the guest is provisioned, and fail with the agent's errors.
   * Changing it: no effect on the guest.
   * @default WaitFor.NONE
   */
  readonly waitFor?: WaitFor;
  /**
   * Seconds of console silence `waitFor` allows before the deploy fails (the guest keeps running): `CLOUD_INIT`
   * and `IGNITION` give up when the guest's serial console printed nothing for this long, or after 6 times this in
   * all; `LEASE` gives up this long after the guest's start. Changing it: no effect on the guest.
   * @default 600
   */
  readonly waitTimeoutSeconds?: number;
  /**
   * Take a snapshot (`virtseed-auto-N`, inside the root disk) before a deploy changes the guest; when that deploy's
   * `waitFor` fails, the guest is reverted to it (disks, definition, the seed it booted with) and started again, and
   * the deploy fails naming the cause and the snapshot. Needs a `waitFor` to revert automatically. Changing it: no
   * effect on the guest.
   * @default SnapshotBefore.NONE
   */
  readonly snapshotBefore?: SnapshotBefore;
  /**
   * How many automatic snapshots to keep; older ones are deleted after each deploy that took one (0: none is kept
   * once the deploy is over). Destroying the machine deletes them all. Changing it: no effect on the guest.
   * @default 1
   */
  readonly snapshotKeep?: number;
  /**
   * A one-line title (libvirt `<title>`, `virsh list --title`). Changing it: live (no restart).
   * @default - none
   */
  readonly title?: string;
  /**
   * Free text about the domain (libvirt `<description>`). Changing it: live (no restart).
   * @default - none
   */
  readonly description?: string;
  /**
   * Your own key/values, kept in the domain's `<metadata>`. Changing it: live (no restart).
   * @default - none
   */
  readonly metadata?: Record<string, string>;
  /**
   * What happens when the guest powers off: `DESTROY` or `RESTART`. Changing it: live (no restart).
   * @default LifecycleAction.DESTROY
   */
  readonly onPoweroff?: LifecycleAction;
  /**
   * What happens when the guest reboots: `RESTART` or `DESTROY`. Changing it: live (no restart).
   * @default LifecycleAction.RESTART
   */
  readonly onReboot?: LifecycleAction;
  /**
   * What happens when the guest crashes. Changing it: live (no restart).
   * @default LifecycleAction.DESTROY
   */
  readonly onCrash?: LifecycleAction;
  /**
   * Boot order and menu.
   * @default - boot from the root disk, no menu
   */
  readonly boot?: BootOptions;
  /**
   * How the vCPUs look to the guest; sockets × dies × cores × threads must equal `maxVcpus` (else `vcpus`).
   * @default - libvirt's (one socket per vCPU)
   */
  readonly cpuTopology?: CpuTopology;
  /**
   * Remote displays: `Graphics.vnc()`, `Graphics.spice()` (localhost unless told otherwise). The domain's
   * `display_uri` says where to connect ({@link VirtualMachine.displayUri}).
   * @default - none
   */
  readonly graphics?: Graphics[];
  /**
   * The display adapter. Changing it: restarts a running guest.
   * @default - VideoModel.VGA with graphics, else none
   */
  readonly video?: VideoModel;
  /**
   * A TPM emulated by swtpm: `Tpm.v2()`.
   * @default - none
   */
  readonly tpm?: Tpm;
  /**
   * Host directories shared with the guest: `Filesystem.virtiofs(dir, tag)`, `Filesystem.ninep(dir, tag)`.
   * @default - none
   */
  readonly filesystems?: Filesystem[];
  /**
   * A virtio hardware RNG: `Rng.virtio()`.
   * @default - none
   */
  readonly rng?: Rng;
  /**
   * A watchdog: `Watchdog.i6300esb()`.
   * @default - none
   */
  readonly watchdog?: Watchdog;
  /**
   * Serial ports beside the console (ports 1, 2, …): `CharDevice.file(path)`, `.unix(path)`, `.tcp(port)`, `.pty()`.
   * @default - none
   */
  readonly serialPorts?: CharDevice[];
  /**
   * virtio consoles (`/dev/hvc0`, …).
   * @default - none
   */
  readonly consoles?: CharDevice[];
  /**
   * Named virtio-serial ports: `Channel.unix(name)`, `Channel.spiceAgent()`.
   * @default - none
   */
  readonly channels?: Channel[];
  /**
   * Input devices beside the PS/2 mouse and keyboard: `InputDevice.tablet()`.
   * @default - none
   */
  readonly inputs?: InputDevice[];
  /**
   * Host PCI or USB devices passed through: `HostDevice.pci('0000:01:00.0')`, `HostDevice.usb('1:4')`.
   * @default - none
   */
  readonly hostDevices?: HostDevice[];
  /**
   * Cache, I/O and discard options and serial number of the root disk.
   * @default - QEMU's defaults
   */
  readonly rootDisk?: DiskOptions;
  /**
   * The escape hatch: extra libvirt device elements and/or an XSLT stylesheet (docs/devices.md).
   * @default - none
   */
  readonly xml?: DomainXml;
}
