/**
 * libvirt domain XML → DomainSpec, read with fast-xml-parser's XMLParser. Accepts what `virsh dumpxml` (or
 * `virDomainGetXMLDesc`) returns: unknown elements, `<emulator>`, controllers, addresses and aliases are ignored.
 * Pure.
 */
import {
  readBandwidth,
  readBootDevices,
  readChannelSource,
  readCharSource,
  readDirectMode,
  readFilesystem,
  readGraphics,
  readHostdev,
  readLifecycle,
  readMemoryBacking,
  readNamespacedEntries,
  readVideo,
} from './devices/parse';
import { DOMAIN_FIELDS, VOLUME_FORMATS, isOneOf, valuesOf } from '../fields';
import { readInput, readRng, readTopology, readTpm, readWatchdog } from './device-options';
import { readDiskOptions } from './disk-options';
import { readNicOptions } from './nic-options';
import { DomainXmlParseError } from './errors';
import { matchExtraDevices } from './escape-hatch';
import {
  QEMU_AGENT_CHANNEL_NAME,
  USER_METADATA_XML_NAMESPACE,
  VIRTSEED_XML_NAMESPACE,
  type DomainDisk,
  type DomainDiskSource,
  type DomainInterface,
  type DomainOs,
  type DomainSpec,
  type DomainSysinfoFwCfgEntry,
} from './model';
import { firmwareOf } from './private/firmware';
import { domainName, domainRoot } from './private/root';
import { mergeByIndex, namespacePrefix, readQemuArgs, takeUserNetdevArgs } from './private/user-netdev';
import { toMiB } from './private/units';
import { ATTR, attr, child, children, rawText, text, type XmlNode } from '../xml';

const F = DOMAIN_FIELDS.fields;
const CPU_MODES = valuesOf(F.cpu_mode);
const DOMAIN_TYPES = valuesOf(F.type);
const DISK_BUSES = valuesOf(F.disk.fields.bus);

/** What a parse needs to know beyond the XML. */
export interface ParseDomainOptions {
  /**
   * The escape hatch's device elements the domain was defined with (`DomainSpec.extraDevices`): the elements
   * that match them are not read as typed devices, and the result's `extraDevices` says which were found
   * (./escape-hatch.ts `matchExtraDevices`).
   */
  readonly extraDevices?: string;
}

/**
 * Reads a domain definition back into the spec `renderDomainXml` was given (parse(render(s)) deep-equals s for
 * a spec in normal form: no empty optional lists/objects, no `restrict: false`, no `model: 'virtio'`, no
 * `os` without `kernel`, no setting at its default — see ./devices/model.ts). Values libvirt adds (uuid, MAC
 * addresses) appear in the result.
 * Memory is returned in MiB (from any libvirt unit); `readonly`/`restrict` appear only when true.
 * @throws DomainXmlParseError when the root is not `<domain>`, a required element is missing, or a disk,
 *   interface, cpu, fw_cfg entry or device uses a form the model does not cover (e.g. a block disk, VNC over
 *   SDL): such a domain's devices cannot be managed without losing them.
 */
export function parseDomainXml(xml: string, options: ParseDomainOptions = {}): DomainSpec {
  return readDomain(domainRoot(xml), options);
}

/** What a domain commits on its host, read from any domain's XML (also one virtseed cannot fully parse). */
export interface DomainFootprint {
  readonly name: string;
  /** `<memory>` (the maximum) in MiB. */
  readonly memoryMiB: number;
  /** `<vcpu>` (the maximum). */
  readonly vcpu: number;
  /** virtseed's metadata entries; undefined for a domain virtseed did not define. */
  readonly metadata?: Record<string, string>;
}

/**
 * The name, memory, vCPUs and virtseed metadata of a domain's XML (formatdomain "General metadata", "Memory
 * Allocation", "CPU Allocation"), whatever else the domain holds.
 * @throws DomainXmlParseError when the XML is not a `<domain>` with a name, memory and vcpu count.
 */
