/**
 * Reads ./model.ts's devices and settings from a domain's XML as libvirt returns it (`virsh dumpxml`), for
 * ../parse.ts: the inverse of ./render.ts. What libvirt adds on its own (the PS/2 mouse and keyboard, the console
 * that mirrors serial port 0, `<audio>`, `<memballoon>`, controllers, addresses, aliases, video `vram`/`heads`) is
 * left out; a form the model does not cover throws, so a read never silently drops a device a later apply would
 * then remove. Pure.
 */
import { BOOT_DEVICES, DOMAIN_FIELDS, isOneOf, valuesOf } from '../../fields';
import { DomainXmlParseError } from '../errors';
import { ATTR, attr, child, children, rawText, text, type XmlNode } from '../../xml';
import type {
  DomainBandwidth,
  DomainBandwidthLimit,
  DomainBootDevice,
  DomainChannel,
  DomainCharSource,
  DomainCharSpicevmc,
  DomainCharUnix,
  DomainCharPty,
  DomainDirectMode,
  DomainFilesystem,
  DomainGraphics,
  DomainHostdev,
  DomainLifecycleAction,
  DomainMemoryBacking,
  DomainVideo,
} from './model';

/** The allowed values of the domain's fields: the table's own (src/fields/domain.ts), never spelled again here. */
const F = DOMAIN_FIELDS.fields;
const VIDEO_MODELS = valuesOf(F.video);
const ACCESS_MODES = valuesOf(F.filesystem.fields.access_mode);
const LIFECYCLE_ACTIONS = valuesOf(F.on_crash);
const DIRECT_MODES = valuesOf(F.network_interface.fields.direct_mode);

function oneOf<T extends string>(values: readonly T[], value: string | undefined, where: string, what: string): T {
  if (isOneOf(values, value)) return value;
  throw new DomainXmlParseError(where, `unsupported ${what} '${value ?? ''}' (expected ${values.join(', ')})`);
}

function integer(value: string | undefined, where: string): number {
  if (value === undefined || !/^(0x[0-9a-fA-F]+|\d+)$/.test(value))
    throw new DomainXmlParseError(where, `not a whole number: '${value ?? ''}'`);
  return Number(value);
}

function optionalInteger(value: string | undefined, where: string): number | undefined {
  return value === undefined ? undefined : integer(value, where);
}

/** `<graphics>` (attribute `listen` and `<listen>` both read; `autoport='yes'` means no fixed port). */
export function readGraphics(node: XmlNode, where: string): DomainGraphics {
  const type = oneOf(valuesOf(F.graphics.fields.type), attr(node, 'type'), `${where}/@type`, 'graphics type');
  const listenNode = child(node, 'listen');
  const listenType = attr(listenNode, 'type') ?? (attr(node, 'socket') ? 'socket' : 'address');
  let listen: DomainGraphics['listen'];
  if (listenType === 'socket') {
    const socket = attr(listenNode, 'socket') ?? attr(node, 'socket');
    if (!socket) throw new DomainXmlParseError(`${where}/listen/@socket`, 'a socket listener without a path');
    listen = { type: 'socket', socket };
  } else if (listenType === 'address') {
    // No address: QEMU's vnc_listen/spice_listen of qemu.conf, 127.0.0.1 unless changed.
    listen = { type: 'address', address: attr(listenNode, 'address') ?? attr(node, 'listen') ?? '127.0.0.1' };
  } else {
    throw new DomainXmlParseError(`${where}/listen/@type`, `unsupported graphics listener '${listenType}' (expected address or socket)`);
  }
  const out: DomainGraphics = { type, listen };
  if (listen.type === 'address' && attr(node, 'autoport') !== 'yes') {
    const port = optionalInteger(attr(node, 'port'), `${where}/@port`);
    if (port !== undefined && port > 0) out.port = port;
  }
  const password = attr(node, 'passwd');
  if (password !== undefined) out.password = password;
  return out;
}

