/**
 * The elements of ./model.ts's devices and settings as fast-xml-parser builder nodes (../../xml.ts), for
 * ../render.ts. Pure; each function renders one element (formatdomain, libvirt 9.0), the inverse of ./parse.ts.
 */
import { DOMAIN_FIELDS } from '../../fields';
import { ATTR, type XmlNode } from '../../xml';
import type {
  DomainBandwidth,
  DomainBandwidthLimit,
  DomainChannel,
  DomainCharSource,
  DomainCharSpicevmc,
  DomainConsole,
  DomainFilesystem,
  DomainGraphics,
  DomainHostdev,
  DomainVideo,
} from './model';

const a = (name: string): string => ATTR + name;

/** The domain's field table: the defaults render writes where the model has none (src/fields/domain.ts). */
const F = DOMAIN_FIELDS.fields;

const hex = (n: number, width: number): string => `0x${n.toString(16).padStart(width, '0')}`;

/** `<graphics type=... [port] autoport [passwd]><listen .../></graphics>`. */
export function graphicsElement(g: DomainGraphics): XmlNode {
  const el: XmlNode = { [a('type')]: g.type };
  if (g.listen.type === 'address') {
    if (g.port !== undefined) el[a('port')] = String(g.port);
    el[a('autoport')] = g.port === undefined ? 'yes' : 'no';
  }
  if (g.password !== undefined) el[a('passwd')] = g.password;
  el.listen =
    g.listen.type === 'address'
      ? { [a('type')]: 'address', [a('address')]: g.listen.address }
      : { [a('type')]: 'socket', [a('socket')]: g.listen.socket };
  return el;
}

/** `<video><model type=.../></video>`. */
export function videoElement(v: DomainVideo): XmlNode {
  return { model: { [a('type')]: v.model } };
}

/** `<filesystem type='mount' accessmode=...>` with the virtiofs driver, or 9p (libvirt's default driver, no
 *  `<driver>` element). */
export function filesystemElement(f: DomainFilesystem): XmlNode {
  const accessMode = (f.driver === '9p' ? f.accessMode : undefined) ?? F.filesystem.fields.access_mode.default;
  const el: XmlNode = { [a('type')]: 'mount', [a('accessmode')]: accessMode };
  if (f.driver === 'virtiofs') el.driver = { [a('type')]: 'virtiofs' };
  el.source = { [a('dir')]: f.source };
  el.target = { [a('dir')]: f.target };
  if (f.driver === '9p' && f.readonly) el.readonly = '';
  return el;
}

/** The host side of a character device: its `type` attribute and `<source>` (and `<protocol>` for tcp). */
function charSource(s: DomainCharSource | DomainCharSpicevmc): XmlNode {
  const el: XmlNode = { [a('type')]: s.type };
  if (s.type === 'file') el.source = { [a('path')]: s.path };
  if (s.type === 'unix' && s.path !== undefined) el.source = { [a('mode')]: 'bind', [a('path')]: s.path };
  if (s.type === 'tcp') {
    el.source = { [a('mode')]: 'bind', [a('host')]: s.host, [a('service')]: String(s.port) };
    el.protocol = { [a('type')]: 'raw' };
  }
  return el;
}

/** `<serial type=...>...<target port=N/></serial>`. */
export function serialElement(source: DomainCharSource, port: number): XmlNode {
  return { ...charSource(source), target: { [a('port')]: String(port) } };
}

/** `<console type=...>...<target type='virtio'/></console>`. */
export function consoleElement(c: DomainConsole): XmlNode {
  return { ...charSource(c.source), target: { [a('type')]: 'virtio' } };
}

/** `<channel type=...>...<target type='virtio' name=.../></channel>`. */
export function channelElement(c: DomainChannel): XmlNode {
  return { ...charSource(c.source), target: { [a('type')]: 'virtio', [a('name')]: c.name } };
}

/** `<hostdev mode='subsystem' type=... managed=...><source>…</source></hostdev>`. */
export function hostdevElement(h: DomainHostdev): XmlNode {
  const el: XmlNode = { [a('mode')]: 'subsystem', [a('type')]: h.type, [a('managed')]: h.managed === false ? 'no' : 'yes' };
  el.source =
    h.type === 'pci'
      ? {
          address: {
            [a('domain')]: hex(h.address.domain, 4),
            [a('bus')]: hex(h.address.bus, 2),
            [a('slot')]: hex(h.address.slot, 2),
            [a('function')]: hex(h.address.function, 1),
          },
        }
      : { address: { [a('bus')]: String(h.bus), [a('device')]: String(h.device) } };
  return el;
}

function limitElement(l: DomainBandwidthLimit): XmlNode {
  const el: XmlNode = { [a('average')]: String(l.average) };
  if (l.peak !== undefined) el[a('peak')] = String(l.peak);
  if (l.burst !== undefined) el[a('burst')] = String(l.burst);
  return el;
}

/** `<bandwidth><inbound .../><outbound .../></bandwidth>`. */
export function bandwidthElement(b: DomainBandwidth): XmlNode {
  const el: XmlNode = {};
  if (b.inbound) el.inbound = limitElement(b.inbound);
  if (b.outbound) el.outbound = limitElement(b.outbound);
  return el;
}
