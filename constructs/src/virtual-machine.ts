import { Lazy, StringMap, TerraformResource, Token } from 'cdktf';
import { Construct } from 'constructs';
import { DOMAIN_NAME_MAX, MAX_VCPU, MIN_MEMORY_MIB, RNG_OPTIONS, validateDomainSpec } from '../../src/domain';
import { formatDiagnostics } from '../../src/diagnostics';
import { DOMAIN_FIELDS } from '../../src/fields';
import * as virtseed from '../generated/virtseed';
import { CloudInitSeed } from './cloudinit-seed';
import { ConstructPropsError, invalidName, invalidNumber, invalidValue, mutuallyExclusive } from './errors';
import { deviceSpecOf } from './device-spec';
import { bindingOptions } from './private/options';
import { Firmware } from './firmware';
import { IgnitionConfig } from './ignition-config';
import { NetworkAttachment } from './network-attachment';
import { sharedBaseVolume } from './shared-base';
import { Reprovision } from './reprovision';
import { Volume } from './volume';
import { SnapshotBefore } from './snapshot-before';
import { WaitFor } from './wait-for';
import type { VirtualMachineProps } from './virtual-machine-props';

/** The domain's field table (src/fields/domain.ts): the props' defaults are its defaults. */
const F = DOMAIN_FIELDS.fields;
/** `memoryMiB` when not given (`virtseed_domain.memory` is required; the table keeps the construct's default). */
const MEMORY_MIB = F.memory.propDefault;

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
            ...bindingOptions(RNG_OPTIONS, props.rng.options),
            // Never an empty block (cdktf leaves empty blocks out of the synthesized JSON): the source is always given.
            source: props.rng.options.source ?? DOMAIN_FIELDS.fields.rng.fields.source.default,
          }
        : undefined,
      watchdog: props.watchdog ? { ...props.watchdog } : undefined,
      serial: props.serialPorts?.map((c) => ({ ...c.config })),
      console: props.consoles?.map((c) => ({ ...c.config })),
      channel: props.channels?.map((c) => ({ ...c.config })),
      input: props.inputs?.map((i) => ({ ...i })),
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