export function parseDomainFootprint(xml: string): DomainFootprint {
  const domain = domainRoot(xml);
  const name = domainName(domain);
  const metadata = readMetadata(child(domain, 'metadata'));
  // What the domain may grow to without a restart is what it commits: `<memory>` and `<vcpu>` (the maximums).
  return { name, memoryMiB: readMemory(domain).maxMemoryMiB, vcpu: readVcpu(domain).maxVcpu, ...(metadata ? { metadata } : {}) };
}

function readDomain(domain: XmlNode, options: ParseDomainOptions): DomainSpec {
  const type = attr(domain, 'type');
  if (!isOneOf(DOMAIN_TYPES, type)) {
    throw new DomainXmlParseError('domain/@type', `unsupported domain type '${type ?? ''}' (expected ${DOMAIN_TYPES.join(' or ')})`);
  }
  const name = domainName(domain);
  const { memoryMiB, maxMemoryMiB } = readMemory(domain);
  const { vcpu, maxVcpu } = readVcpu(domain);
  const spec: DomainSpec = {
    name,
    type,
    memoryMiB,
    ...(maxMemoryMiB !== memoryMiB ? { maxMemoryMiB } : {}),
    vcpu,
    ...(maxVcpu !== vcpu ? { maxVcpu } : {}),
    disks: [],
    interfaces: [],
  };
  const uuid = text(child(domain, 'uuid'));
  if (uuid) spec.uuid = uuid;
  const metadata = readMetadata(child(domain, 'metadata'));
  if (metadata) spec.metadata = metadata;
  readCpu(child(domain, 'cpu'), spec);
  const osNode = child(domain, 'os');
  const os = readOs(osNode);
  if (os) spec.os = os;
  readFirmware(osNode, spec);
  let devices = child(domain, 'devices');
  if (options.extraDevices !== undefined) {
    const match = matchExtraDevices(devices, options.extraDevices);
    devices = match.rest;
    if (match.found !== undefined) spec.extraDevices = match.found;
  }
  spec.disks = children(devices, 'disk').map((d, i) => readDisk(d, `domain/devices/disk[${i}]`));
  const serialLogFile = children(devices, 'serial')
    .map((s) => attr(child(s, 'log'), 'file'))
    .find((f) => f !== undefined);
  if (serialLogFile !== undefined) spec.serialLogFile = serialLogFile;
  if (children(devices, 'channel').some((c) => attr(child(c, 'target'), 'name') === QEMU_AGENT_CHANNEL_NAME)) spec.qemuAgent = true;
  const fwCfg = children(domain, 'sysinfo')
    .filter((s) => attr(s, 'type') === 'fwcfg')
    .flatMap((s) => children(s, 'entry'))
    .map((e, i) => readFwCfgEntry(e, `domain/sysinfo/entry[${i}]`));
  if (fwCfg.length) spec.fwCfg = fwCfg;
  const { interfaces: restricted, rest } = takeUserNetdevArgs(readQemuArgs(domain));
  spec.interfaces = mergeByIndex(
    children(devices, 'interface').map((n, i) => readInterface(n, `domain/devices/interface[${i}]`)),
    restricted,
  );
  if (rest.length) spec.qemuCommandline = rest;
  readSettings(domain, osNode, spec);
  readDevices(devices, spec);
  return spec;
}

/** Title, description, the user's metadata, memory backing, boot order and menu, on_* actions, CPU topology. */
function readSettings(domain: XmlNode, os: XmlNode | undefined, spec: DomainSpec): void {
  const title = text(child(domain, 'title'));
  if (title) spec.title = title;
  const description = rawText(child(domain, 'description'));
  if (description) spec.description = description;
  const user = readNamespacedEntries(child(domain, 'metadata'), USER_METADATA_XML_NAMESPACE, 'entries');
  if (user) spec.userMetadata = user;
  const memoryBacking = readMemoryBacking(child(domain, 'memoryBacking'));
  if (memoryBacking) spec.memoryBacking = memoryBacking;
  const topology = child(child(domain, 'cpu'), 'topology');
  if (topology) spec.cpuTopology = readTopology(topology, 'domain/cpu/topology');
  if (!spec.os?.kernel) {
    const boot = readBootDevices(os);
    if (boot) spec.bootDevices = boot;
  }
  const menu = child(os, 'bootmenu');
  if (attr(menu, 'enable') === 'yes') {
    const timeout = attr(menu, 'timeout');
    spec.bootMenu = timeout !== undefined && /^\d+$/.test(timeout) ? { timeoutMs: Number(timeout) } : {};
  }
  const onPoweroff = readLifecycle(domain, 'on_poweroff', 'destroy');
  if (onPoweroff) spec.onPoweroff = onPoweroff;
  const onReboot = readLifecycle(domain, 'on_reboot', 'restart');
  if (onReboot) spec.onReboot = onReboot;
  const onCrash = readLifecycle(domain, 'on_crash', 'destroy');
  if (onCrash) spec.onCrash = onCrash;
}

