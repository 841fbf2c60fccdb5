/**
 * DomainSpec → libvirt domain XML (https://libvirt.org/formatdomain.html), built with fast-xml-parser's XMLBuilder.
 * Pure; the output depends only on the spec.
 */
import { ValidationError, hasErrors } from '../diagnostics';
import { DOMAIN_FIELDS } from '../fields';
import {
  bandwidthElement,
  channelElement,
  consoleElement,
  filesystemElement,
  graphicsElement,
  hostdevElement,
  serialElement,
  videoElement,
} from './devices/render';
import { inputElement, rngElement, topologyElement, tpmElement, watchdogElement } from './device-options';
import { renderDiskOptions } from './disk-options';
import { renderNicOptions } from './nic-options';
import { insertExtraDevices } from './escape-hatch';
import {
  QEMU_AGENT_CHANNEL_NAME,
  QEMU_XML_NAMESPACE,
  USER_METADATA_XML_NAMESPACE,
  VIRTSEED_XML_NAMESPACE,
  type DomainDisk,
  type DomainGraphics,
  type DomainInterface,
  type DomainSpec,
} from './model';
import { userNetdevArgs } from './private/user-netdev';
import { ATTR, TEXT, newBuilder, type XmlNode } from '../xml';
import { validateDomainSpec } from './validate';

/** The domain's field table: the defaults render writes where the spec has none (src/fields/domain.ts). */
const F = DOMAIN_FIELDS.fields;

/**
 * Renders the domain XML for `virDomainDefineXML`.
 * - memory: `<currentMemory>` is `memoryMiB × 1024` KiB, `<memory>` `maxMemoryMiB` (default the same);
 * - vCPUs: `<vcpu>` is `maxVcpu` (default `vcpu`), with `current='vcpu'` when they differ;
 * - boot: direct kernel boot when `os.kernel` is set, else `<boot dev='hd'/>`;
 * - firmware `efi`: `<os firmware='efi'>` with the `secure-boot` and `enrolled-keys` features both on
 *   (`secureBoot`: machine `q35`, `<smm state='on'/>`) or both off; libvirt picks the OVMF build and creates the
 *   per-domain NVRAM at start;
 * - no `<emulator>` (libvirt picks the binary for `type`, arch x86_64, machine `pc` unless secure boot);
 * - restricted user interfaces and `qemuCommandline` go to `<qemu:commandline>` (see model `DomainInterfaceUser`);
 * - the devices and settings of ./devices/model.ts by ./devices/render.ts; `extraDevices` (the escape hatch) is
 *   appended verbatim at the end of `<devices>` (./escape-hatch.ts).
 * @throws ValidationError when `validateDomainSpec(spec)` reports an error.
 */
export function renderDomainXml(spec: DomainSpec): string {
  const diagnostics = validateDomainSpec(spec);
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  const xml = newBuilder().build({ domain: domainElement(spec) }) as string;
  return spec.extraDevices === undefined ? xml : insertExtraDevices(xml, spec.extraDevices);
}

function domainElement(spec: DomainSpec): XmlNode {
  const qemuArgs = [...(spec.qemuCommandline ?? [])];
  spec.interfaces.forEach((iface, index) => {
    if (iface.type === 'user' && iface.restrict) qemuArgs.push(...userNetdevArgs(index, iface));
  });
  const kib = String(spec.memoryMiB * 1024);
  const maxKib = String((spec.maxMemoryMiB ?? spec.memoryMiB) * 1024);
  const domain: XmlNode = { [`${ATTR}type`]: spec.type };
  if (qemuArgs.length) domain[`${ATTR}xmlns:qemu`] = QEMU_XML_NAMESPACE;
  domain.name = spec.name;
  if (spec.uuid !== undefined) domain.uuid = spec.uuid;
  if (spec.title !== undefined) domain.title = spec.title;
  if (spec.description !== undefined) domain.description = { [TEXT]: spec.description };
  if (spec.metadata !== undefined || spec.userMetadata !== undefined) domain.metadata = metadataElement(spec);
  domain.memory = { [`${ATTR}unit`]: 'KiB', [TEXT]: maxKib };
  domain.currentMemory = { [`${ATTR}unit`]: 'KiB', [TEXT]: kib };
  if (spec.memoryBacking) {
    domain.memoryBacking = {
      source: { [`${ATTR}type`]: spec.memoryBacking.source },
      access: { [`${ATTR}mode`]: spec.memoryBacking.access },
    };
  }
  const maxVcpu = spec.maxVcpu ?? spec.vcpu;
  domain.vcpu =
    maxVcpu === spec.vcpu
      ? String(spec.vcpu)
      : { [`${ATTR}placement`]: 'static', [`${ATTR}current`]: String(spec.vcpu), [TEXT]: String(maxVcpu) };
  if (spec.fwCfg?.length) {
    domain.sysinfo = {
      [`${ATTR}type`]: 'fwcfg',
      entry: spec.fwCfg.map((e) => ({ [`${ATTR}name`]: e.name, [`${ATTR}file`]: e.file })),
    };
  }
  domain.os = osElement(spec);
  domain.features = { acpi: '', apic: '', ...(spec.secureBoot ? { smm: { [`${ATTR}state`]: 'on' } } : {}) };
  if (spec.cpuMode !== undefined || spec.cpuTopology !== undefined) {
    domain.cpu = {
      ...(spec.cpuMode !== undefined ? { [`${ATTR}mode`]: spec.cpuMode } : {}),
      ...(spec.cpuModel !== undefined ? { model: spec.cpuModel } : {}),
      ...(spec.cpuTopology !== undefined ? { topology: topologyElement(spec.cpuTopology) } : {}),
    };
  }
  domain.on_poweroff = spec.onPoweroff ?? F.on_poweroff.default;
  domain.on_reboot = spec.onReboot ?? F.on_reboot.default;
  domain.on_crash = spec.onCrash ?? F.on_crash.default;
  domain.devices = devicesElement(spec);
  if (qemuArgs.length) {
    domain['qemu:commandline'] = { 'qemu:arg': qemuArgs.map((value) => ({ [`${ATTR}value`]: value })) };
  }
  return domain;
}

