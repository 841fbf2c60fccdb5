/**
 * Device addresses kept across a new definition of a domain. virtseed renders `<devices>` without guest addresses
 * (formatdomain "Device Addresses"), and libvirt gives each device that has none the first free one when the
 * definition is defined; a NIC or disk attached live sits at whatever slot was free then (after every other
 * device), so a new definition would move it at the next start (issue 31: a hot-plugged NIC from 0000:00:08.0 to
 * 0000:00:03.0, `ens8` → `ens3`). So before a definition is defined, each of its NICs and disks that has no
 * `<address>` gets the one the same device has in the domain now: its live XML first, then its persistent one.
 * NICs are the same device by MAC, disks by target (`vda`) on the same bus. An address another device of the new
 * definition already has (kept or written) is not given twice. Pure: XML text in, XML text out.
 */
import { attr, child, children, newParser, type XmlNode } from '../xml';

/** One device's identity and the `<address>` it has. */
interface Held {
  readonly key: string;
  readonly address: XmlNode;
}

function keyOf(tag: 'interface' | 'disk', node: XmlNode): string | undefined {
  if (tag === 'interface') {
    const mac = attr(child(node, 'mac'), 'address');
    return mac ? `interface:${mac.toLowerCase()}` : undefined;
  }
  const target = child(node, 'target');
  const dev = attr(target, 'dev');
  return dev ? `disk:${dev}:${attr(target, 'bus') ?? ''}` : undefined;
}

/** Attributes of an `<address>` as one comparable string (what two devices must not share). */
function addressKey(address: XmlNode): string {
  return Object.keys(address)
    .filter((k) => k.startsWith('@_'))
    .sort()
    .map((k) => `${k}=${String(address[k])}`)
    .join(' ');
}

function addressXml(address: XmlNode): string {
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/'/g, '&apos;').replace(/</g, '&lt;');
  const attrs = Object.keys(address)
    .filter((k) => k.startsWith('@_'))
    .map((k) => ` ${k.slice(2)}='${esc(String(address[k]))}'`)
    .join('');
  return `<address${attrs}/>`;
}

/** The NICs and disks of a domain XML that have an address, by identity (the first of a key wins). */
function heldAddresses(xml: string): Held[] {
  const devices = child(child(newParser().parse(xml) as XmlNode, 'domain'), 'devices');
  const out: Held[] = [];
  for (const tag of ['interface', 'disk'] as const)
    for (const node of children(devices, tag)) {
      const key = keyOf(tag, node);
      const address = child(node, 'address');
      if (key && address) out.push({ key, address });
    }
  return out;
}

/** The `<interface>` and `<disk>` elements of a domain XML (neither nests), with where they end. */
const DEVICE = /<(interface|disk)\b[^>]*>[\s\S]*?<\/\1>/g;

/**
 * `xml` (a domain definition to define) with each NIC and disk that has no `<address>` given the address the same
 * device has in `current` (the domain's XMLs now, the live one first); devices found nowhere, and addresses
 * another device already has, are left to libvirt.
 * @throws Error from the XML parser when `xml` or one of `current` is not well-formed.
 */
export function keepDeviceAddresses(xml: string, current: readonly string[]): string {
  const known = new Map<string, XmlNode>();
  for (const h of current.flatMap(heldAddresses)) if (!known.has(h.key)) known.set(h.key, h.address);
  if (!known.size) return xml;
  const used = new Set(
    [...xml.matchAll(/<address\b[^>]*\/>/g)].map((m) => addressKey(child(newParser().parse(m[0]) as XmlNode, 'address') ?? {})),
  );
  return xml.replace(DEVICE, (element, tag: 'interface' | 'disk') => {
    const node = child(newParser().parse(element) as XmlNode, tag);
    if (!node || child(node, 'address')) return element;
    const key = keyOf(tag, node);
    const address = key ? known.get(key) : undefined;
    if (!address || used.has(addressKey(address))) return element;
    used.add(addressKey(address));
    const close = `</${tag}>`;
    return `${element.slice(0, element.length - close.length)}${addressXml(address)}${close}`;
  });
}