/**
 * Sets `spec[name]` from the one `<devices><NAME>` element, read by `read`; leaves it unset when there is none.
 * @throws DomainXmlParseError at `domain/devices/NAME[1]` with `tooMany` when there are more.
 */
function readAtMostOne<K extends 'video' | 'tpm' | 'rng' | 'watchdog'>(
  devices: XmlNode | undefined,
  spec: DomainSpec,
  name: K,
  tooMany: string,
  read: (node: XmlNode, path: string) => NonNullable<DomainSpec[K]>,
): void {
  const nodes = children(devices, name);
  if (nodes.length > 1) throw new DomainXmlParseError(`domain/devices/${name}[1]`, tooMany);
  if (nodes.length) spec[name] = read(nodes[0], `domain/devices/${name}[0]`);
}

/** The devices of ./devices/model.ts (each list left out when empty). */
function readDevices(devices: XmlNode | undefined, spec: DomainSpec): void {
  const where = (name: string, i: number) => `domain/devices/${name}[${i}]`;
  const graphics = children(devices, 'graphics').map((n, i) => readGraphics(n, where('graphics', i)));
  if (graphics.length) spec.graphics = graphics;
  readAtMostOne(devices, spec, 'video', 'more than one video device (give extra ones as extra devices)', readVideo);
  readAtMostOne(devices, spec, 'tpm', 'more than one TPM', readTpm);
  const filesystems = children(devices, 'filesystem').map((n, i) => readFilesystem(n, where('filesystem', i)));
  if (filesystems.length) spec.filesystems = filesystems;
  readAtMostOne(devices, spec, 'rng', 'more than one RNG device (give extra ones as extra devices)', readRng);
  readAtMostOne(devices, spec, 'watchdog', 'more than one watchdog', readWatchdog);
  const serials = children(devices, 'serial')
    .map((n, i) => ({ n, i, port: Number(attr(child(n, 'target'), 'port') ?? i) }))
    .filter((s) => s.port !== 0)
    .sort((a, b) => a.port - b.port)
    .map((s) => ({ source: readCharSource(s.n, where('serial', s.i)) }));
  if (serials.length) spec.serials = serials;
  const consoles = children(devices, 'console')
    .map((n, i) => ({ n, i }))
    .filter(({ n }) => attr(child(n, 'target'), 'type') === 'virtio')
    .map(({ n, i }) => ({ source: readCharSource(n, where('console', i)) }));
  if (consoles.length) spec.consoles = consoles;
  const channels = children(devices, 'channel')
    .map((n, i) => ({ n, i, target: child(n, 'target') }))
    .filter(({ target }) => attr(target, 'type') === 'virtio' && attr(target, 'name') !== QEMU_AGENT_CHANNEL_NAME)
    .map(({ n, i, target }) => {
      const name = attr(target, 'name');
      if (!name) throw new DomainXmlParseError(`${where('channel', i)}/target/@name`, 'a virtio channel without a name');
      return { name, source: readChannelSource(n, where('channel', i)) };
    });
  if (channels.length) spec.channels = channels;
  const inputs = children(devices, 'input')
    .map((n, i) => readInput(n, where('input', i)))
    .filter((x) => x !== undefined);
  if (inputs.length) spec.inputs = inputs;
  const hostdevs = children(devices, 'hostdev').map((n, i) => readHostdev(n, where('hostdev', i)));
  if (hostdevs.length) spec.hostdevs = hostdevs;
}

