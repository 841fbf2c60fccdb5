import { Lazy, StringMap, TerraformResource, Token } from 'cdktf';
import { Construct } from 'constructs';
import { DOMAIN_NAME_MAX, MAX_VCPU, MIN_MEMORY_MIB, validateDomainSpec } from '../../src/domain';
import { formatDiagnostics } from '../../src/diagnostics';
import { DOMAIN_FIELDS } from '../../src/fields';
import type { IgnitionSpec } from '../../src/seed/ignition';
import * as virtseed from '../generated/virtseed';
import { BaseImage } from './base-image';
import { CloudInit } from './cloud-init';
import { CloudInitSeed } from './cloudinit-seed';
import {
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
import { ConstructPropsError, invalidName, invalidNumber, invalidValue, mutuallyExclusive } from './errors';
import { deviceSpecOf } from './private/device-spec';
import { Firmware } from './firmware';
import type { Placement } from './host-pool';
import { IgnitionConfig } from './ignition-config';
import { NetworkAttachment } from './network-attachment';
import { sharedBaseVolume } from './private/shared-base';
import { Reprovision } from './reprovision';
import { Size } from './size';
import type { StoragePool } from './storage-pool';
import { Volume } from './volume';
import { SnapshotBefore } from './snapshot-before';
import { WaitFor } from './wait-for';

/** The domain's field table (src/fields/domain.ts): the props' defaults are its defaults. */
const F = DOMAIN_FIELDS.fields;
/** `memoryMiB` when not given (`virtseed_domain.memory` is required; the table keeps the construct's default). */
const MEMORY_MIB = F.memory.propDefault;

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

/**
 * A libvirt virtual machine provisioned by cloud-init or Ignition: a base volume from the image (when uploaded;
 * one per stack, pool and image, shared with the other virtual machines on it), a copy-on-write root volume on it, a seed (cloud-init ISO or Ignition config) and the domain, with the seed's
 * instance-id wired to the domain so a content change re-provisions the guest by the `reprovision` policy.
 */
export class VirtualMachine extends Construct {
  /** The generated `virtseed_domain` resource. */
  readonly domain: virtseed.domain.Domain;
  /** The generated `virtseed_placement`, when the VM has a `placement`. */
  readonly placementResource?: virtseed.placement.Placement;
  /** The VM's host: the placement's choice (a token, known at plan), the fixed `host`, or undefined (the default host). */
  readonly host?: string;
  /**
   * The base volume, when the image is uploaded (`fromFile`/`fromUrl`): shared by every virtual machine of the
   * stack on the same image and pool (see {@link BaseImage}).
   */
  readonly baseVolume?: Volume;
  /** The root disk: a qcow2 overlay on the base image. */
  readonly rootVolume: Volume;
  /** The cloud-init seed, when `cloudInit` is given. */
  readonly seed?: CloudInitSeed;
  /** The Ignition config, when `ignition` is given. */
  readonly ignition?: IgnitionConfig;
  /**
   * The guest's instance-id: known at synth when the seed content holds no tokens (derived exactly as the
   * provider derives it), else a token of the seed's `instance_id`; undefined without a seed.
   */
  readonly instanceId?: string;
  /** The re-provisioning policy. */
  readonly reprovision: Reprovision;
  /** Host path of the serial console log. */
  readonly consoleLog: string;
  /** The domain's UUID. */
  readonly uuid: string;
  /**
   * What the plan decided for the guest because its instance-id changed: `none`, `reboot`, `recreate` or
   * `next-boot` (a token of the domain's `reprovision_action`; `cdktf diff` and `terraform show -json` show it).
   */
  readonly reprovisionAction: string;
  /** The instance-id before the last re-provision decision (a token of the domain's `previous_instance_id`). */
  readonly previousInstanceId: string;
  /**
   * What the plan does to the running guest: `none`, `live` (no restart), `restart` or `replace` (a token of the
   * domain's `change_impact`; `cdktf diff` and `terraform show -json` show it beside a warning per guest).
   */
  readonly changeImpact: string;
  /**
   * Per changed attribute what it does to the guest, e.g. `memory` → `live: within max_memory 1024` (a token of
   * the domain's `change_impacts`, a map of strings).
   */
  readonly changeImpacts: StringMap;
  /** What a deploy that starts the guest waits for. */
  readonly waitFor: WaitFor;
  /**
   * The guest's IP addresses (a token of the domain's `addresses`: DHCP leases of its libvirt networks, then the
   * guest agent's; refreshed at every plan, empty while the guest has none).
   */
  readonly addresses: string[];
  /** The guest's first IPv4 address (else its first address; a token of the domain's `ip_address`). Use
   *  `waitFor: WaitFor.LEASE` or `WaitFor.CLOUD_INIT` so the deploy that starts the guest already records it. */
  readonly ipAddress: string;

  /** @throws ConstructPropsError for invalid or conflicting props (the message names the prop). */
  constructor(scope: Construct, id: string, props: VirtualMachineProps) {
    super(scope, id);
    validateProps(props);
    const pool = props.pool ?? 'default';
    this.reprovision = props.reprovision ?? (F.reprovision.default as Reprovision);
    this.waitFor = props.waitFor ?? (F.wait_for.default as WaitFor);

    const memoryMiB = props.memoryMiB ?? MEMORY_MIB;
    const vcpus = props.vcpus ?? F.vcpu.default;
    if (props.placement) {
      // A placement commits what the VM may grow to without a restart (its maximums), as hosts count it.
      this.placementResource = props.placement._bind(this, {
        name: props.name,
        memoryMiB: props.maxMemoryMiB ?? memoryMiB,
        vcpus: props.maxVcpus ?? vcpus,
      });
      this.host = this.placementResource.host;
    } else this.host = props.host;
    const host = this.host;

    const image = props.baseImage.source;
    let backingVolume: string;
    if (image.kind === 'upload') {
      const base = sharedBaseVolume(
        this,
        { pool, ...image },
        this.placementResource ? { placement: this.placementResource } : { host: props.host },
      );
      this.baseVolume = base.volume;
      backingVolume = base.volumeId;
    } else backingVolume = image.volumeId;

    if (props.cloudInit) {
      this.seed = new CloudInitSeed(this, 'Seed', { pool, host, name: `${props.name}-seed`, cloudInit: props.cloudInit });
    }
    if (props.ignition) {
      this.ignition =
        props.ignition instanceof IgnitionConfig
          ? props.ignition
          : new IgnitionConfig(this, 'Ignition', {
              pool,
              host,
              name: props.ignition.name ?? `${props.name}-ignition`,
              config: props.ignition.config,
            });
    }
    const provisioner = this.seed ?? this.ignition;
    this.instanceId = provisioner?.instanceId;

    this.rootVolume = new Volume(this, 'Root', {
      pool,
      host,
      name: `${props.name}-root`,
      format: 'qcow2',
      backingVolume,
      capacity: props.diskSize,
    });
    if (this.reprovision === Reprovision.RECREATE && provisioner) {
      // A re-provision must start from the base image: replace the overlay when the instance-id changes.
      this.rootVolume.resource.lifecycle = { replaceTriggeredBy: [attributeReference(provisioner.resource, 'instance_id')] };
    }

    const networks = props.networks ?? [NetworkAttachment.libvirtNetwork('default')];
    this.domain = new virtseed.domain.Domain(this, 'Resource', {
      name: props.name,
      host,
      antiAffinity: props.placement?.options.antiAffinity,
      memory: memoryMiB,
      maxMemory: props.maxMemoryMiB,
      vcpu: vcpus,
      maxVcpu: props.maxVcpus,
      autostart: props.autostart,
      firmware: props.firmware,
      secureBoot: props.secureBoot,
      kernel: props.kernel?.kernel,
      initrd: props.kernel?.initrd,
      cmdline: props.kernel?.cmdline,
      disk: [{ volumeId: this.rootVolume.volumeId, ...props.rootDisk }],
      cloudinitSeedId: this.seed?.seedId,
      ignitionId: this.ignition?.ignitionId,
      instanceId: provisioner?.instanceIdAttribute,
      reprovision: this.reprovision,
      networkInterface: networks.map((n) => ({ ...n.config, bandwidth: n.config.bandwidth ? { ...n.config.bandwidth } : undefined })),
      running: props.running ?? F.running.default,
      waitFor: props.waitFor,
      waitTimeout: props.waitTimeoutSeconds,
      snapshotBefore: props.snapshotBefore,
      snapshotKeep: props.snapshotKeep,
      qemuAgent: props.qemuAgent,
      title: props.title,
      description: props.description,
      metadata: props.metadata,
      onPoweroff: props.onPoweroff,
      onReboot: props.onReboot,
      onCrash: props.onCrash,
      bootDevices: props.boot?.devices,
      bootMenu: props.boot?.menu,
      bootMenuTimeout: props.boot?.menuTimeoutMs,
      cpuTopology: props.cpuTopology ? { ...props.cpuTopology } : undefined,
      graphics: props.graphics?.map((g) => ({ ...g.config })),
      video: props.video,
      tpm: props.tpm ? { ...props.tpm.config } : undefined,
      filesystem: props.filesystems?.map((f) => ({ ...f.config })),
      rng: props.rng
        ? {
            // Never an empty block (cdktf leaves empty blocks out of the synthesized JSON): the source is always given.
            source: props.rng.options.source ?? '/dev/urandom',
            rateBytes: props.rng.options.rateBytes,
            ratePeriod: props.rng.options.ratePeriodMs,
          }
        : undefined,
      watchdog: props.watchdog ? { model: props.watchdog.model, action: props.watchdog.action } : undefined,
      serial: props.serialPorts?.map((c) => ({ ...c.config })),
      console: props.consoles?.map((c) => ({ ...c.config })),
      channel: props.channels?.map((c) => ({ ...c.config })),
      input: props.inputs?.map((i) => ({ type: i.type, bus: i.bus })),
      hostdev: props.hostDevices?.map((h) => ({ type: h.type, address: h.address, managed: h.managed })),
      xml: props.xml ? { ...props.xml } : undefined,
    });
    this.consoleLog = this.domain.consoleLog;
    this.uuid = this.domain.uuid;
    this.reprovisionAction = this.domain.reprovisionAction;
    this.previousInstanceId = this.domain.previousInstanceId;
    this.changeImpact = this.domain.changeImpact;
    this.changeImpacts = this.domain.changeImpacts;
    this.addresses = this.domain.addresses;
    this.ipAddress = this.domain.ipAddress;
  }

  /**
   * Where to connect to display `index` of `graphics` while the guest runs, e.g. `vnc://127.0.0.1:5901` (a token
   * of the domain's `graphics[index].display_uri`; null while the guest is shut off).
   */
  displayUri(index = 0): string {
    return this.domain.graphics.get(index).displayUri;
  }
}

/**
 * `type.logical_id.attribute`, resolved at synth. Terraform parses `replace_triggered_by` strings of JSON
 * configurations as bare references; cdktf's `fqn` would render `${type.id}`, which Terraform rejects.
 */
function attributeReference(resource: TerraformResource, attribute: string): string {
  return Lazy.stringValue({ produce: () => `${resource.terraformResourceType}.${resource.friendlyUniqueId}.${attribute}` });
}

/**
 * The domain rules (src/domain `validateDomainSpec`) for what the props fix at synth: the name, memory and vCPUs
 * (tokens and absent values stand in as valid placeholders; the provider checks them at plan).
 */
function checkDomainRules(props: VirtualMachineProps): void {
  const orValid = (v: number | undefined, valid: number) => (v === undefined || Token.isUnresolved(v) ? valid : v);
  const known = (v: number | undefined) => v === undefined || !Token.isUnresolved(v);
  const found = validateDomainSpec({
    name: Token.isUnresolved(props.name) ? 'placeholder' : props.name,
    type: 'qemu',
    memoryMiB: orValid(props.memoryMiB, MIN_MEMORY_MIB),
    // A maximum is checked against the value only when both are known (absent: the table's default).
    ...(known(props.maxMemoryMiB) && known(props.memoryMiB)
      ? { maxMemoryMiB: props.maxMemoryMiB, memoryMiB: props.memoryMiB ?? MEMORY_MIB }
      : {}),
    vcpu: orValid(props.vcpus, F.vcpu.default),
    ...(known(props.maxVcpus) && known(props.vcpus) ? { maxVcpu: props.maxVcpus, vcpu: props.vcpus ?? F.vcpu.default } : {}),
    disks: [],
    interfaces: [],
  });
  const at = (key: string) => found.some((d) => d.path[0] === key);
  if (at('name')) throw invalidName('VirtualMachine.name', props.name, DOMAIN_NAME_MAX);
  if (at('memoryMiB')) throw invalidNumber('VirtualMachine.memoryMiB', props.memoryMiB, `a whole number of MiB >= ${MIN_MEMORY_MIB}`);
  if (at('vcpu')) throw invalidNumber('VirtualMachine.vcpus', props.vcpus, `a whole number from 1 to ${MAX_VCPU}`);
  if (at('maxMemoryMiB'))
    throw invalidNumber(
      'VirtualMachine.maxMemoryMiB',
      props.maxMemoryMiB,
      `a whole number of MiB >= memoryMiB (${props.memoryMiB ?? MEMORY_MIB})`,
    );
  if (at('maxVcpu'))
    throw invalidNumber(
      'VirtualMachine.maxVcpus',
      props.maxVcpus,
      `a whole number from vcpus (${props.vcpus ?? F.vcpu.default}) to ${MAX_VCPU}`,
    );
}

/**
 * The domain model's checks of the devices and settings (src/domain validateDomainSpec), for the props known at
 * synth (tokens stand in as valid); the first problem is thrown naming the prop.
 */
function checkDeviceRules(props: VirtualMachineProps): void {
  const { spec, propOf } = deviceSpecOf(props);
  const found = validateDomainSpec(spec).filter((d) => d.severity === 'error');
  if (!found.length) return;
  const prop = `VirtualMachine.${propOf(found[0].path)}`;
  throw new ConstructPropsError(prop, `${prop}: ${formatDiagnostics([found[0]])}`);
}

function validateProps(props: VirtualMachineProps): void {
  checkDomainRules(props);
  if (props.placement && props.host !== undefined) {
    throw mutuallyExclusive(
      'VirtualMachine.placement',
      'VirtualMachine.host',
      'A VM is placed by its HostPool placement or on a fixed host; remove one.',
    );
  }
  checkDeviceRules(props);
  if (props.cloudInit && props.ignition) {
    throw mutuallyExclusive(
      'VirtualMachine.cloudInit',
      'VirtualMachine.ignition',
      'A guest is provisioned by cloud-init or by Ignition; remove one.',
    );
  }
  if (props.diskSize !== undefined && !Token.isUnresolved(props.diskSize.toBytes()) && props.diskSize.toBytes() <= 0) {
    throw invalidNumber('VirtualMachine.diskSize', props.diskSize.toBytes(), 'a size greater than 0 bytes');
  }
  const reprovisions: string[] = Object.values(Reprovision);
  if (props.reprovision !== undefined && !reprovisions.includes(props.reprovision)) {
    throw invalidValue(
      'VirtualMachine.reprovision',
      props.reprovision,
      `one of Reprovision.${Object.keys(Reprovision).join(', Reprovision.')}`,
    );
  }
  const waits: string[] = Object.values(WaitFor);
  if (props.waitFor !== undefined && !waits.includes(props.waitFor)) {
    throw invalidValue('VirtualMachine.waitFor', props.waitFor, `one of WaitFor.${Object.keys(WaitFor).join(', WaitFor.')}`);
  }
  if (props.waitFor === WaitFor.CLOUD_INIT && !props.cloudInit) {
    throw invalidValue(
      'VirtualMachine.waitFor',
      props.waitFor,
      'WaitFor.CLOUD_INIT only with cloudInit (or WaitFor.IGNITION with ignition, WaitFor.NONE)',
    );
  }
  if (props.waitFor === WaitFor.IGNITION && !props.ignition) {
    throw invalidValue(
      'VirtualMachine.waitFor',
      props.waitFor,
      'WaitFor.IGNITION only with ignition (or WaitFor.CLOUD_INIT with cloudInit, WaitFor.NONE)',
    );
  }
  if (props.waitFor === WaitFor.LEASE && props.networks?.every((n) => n.config.user === true)) {
    throw invalidValue(
      'VirtualMachine.waitFor',
      props.waitFor,
      'WaitFor.LEASE only with an interface on a libvirt network (DHCP leases come from libvirt networks, not from user-mode networking)',
    );
  }
  const befores: string[] = Object.values(SnapshotBefore);
  if (props.snapshotBefore !== undefined && !befores.includes(props.snapshotBefore)) {
    throw invalidValue(
      'VirtualMachine.snapshotBefore',
      props.snapshotBefore,
      `one of SnapshotBefore.${Object.keys(SnapshotBefore).join(', SnapshotBefore.')}`,
    );
  }
  const keep = props.snapshotKeep;
  if (keep !== undefined && !Token.isUnresolved(keep) && !(Number.isInteger(keep) && keep >= 0)) {
    throw invalidNumber('VirtualMachine.snapshotKeep', keep, 'a whole number ≥ 0');
  }
  if (props.waitTimeoutSeconds !== undefined && !Token.isUnresolved(props.waitTimeoutSeconds) && !(props.waitTimeoutSeconds > 0)) {
    throw invalidNumber('VirtualMachine.waitTimeoutSeconds', props.waitTimeoutSeconds, 'seconds > 0');
  }
  const firmwares: string[] = Object.values(Firmware);
  if (props.firmware !== undefined && !firmwares.includes(props.firmware)) {
    throw invalidValue('VirtualMachine.firmware', props.firmware, `one of Firmware.${Object.keys(Firmware).join(', Firmware.')}`);
  }
  if (props.secureBoot === true && props.firmware !== Firmware.EFI) {
    throw invalidValue('VirtualMachine.secureBoot', props.secureBoot, 'secureBoot only with firmware: Firmware.EFI');
  }
  if (props.kernel !== undefined && !props.kernel.kernel) {
    throw invalidValue('VirtualMachine.kernel.kernel', props.kernel.kernel, 'the host path of a kernel image');
  }
}
