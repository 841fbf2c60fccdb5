/**
 * How a restricted QEMU user-mode interface (`{type: 'user', restrict: true}`) is carried in
 * `<qemu:commandline>`, shared by the renderer and the parser so that the encoding lives in one place.
 *
 * Interface number N of the spec becomes four arguments, in QEMU's JSON option syntax:
 *   -netdev {"type":"user","id":"vsnetN","restrict":true}
 *   -device {"driver":"virtio-net-pci","netdev":"vsnetN"[,"mac":"MAC"]}
 * JSON matters: QEMU 7.2 creates JSON `-device`s (which libvirt uses) in command-line order but key=value ones
 * earlier, so a key=value NIC would take a PCI slot libvirt already assigned to one of its devices. Coming after
 * libvirt's devices, ours takes the next free slot. The N in the id keeps the interface's position among the
 * `<interface>` elements on a round trip.
 */
import { QEMU_XML_NAMESPACE, type DomainInterfaceModel, type DomainInterfaceUser } from '../model';
import { DOMAIN_FIELDS, valuesOf } from '../../fields';
import { ATTR, attr, children, type XmlNode } from '../../xml';

const DEVICE_BY_MODEL: Record<DomainInterfaceModel, string> = {
  virtio: 'virtio-net-pci',
  e1000: 'e1000',
  rtl8139: 'rtl8139',
};

const ID_RE = /^vsnet(\d+)$/;

/** The four QEMU arguments for the interface at `index`. */
export function userNetdevArgs(index: number, iface: DomainInterfaceUser): string[] {
  const id = `vsnet${index}`;
  const device: Record<string, string> = {
    driver: DEVICE_BY_MODEL[iface.model ?? DOMAIN_FIELDS.fields.network_interface.fields.model.default],
    netdev: id,
  };
  if (iface.mac !== undefined) device.mac = iface.mac;
  return ['-netdev', JSON.stringify({ type: 'user', id, restrict: true }), '-device', JSON.stringify(device)];
}

/** A restricted user interface recovered from command-line arguments, with its spec position. */
export interface RecoveredUserNetdev {
  index: number;
  iface: DomainInterfaceUser;
}

/** Splits `<qemu:commandline>` arguments into our restricted interfaces and the user's own arguments. */
export function takeUserNetdevArgs(args: readonly string[]): { interfaces: RecoveredUserNetdev[]; rest: string[] } {
  const interfaces: RecoveredUserNetdev[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const recovered = args[i] === '-netdev' && args[i + 2] === '-device' ? match(args[i + 1], args[i + 3]) : undefined;
    if (recovered) {
      interfaces.push(recovered);
      i += 3;
    } else {
      rest.push(args[i]);
    }
  }
  return { interfaces, rest };
}

function match(netdevArg: string | undefined, deviceArg: string | undefined): RecoveredUserNetdev | undefined {
  const netdev = jsonObject(netdevArg);
  const device = jsonObject(deviceArg);
  if (!netdev || !device) return undefined;
  const id = ID_RE.exec(String(netdev.id));
  if (!id || netdev.type !== 'user' || netdev.restrict !== true || device.netdev !== netdev.id) return undefined;
  if (!sameKeys(netdev, ['type', 'id', 'restrict']) || !sameKeys(device, ['driver', 'netdev', 'mac'])) return undefined;
  const model = valuesOf(DOMAIN_FIELDS.fields.network_interface.fields.model).find((m) => DEVICE_BY_MODEL[m] === device.driver);
  if (!model) return undefined;
  const iface: DomainInterfaceUser = { type: 'user', restrict: true };
  if (model !== 'virtio') iface.model = model;
  if (typeof device.mac === 'string') iface.mac = device.mac;
  return { index: Number(id[1]), iface };
}

function jsonObject(arg: string | undefined): Record<string, unknown> | undefined {
  if (!arg?.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(arg);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function sameKeys(object: Record<string, unknown>, allowed: string[]): boolean {
  return Object.keys(object).every((k) => allowed.includes(k));
}

/** The `<qemu:commandline>` arguments of a parsed `<domain>` element, in order (any namespace prefix). */
export function readQemuArgs(domain: XmlNode): string[] {
  const prefix = namespacePrefix(domain, QEMU_XML_NAMESPACE);
  if (prefix === undefined) return [];
  return children(domain, `${prefix}commandline`)
    .flatMap((c) => children(c, `${prefix}arg`))
    .map((a) => attr(a, 'value') ?? '');
}

/** The prefix (with its colon; '' for a default namespace) `element` declares for `namespace`, if any. */
export function namespacePrefix(element: XmlNode, namespace: string): string | undefined {
  for (const key of Object.keys(element)) {
    if (element[key] !== namespace) continue;
    if (key === `${ATTR}xmlns`) return '';
    if (key.startsWith(`${ATTR}xmlns:`)) return `${key.slice(`${ATTR}xmlns:`.length)}:`;
  }
  return undefined;
}

/**
 * Puts the command-line interfaces back at their recorded positions (`index`); the `<interface>` elements
 * (`fromXml`, in order) fill the gaps.
 */
export function mergeByIndex<T>(fromXml: readonly T[], fromArgs: readonly { index: number; iface: T }[]): T[] {
  const byIndex = new Map(fromArgs.map((r) => [r.index, r.iface]));
  const result: T[] = [];
  const queue = [...fromXml];
  while (queue.length || byIndex.size) {
    if (byIndex.has(result.length)) {
      result.push(byIndex.get(result.length) as T);
      byIndex.delete(result.length - 1);
    } else if (queue.length) {
      result.push(queue.shift() as T);
    } else {
      // Recorded positions beyond the end (interfaces removed from the XML): keep their order.
      const next = Math.min(...byIndex.keys());
      result.push(byIndex.get(next) as T);
      byIndex.delete(next);
    }
  }
  return result;
}