/** `<memory>` (the maximum) and `<currentMemory>` (what the guest has, which `virsh setmem --config` changes:
 *  docs/FACTS.md, "Drift: `virsh setmem --config` changes `<currentMemory>`"; absent: the maximum), in MiB. */
function readMemory(domain: XmlNode): { memoryMiB: number; maxMemoryMiB: number } {
  const read = (name: 'memory' | 'currentMemory'): number | undefined => {
    const node = child(domain, name);
    const value = text(node);
    if (value === undefined) return undefined;
    const mib = toMiB(value, attr(node, 'unit'));
    if (mib === undefined) throw new DomainXmlParseError(`domain/${name}`, `unreadable value '${value}'`);
    return mib;
  };
  const maxMemoryMiB = read('memory');
  if (maxMemoryMiB === undefined) throw new DomainXmlParseError('domain/memory', 'missing');
  return { memoryMiB: read('currentMemory') ?? maxMemoryMiB, maxMemoryMiB };
}

/** `<vcpu>` (the maximum) and its `current` attribute (absent: the maximum). */
function readVcpu(domain: XmlNode): { vcpu: number; maxVcpu: number } {
  const node = child(domain, 'vcpu');
  const value = text(node);
  if (!value || !/^\d+$/.test(value)) throw new DomainXmlParseError('domain/vcpu', `missing or not a number`);
  const current = attr(node, 'current');
  if (current !== undefined && !/^\d+$/.test(current)) throw new DomainXmlParseError('domain/vcpu/@current', 'not a number');
  return { vcpu: Number(current ?? value), maxVcpu: Number(value) };
}

function readCpu(cpu: XmlNode | undefined, spec: DomainSpec): void {
  if (!cpu || isLibvirtDefaultCpu(cpu)) return;
  const mode = attr(cpu, 'mode') ?? 'custom';
  if (!isOneOf(CPU_MODES, mode)) {
    throw new DomainXmlParseError('domain/cpu/@mode', `unsupported cpu mode '${mode}'`);
  }
  const model = text(child(cpu, 'model'));
  if (mode === 'custom' && !model) return; // topology/feature-only <cpu>: no mode chosen (topology: readSettings)
  spec.cpuMode = mode;
  if (model) spec.cpuModel = model;
}

/**
 * libvirt 9 writes its default CPU into definitions that have no `<cpu>`:
 * `<cpu mode='custom' match='exact' check='none'><model fallback='forbid'>qemu64</model></cpu>`. A `<cpu>` we
 * rendered never has `fallback='forbid'` (libvirt stores `allow` for ours), so this shape means "no cpuMode".
 */
function isLibvirtDefaultCpu(cpu: XmlNode): boolean {
  const model = child(cpu, 'model');
  const elements = Object.keys(cpu).filter((k) => !k.startsWith(ATTR) && !k.startsWith('#') && k !== 'topology');
  return (
    (attr(cpu, 'mode') ?? 'custom') === 'custom' &&
    attr(cpu, 'check') === 'none' &&
    attr(model, 'fallback') === 'forbid' &&
    elements.length === 1
  );
}

function readOs(os: XmlNode | undefined): DomainOs | undefined {
  const kernel = text(child(os, 'kernel'));
  if (!kernel) return undefined;
  const result: DomainOs = { kernel };
  const initrd = text(child(os, 'initrd'));
  if (initrd) result.initrd = initrd;
  const cmdline = rawText(child(os, 'cmdline'));
  if (cmdline !== undefined) result.cmdline = cmdline;
  return result;
}

/** The firmware of `<os>` (private/firmware.ts); `bios` and `secureBoot: false` are left out (normal form). */
function readFirmware(os: XmlNode | undefined, spec: DomainSpec): void {
  const { firmware, secureBoot } = firmwareOf(os);
  if (firmware === 'bios') return;
  spec.firmware = firmware;
  if (secureBoot) spec.secureBoot = true;
}