/** `<entry key=...>value</entry>` per key, sorted by key (the output depends only on the values). */
function entriesOf(values: Record<string, string>): XmlNode[] {
  return Object.keys(values)
    .sort()
    .map((key) => ({ [`${ATTR}key`]: key, [TEXT]: values[key] }));
}

function metadataElement(spec: DomainSpec): XmlNode {
  const out: XmlNode = {};
  if (spec.metadata !== undefined) {
    const instance: XmlNode = { [`${ATTR}xmlns:virtseed`]: VIRTSEED_XML_NAMESPACE };
    const entries = entriesOf(spec.metadata);
    if (entries.length) instance['virtseed:entry'] = entries;
    out['virtseed:instance'] = instance;
  }
  if (spec.userMetadata !== undefined) {
    const user: XmlNode = { [`${ATTR}xmlns:vsuser`]: USER_METADATA_XML_NAMESPACE };
    const entries = entriesOf(spec.userMetadata);
    if (entries.length) user['vsuser:entry'] = entries;
    out['vsuser:entries'] = user;
  }
  return out;
}

function osElement(spec: DomainSpec): XmlNode {
  const os: XmlNode = {};
  if (spec.firmware === 'efi') os[`${ATTR}firmware`] = 'efi';
  os.type = { [`${ATTR}arch`]: 'x86_64', [`${ATTR}machine`]: spec.secureBoot ? 'q35' : 'pc', [TEXT]: 'hvm' };
  if (spec.firmware === 'efi') {
    // Descriptor features libvirt matches when it picks the OVMF build (formatdomain "BIOS bootloader").
    const enabled = spec.secureBoot ? 'yes' : 'no';
    os.firmware = {
      feature: [
        { [`${ATTR}enabled`]: enabled, [`${ATTR}name`]: 'enrolled-keys' },
        { [`${ATTR}enabled`]: enabled, [`${ATTR}name`]: 'secure-boot' },
      ],
    };
  }
  if (spec.os?.kernel !== undefined) {
    os.kernel = spec.os.kernel;
    if (spec.os.initrd !== undefined) os.initrd = spec.os.initrd;
    if (spec.os.cmdline !== undefined) os.cmdline = spec.os.cmdline;
  } else {
    os.boot = (spec.bootDevices ?? ['hd']).map((dev) => ({ [`${ATTR}dev`]: dev }));
  }
  if (spec.bootMenu) {
    const timeout = spec.bootMenu.timeoutMs;
    os.bootmenu = { [`${ATTR}enable`]: 'yes', ...(timeout !== undefined ? { [`${ATTR}timeout`]: String(timeout) } : {}) };
  }
  return os;
}

