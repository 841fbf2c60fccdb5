/**
 * libvirt domain XML → DomainSpec, read with fast-xml-parser's XMLParser. Accepts what `virsh dumpxml` (or
 * `virDomainGetXMLDesc`) returns: unknown elements, `<emulator>`, controllers, addresses and aliases are ignored.
 * Pure.
 */
import { DomainXmlParseError } from './errors';
import {
  QEMU_AGENT_CHANNEL_NAME,
  QEMU_XML_NAMESPACE,
  VIRTSEED_XML_NAMESPACE,
  type DomainCpuMode,
  type DomainDisk,
  type DomainDiskSource,
  type DomainInterface,
  type DomainInterfaceModel,
  type DomainOs,
  type DomainSpec,
  type DomainSysinfoFwCfgEntry,
} from './model';
import { firmwareOf } from './private/firmware';
import { takeUserNetdevArgs } from './private/user-netdev';
import { toMiB } from './private/units';
import { ATTR, attr, child, children, newParser, rawText, text, type XmlNode } from '../xml';

const CPU_MODES: readonly DomainCpuMode[] = ['host-passthrough', 'host-model', 'maximum', 'custom'];
const NIC_MODELS: readonly DomainInterfaceModel[] = ['virtio', 'e1000', 'rtl8139'];

/**
 * Reads a domain definition back into the spec `renderDomainXml` was given (parse(render(s)) deep-equals s for
 * a spec in normal form: no empty optional lists/objects, no `restrict: false`, no `model: 'virtio'`, no
 * `os` without `kernel`). Values libvirt adds (uuid, MAC addresses) appear in the result.
 * Memory is returned in MiB (from any libvirt unit); `readonly`/`restrict` appear only when true.
 * @throws DomainXmlParseError when the root is not `<domain>`, a required element is missing, or a disk,
 *   interface, cpu or fw_cfg entry uses a form the model does not cover (e.g. a block disk, a direct interface).
 */
export function parseDomainXml(xml: string): DomainSpec {
  let document: XmlNode;
  try {
    document = newParser().parse(xml, true) as XmlNode;
  } catch (err) {
    throw new DomainXmlParseError('(document)', `not well-formed XML: ${(err as Error).message}`);
  }
  const domain = child(document, 'domain');
  if (!domain) throw new DomainXmlParseError('(document)', 'the root element is not <domain>');
  return readDomain(domain);
}

function readDomain(domain: XmlNode): DomainSpec {
  const type = attr(domain, 'type');
  if (type !== 'kvm' && type !== 'qemu') {
    throw new DomainXmlParseError('domain/@type', `unsupported domain type '${type ?? ''}' (expected kvm or qemu)`);
  }
  const name = text(child(domain, 'name'));
  if (!name) throw new DomainXmlParseError('domain/name', 'missing');
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
  const devices = child(domain, 'devices');
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
  spec.interfaces = mergeInterfaces(
    children(devices, 'interface').map((n, i) => readInterface(n, `domain/devices/interface[${i}]`)),
    restricted,
  );
  if (rest.length) spec.qemuCommandline = rest;
  return spec;
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
  if (!(CPU_MODES as readonly string[]).includes(mode)) {
    throw new DomainXmlParseError('domain/cpu/@mode', `unsupported cpu mode '${mode}'`);
  }
  const model = text(child(cpu, 'model'));
  if (mode === 'custom' && !model) return; // topology/feature-only <cpu>: no mode chosen
  spec.cpuMode = mode as DomainCpuMode;
  if (model) spec.cpuModel = model;
}

/**
 * libvirt 9 writes its default CPU into definitions that have no `<cpu>`:
 * `<cpu mode='custom' match='exact' check='none'><model fallback='forbid'>qemu64</model></cpu>`. A `<cpu>` we
 * rendered never has `fallback='forbid'` (libvirt stores `allow` for ours), so this shape means "no cpuMode".
 */
function isLibvirtDefaultCpu(cpu: XmlNode): boolean {
  const model = child(cpu, 'model');
  const elements = Object.keys(cpu).filter((k) => !k.startsWith(ATTR) && !k.startsWith('#'));
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
  if (bus !== 'virtio' && bus !== 'sata' && bus !== 'scsi') {
    throw new DomainXmlParseError(`${where}/target/@bus`, `unsupported bus '${bus ?? ''}'`);
  }
  const result: DomainDisk = { source: readDiskSource(disk, where), target: dev, bus, device };
  const format = attr(child(disk, 'driver'), 'type');
  if (format !== undefined) {
    if (format !== 'qcow2' && format !== 'raw') {
      throw new DomainXmlParseError(`${where}/driver/@type`, `unsupported image format '${format}'`);
    }
    result.format = format;
  }
  if (child(disk, 'readonly')) result.readonly = true;
  return result;
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
  } else {
    throw new DomainXmlParseError(`${where}/@type`, `unsupported interface type '${type ?? ''}'`);
  }
  const model = attr(child(node, 'model'), 'type');
  if (model !== undefined && model !== 'virtio') {
    if (!(NIC_MODELS as readonly string[]).includes(model)) {
      throw new DomainXmlParseError(`${where}/model/@type`, `unsupported NIC model '${model}'`);
    }
    iface.model = model as DomainInterfaceModel;
  }
  const mac = attr(child(node, 'mac'), 'address');
  if (mac !== undefined) iface.mac = mac;
  if (attr(child(node, 'link'), 'state') === 'down') iface.linkState = 'down';
  return iface;
}

/** Puts the command-line interfaces back at their recorded positions; `<interface>` elements fill the gaps. */
function mergeInterfaces(fromXml: DomainInterface[], fromArgs: { index: number; iface: DomainInterface }[]): DomainInterface[] {
  const byIndex = new Map(fromArgs.map((r) => [r.index, r.iface]));
  const result: DomainInterface[] = [];
  const queue = [...fromXml];
  while (queue.length || byIndex.size) {
    const recorded = byIndex.get(result.length);
    if (recorded) {
      byIndex.delete(result.length);
      result.push(recorded);
    } else if (queue.length) {
      result.push(queue.shift() as DomainInterface);
    } else {
      // Recorded positions beyond the end (interfaces removed from the XML): keep their order.
      const next = Math.min(...byIndex.keys());
      result.push(byIndex.get(next) as DomainInterface);
      byIndex.delete(next);
    }
  }
  return result;
}

function readFwCfgEntry(entry: XmlNode, where: string): DomainSysinfoFwCfgEntry {
  const name = attr(entry, 'name');
  const file = attr(entry, 'file');
  if (!name || !file) {
    throw new DomainXmlParseError(where, 'fw_cfg entry without name or file (inline values are not supported)');
  }
  return { name, file };
}

function readQemuArgs(domain: XmlNode): string[] {
  const prefix = namespacePrefix(domain, QEMU_XML_NAMESPACE);
  if (prefix === undefined) return [];
  return children(domain, `${prefix}commandline`)
    .flatMap((c) => children(c, `${prefix}arg`))
    .map((a) => attr(a, 'value') ?? '');
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
function namespacePrefix(element: XmlNode, namespace: string): string | undefined {
  for (const key of Object.keys(element)) {
    if (element[key] !== namespace) continue;
    if (key === `${ATTR}xmlns`) return '';
    if (key.startsWith(`${ATTR}xmlns:`)) return `${key.slice(`${ATTR}xmlns:`.length)}:`;
  }
  return undefined;
}