function readDisk(disk: XmlNode, where: string): DomainDisk {
  const device = attr(disk, 'device') ?? 'disk';
  if (device !== 'disk' && device !== 'cdrom') {
    throw new DomainXmlParseError(`${where}/@device`, `unsupported disk device '${device}'`);
  }
  const target = child(disk, 'target');
  const dev = attr(target, 'dev');
  const bus = attr(target, 'bus');
  if (!dev) throw new DomainXmlParseError(`${where}/target`, 'missing target dev');
  if (!isOneOf(DISK_BUSES, bus)) {
    throw new DomainXmlParseError(`${where}/target/@bus`, `unsupported bus '${bus ?? ''}'`);
  }
  const result: DomainDisk = { source: readDiskSource(disk, where), target: dev, bus, device };
  const format = attr(child(disk, 'driver'), 'type');
  if (format !== undefined) {
    if (!isOneOf(VOLUME_FORMATS, format)) {
      throw new DomainXmlParseError(
        `${where}/driver/@type`,
        `unsupported image format '${format}' (expected ${VOLUME_FORMATS.join(', ')})`,
      );
    }
    result.format = format;
  }
  if (child(disk, 'readonly')) result.readonly = true;
  return { ...result, ...readDiskOptions(disk, where) };
}

function readDiskSource(disk: XmlNode, where: string): DomainDiskSource {
  const type = attr(disk, 'type') ?? 'file';
  const source = child(disk, 'source');
  if (type === 'file') {
    const file = attr(source, 'file');
    if (file) return { file };
  } else if (type === 'volume') {
    const pool = attr(source, 'pool');
    const volume = attr(source, 'volume');
    if (pool && volume) return { pool, volume };
  } else {
    throw new DomainXmlParseError(`${where}/@type`, `unsupported disk type '${type}' (expected file or volume)`);
  }
  throw new DomainXmlParseError(`${where}/source`, `missing or incomplete source for a ${type} disk`);
}

function readInterface(node: XmlNode, where: string): DomainInterface {
  const type = attr(node, 'type');
  const source = child(node, 'source');
  let iface: DomainInterface;
  if (type === 'network' || type === 'bridge') {
    const value = attr(source, type);
    if (!value) throw new DomainXmlParseError(`${where}/source/@${type}`, 'missing');
    iface = type === 'network' ? { type, network: value } : { type, bridge: value };
  } else if (type === 'user') {
    iface = { type };
  } else if (type === 'direct') {
    const dev = attr(source, 'dev');
    if (!dev) throw new DomainXmlParseError(`${where}/source/@dev`, 'missing');
    iface = { type, dev, mode: readDirectMode(attr(source, 'mode'), `${where}/source/@mode`) };
  } else {
    throw new DomainXmlParseError(`${where}/@type`, `unsupported interface type '${type ?? ''}'`);
  }
  Object.assign(iface, readNicOptions(node, where));
  const mac = attr(child(node, 'mac'), 'address');
  if (mac !== undefined) iface.mac = mac;
  const bandwidth = readBandwidth(child(node, 'bandwidth'), `${where}/bandwidth`);
  if (bandwidth) iface.bandwidth = bandwidth;
  return iface;
}

function readFwCfgEntry(entry: XmlNode, where: string): DomainSysinfoFwCfgEntry {
  const name = attr(entry, 'name');
  const file = attr(entry, 'file');
  if (!name || !file) {
    throw new DomainXmlParseError(where, 'fw_cfg entry without name or file (inline values are not supported)');
  }
  return { name, file };
}

function readMetadata(metadata: XmlNode | undefined): Record<string, string> | undefined {
  if (!metadata) return undefined;
  for (const key of Object.keys(metadata)) {
    if (key.startsWith(ATTR) || key.startsWith('#')) continue;
    for (const element of children(metadata, key)) {
      const prefix = namespacePrefix(element, VIRTSEED_XML_NAMESPACE);
      if (prefix === undefined || key !== `${prefix}instance`) continue;
      const result: Record<string, string> = {};
      for (const entry of children(element, `${prefix}entry`)) {
        const name = attr(entry, 'key');
        if (name !== undefined) result[name] = rawText(entry) ?? '';
      }
      return result;
    }
  }
  return undefined;
}

/** `'qemu:'` when the element declares `xmlns:qemu` = `namespace`, `''` for a default namespace, else undefined. */
