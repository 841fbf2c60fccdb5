/**
 * libvirt storage pool XML → PoolSpec. Accepts what `virsh pool-dumpxml` (virStoragePoolGetXMLDesc) returns:
 * libvirt's own additions (`<capacity>`, `<allocation>`, `<available>`, target `<permissions>`, netfs mount
 * options) are ignored. Pure.
 */
import { attr, child, children, newParser, text, type XmlNode } from '../xml';
import { PoolXmlParseError } from './errors';
import { isOneOf } from '../fields';
import type { LogicalFormat, NetfsFormat, PoolSource, PoolSpec } from './model';
import { POOL_TYPES } from './validate';

/**
 * Reads a pool definition back into a spec (parse(render(s)) deep-equals s for a spec whose optional fields are
 * absent rather than undefined; libvirt fills in what it defaults, e.g. a logical pool's volume group name and
 * `/dev/<vg>` path, a netfs pool's format `auto`). The uuid libvirt assigned appears in the result.
 * @throws PoolXmlParseError when the root is not `<pool>`, the name is missing, or the type is one the model
 *   does not cover (e.g. `iscsi`, `rbd`).
 */
export function parsePoolXml(xml: string): PoolSpec {
  let document: XmlNode;
  try {
    document = newParser().parse(xml, true) as XmlNode;
  } catch (err) {
    throw new PoolXmlParseError('(document)', `not well-formed XML: ${(err as Error).message}`);
  }
  const pool = child(document, 'pool');
  if (!pool) throw new PoolXmlParseError('(document)', 'the root element is not <pool>');
  const type = attr(pool, 'type');
  if (!isOneOf(POOL_TYPES, type))
    throw new PoolXmlParseError('pool/@type', `unsupported type ${JSON.stringify(type ?? null)} (expected ${POOL_TYPES.join(', ')})`);
  const name = text(child(pool, 'name'))?.trim();
  if (!name) throw new PoolXmlParseError('pool/name', 'missing');
  const spec: PoolSpec = { name, type };
  const uuid = text(child(pool, 'uuid'))?.trim();
  if (uuid) spec.uuid = uuid;
  const path = text(child(child(pool, 'target'), 'path'))?.trim();
  if (path) spec.path = path;
  const source = readSource(child(pool, 'source'));
  if (source) spec.source = source;
  return spec;
}

function readSource(node: XmlNode | undefined): PoolSource | undefined {
  if (!node) return undefined;
  const source: PoolSource = {};
  const host = attr(child(node, 'host'), 'name');
  if (host !== undefined) source.host = host;
  const dir = attr(child(node, 'dir'), 'path');
  if (dir !== undefined) source.dir = dir;
  const devices = children(node, 'device')
    .map((d) => attr(d, 'path'))
    .filter((p): p is string => p !== undefined);
  if (devices.length) source.devices = devices;
  const name = text(child(node, 'name'))?.trim();
  if (name) source.name = name;
  const format = attr(child(node, 'format'), 'type');
  if (format !== undefined) source.format = format as NetfsFormat | LogicalFormat;
  return Object.keys(source).length ? source : undefined;
}