function devicesElement(spec: DomainSpec): XmlNode {
  const devices: XmlNode = {};
  if (spec.disks.length) devices.disk = spec.disks.map(diskElement);
  if (spec.disks.some((d) => d.bus === 'scsi')) {
    devices.controller = { [`${ATTR}type`]: 'scsi', [`${ATTR}index`]: '0', [`${ATTR}model`]: 'virtio-scsi' };
  }
  const interfaces = spec.interfaces.filter((i) => !(i.type === 'user' && i.restrict)).map(interfaceElement);
  if (interfaces.length) devices.interface = interfaces;
  const serial: XmlNode = { [`${ATTR}type`]: 'pty' };
  if (spec.serialLogFile !== undefined) {
    serial.log = { [`${ATTR}file`]: spec.serialLogFile, [`${ATTR}append`]: 'on' };
  }
  serial.target = { [`${ATTR}port`]: '0' };
  const serials = (spec.serials ?? []).map((s, i) => serialElement(s.source, i + 1));
  devices.serial = serials.length ? [serial, ...serials] : serial;
  const console = { [`${ATTR}type`]: 'pty', target: { [`${ATTR}type`]: 'serial', [`${ATTR}port`]: '0' } };
  const consoles = (spec.consoles ?? []).map(consoleElement);
  devices.console = consoles.length ? [console, ...consoles] : console;
  const channels = (spec.channels ?? []).map(channelElement);
  if (spec.qemuAgent) {
    channels.unshift({ [`${ATTR}type`]: 'unix', target: { [`${ATTR}type`]: 'virtio', [`${ATTR}name`]: QEMU_AGENT_CHANNEL_NAME } });
  }
  if (channels.length) devices.channel = channels.length === 1 ? channels[0] : channels;
  if (spec.filesystems?.length) devices.filesystem = spec.filesystems.map(filesystemElement);
  if (spec.inputs?.length) devices.input = spec.inputs.map(inputElement);
  if (spec.graphics?.length) devices.graphics = spec.graphics.map(graphicsElement);
  if (spec.video) devices.video = videoElement(spec.video);
  if (spec.tpm) devices.tpm = tpmElement(spec.tpm);
  if (spec.rng) devices.rng = rngElement(spec.rng);
  if (spec.watchdog) devices.watchdog = watchdogElement(spec.watchdog);
  if (spec.hostdevs?.length) devices.hostdev = spec.hostdevs.map(hostdevElement);
  return devices;
}

function diskElement(disk: DomainDisk): XmlNode {
  const isFile = 'file' in disk.source;
  const element: XmlNode = { [`${ATTR}type`]: isFile ? 'file' : 'volume', [`${ATTR}device`]: disk.device };
  element.driver = { [`${ATTR}name`]: 'qemu', ...(disk.format ? { [`${ATTR}type`]: disk.format } : {}) };
  element.source =
    'file' in disk.source
      ? { [`${ATTR}file`]: disk.source.file }
      : { [`${ATTR}pool`]: disk.source.pool, [`${ATTR}volume`]: disk.source.volume };
  element.target = { [`${ATTR}dev`]: disk.target, [`${ATTR}bus`]: disk.bus };
  if (disk.readonly) element.readonly = '';
  renderDiskOptions(disk, element);
  return element;
}

function interfaceElement(iface: DomainInterface): XmlNode {
  const element: XmlNode = { [`${ATTR}type`]: iface.type };
  if (iface.mac !== undefined) element.mac = { [`${ATTR}address`]: iface.mac };
  if (iface.type === 'network') element.source = { [`${ATTR}network`]: iface.network };
  if (iface.type === 'bridge') element.source = { [`${ATTR}bridge`]: iface.bridge };
  if (iface.type === 'direct') element.source = { [`${ATTR}dev`]: iface.dev, [`${ATTR}mode`]: iface.mode };
  if (iface.bandwidth !== undefined) element.bandwidth = bandwidthElement(iface.bandwidth);
  renderNicOptions(iface, element);
  return element;
}

/**
 * The `<disk>` element of one disk as its own XML document, for virDomainAttachDeviceFlags / DetachDeviceFlags.
 * @throws ValidationError when the disk is invalid (validateDomainSpec's disk rules).
 */
export function renderDiskXml(disk: DomainDisk): string {
  const diagnostics = validateDomainSpec({ name: 'device', type: 'qemu', memoryMiB: 64, vcpu: 1, disks: [disk], interfaces: [] });
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  return newBuilder().build({ disk: diskElement(disk) }) as string;
}

/**
 * The `<interface>` element of one NIC as its own XML document, for virDomainAttachDeviceFlags,
 * DetachDeviceFlags and UpdateDeviceFlags (link state). A restricted user-mode NIC has no `<interface>` element
 * (it is QEMU command-line passthrough, see model `DomainInterfaceUser`).
 * @throws ValidationError when the NIC is invalid or has no `<interface>` form.
 */
export function renderInterfaceXml(iface: DomainInterface): string {
  const diagnostics = validateDomainSpec({ name: 'device', type: 'qemu', memoryMiB: 64, vcpu: 1, disks: [], interfaces: [iface] });
  if (iface.type === 'user' && iface.restrict)
    diagnostics.push({
      severity: 'error',
      path: ['interfaces', 0],
      summary: 'No device XML',
      detail: 'A restricted user-mode NIC is QEMU command-line passthrough and cannot be attached or updated live.',
    });
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  return newBuilder().build({ interface: interfaceElement(iface) }) as string;
}

/**
 * The `<graphics>` element of one display as its own XML document, for virDomainUpdateDeviceFlags (a new
 * password on the running display; libvirt finds the display by its type).
 * @throws ValidationError when the display is invalid.
 */
export function renderGraphicsXml(graphics: DomainGraphics): string {
  const diagnostics = validateDomainSpec({
    name: 'device',
    type: 'qemu',
    memoryMiB: 64,
    vcpu: 1,
    disks: [],
    interfaces: [],
    graphics: [graphics],
  });
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  return newBuilder().build({ graphics: graphicsElement(graphics) }) as string;
}