/** The port QEMU listens on for a running domain's `<graphics>` (its live XML), or undefined. */
export function livePort(node: XmlNode): number | undefined {
  const port = Number(attr(node, 'port'));
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

export function readVideo(node: XmlNode, where: string): DomainVideo {
  return { model: oneOf(VIDEO_MODELS, attr(child(node, 'model'), 'type'), `${where}/model/@type`, 'video model') };
}

export function readFilesystem(node: XmlNode, where: string): DomainFilesystem {
  if ((attr(node, 'type') ?? 'mount') !== 'mount') {
    throw new DomainXmlParseError(`${where}/@type`, `unsupported filesystem type '${attr(node, 'type')}' (expected mount)`);
  }
  const source = attr(child(node, 'source'), 'dir');
  const target = attr(child(node, 'target'), 'dir');
  if (!source || !target) throw new DomainXmlParseError(where, 'a filesystem without source or target dir');
  const driver = attr(child(node, 'driver'), 'type') ?? 'path';
  if (driver === 'virtiofs') return { driver: 'virtiofs', source, target };
  if (driver !== 'path' && driver !== 'handle') {
    throw new DomainXmlParseError(`${where}/driver/@type`, `unsupported filesystem driver '${driver}' (expected virtiofs or path)`);
  }
  const fs: DomainFilesystem = { driver: '9p', source, target };
  const accessMode = oneOf(ACCESS_MODES, attr(node, 'accessmode') ?? 'passthrough', `${where}/@accessmode`, 'access mode');
  if (accessMode !== 'passthrough') fs.accessMode = accessMode;
  if (child(node, 'readonly')) fs.readonly = true;
  return fs;
}

/** The host side of a serial port or console. */
export function readCharSource(node: XmlNode, where: string): DomainCharSource {
  const type = attr(node, 'type') ?? 'pty';
  const source = child(node, 'source');
  switch (type) {
    case 'pty':
      return { type };
    case 'file': {
      const path = attr(source, 'path');
      if (!path) throw new DomainXmlParseError(`${where}/source/@path`, 'missing');
      return { type, path };
    }
    case 'unix': {
      const path = attr(source, 'path');
      if ((attr(source, 'mode') ?? 'bind') !== 'bind')
        throw new DomainXmlParseError(`${where}/source/@mode`, 'only bind (QEMU listens) is supported');
      return path ? { type, path } : { type };
    }
    case 'tcp': {
      if ((attr(source, 'mode') ?? 'bind') !== 'bind')
        throw new DomainXmlParseError(`${where}/source/@mode`, 'only bind (QEMU listens) is supported');
      return { type, host: attr(source, 'host') ?? '127.0.0.1', port: integer(attr(source, 'service'), `${where}/source/@service`) };
    }
    default:
      throw new DomainXmlParseError(`${where}/@type`, `unsupported character device type '${type}' (expected pty, file, unix or tcp)`);
  }
}

/** A virtio channel's host side: a unix socket (path libvirt's when absent), a pty, or SPICE's agent channel. */
export function readChannelSource(node: XmlNode, where: string): DomainChannel['source'] {
  const type = attr(node, 'type');
  if (type === 'spicevmc') return { type } satisfies DomainCharSpicevmc;
  if (type === 'pty') return { type } satisfies DomainCharPty;
  if (type === 'unix') return readCharSource(node, where) as DomainCharUnix;
  throw new DomainXmlParseError(`${where}/@type`, `unsupported channel type '${type ?? ''}' (expected unix, pty or spicevmc)`);
}

export function readHostdev(node: XmlNode, where: string): DomainHostdev {
  if ((attr(node, 'mode') ?? 'subsystem') !== 'subsystem')
    throw new DomainXmlParseError(`${where}/@mode`, 'only subsystem host devices are supported');
  const type = oneOf(valuesOf(F.hostdev.fields.type), attr(node, 'type'), `${where}/@type`, 'host device type');
  const address = child(child(node, 'source'), 'address');
  if (!address)
    throw new DomainXmlParseError(`${where}/source/address`, 'a host device is selected by its address (vendor/product is not supported)');
  const managed = attr(node, 'managed') === 'no' ? { managed: false } : {};
  if (type === 'pci') {
    const at = (name: string) => integer(attr(address, name), `${where}/source/address/@${name}`);
    return { type, address: { domain: at('domain'), bus: at('bus'), slot: at('slot'), function: at('function') }, ...managed };
  }
  return {
    type,
    bus: integer(attr(address, 'bus'), `${where}/source/address/@bus`),
    device: integer(attr(address, 'device'), `${where}/source/address/@device`),
    ...managed,
  };
}

/** `<os><boot dev>` in order; undefined for `['hd']` (the normal form) or none. */
export function readBootDevices(os: XmlNode | undefined): DomainBootDevice[] | undefined {
  const devs = children(os, 'boot').map((b, i) => oneOf(BOOT_DEVICES, attr(b, 'dev'), `domain/os/boot[${i}]/@dev`, 'boot device'));
  return devs.length === 0 || (devs.length === 1 && devs[0] === 'hd') ? undefined : devs;
}

/** `<on_poweroff>`-style element text, or undefined when absent or `fallback`. */
export function readLifecycle(domain: XmlNode, name: string, fallback: DomainLifecycleAction): DomainLifecycleAction | undefined {
  const value = text(child(domain, name));
  if (value === undefined) return undefined;
  const action = oneOf(LIFECYCLE_ACTIONS, value, `domain/${name}`, 'lifecycle action');
  return action === fallback ? undefined : action;
}

/** `<memoryBacking>` when it is exactly shared memfd memory (other forms are not the model's). */
export function readMemoryBacking(node: XmlNode | undefined): DomainMemoryBacking | undefined {
  if (!node) return undefined;
  return attr(child(node, 'source'), 'type') === 'memfd' && attr(child(node, 'access'), 'mode') === 'shared'
    ? { source: 'memfd', access: 'shared' }
    : undefined;
}

function readLimit(node: XmlNode | undefined, where: string): DomainBandwidthLimit | undefined {
  if (!node) return undefined;
  const limit: DomainBandwidthLimit = { average: integer(attr(node, 'average'), `${where}/@average`) };
  const peak = optionalInteger(attr(node, 'peak'), `${where}/@peak`);
  const burst = optionalInteger(attr(node, 'burst'), `${where}/@burst`);
  if (peak !== undefined) limit.peak = peak;
  if (burst !== undefined) limit.burst = burst;
  return limit;
}

export function readBandwidth(node: XmlNode | undefined, where: string): DomainBandwidth | undefined {
  if (!node) return undefined;
  const inbound = readLimit(child(node, 'inbound'), `${where}/inbound`);
  const outbound = readLimit(child(node, 'outbound'), `${where}/outbound`);
  if (!inbound && !outbound) return undefined;
  return { ...(inbound ? { inbound } : {}), ...(outbound ? { outbound } : {}) };
}

export function readDirectMode(value: string | undefined, where: string): DomainDirectMode {
  return oneOf(DIRECT_MODES, value ?? 'vepa', where, 'macvtap mode');
}

/** The key/values of the `<metadata>` child in `namespace` (`<x:entry key=...>value</x:entry>`), any prefix. */
export function readNamespacedEntries(
  metadata: XmlNode | undefined,
  namespace: string,
  element: string,
): Record<string, string> | undefined {
  if (!metadata) return undefined;
  for (const key of Object.keys(metadata)) {
    if (key.startsWith(ATTR) || key.startsWith('#')) continue;
    for (const node of children(metadata, key)) {
      const prefix = prefixOf(node, namespace);
      if (prefix === undefined || key !== `${prefix}${element}`) continue;
      const result: Record<string, string> = {};
      for (const entry of children(node, `${prefix}entry`)) {
        const name = attr(entry, 'key');
        if (name !== undefined) result[name] = rawText(entry) ?? '';
      }
      return result;
    }
  }
  return undefined;
}

function prefixOf(element: XmlNode, namespace: string): string | undefined {
  for (const key of Object.keys(element)) {
    if (element[key] !== namespace) continue;
    if (key === `${ATTR}xmlns`) return '';
    if (key.startsWith(`${ATTR}xmlns:`)) return `${key.slice(`${ATTR}xmlns:`.length)}:`;
  }
  return undefined;
}
