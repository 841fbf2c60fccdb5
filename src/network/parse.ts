/**
 * libvirt network XML → NetworkSpec. Accepts what `virsh net-dumpxml` (virNetworkGetXMLDesc) returns: libvirt's
 * own additions (`<mac>`, bridge `stp`/`delay`, `<nat>` port ranges, `connections`) are ignored. Pure.
 */
import { attr, child, children, newParser, text, type XmlNode } from '../xml';
import { netmaskToPrefix } from '../ip';
import { NetworkXmlParseError } from './errors';
import { isOneOf } from '../fields';
import type { NetworkDnsHost, NetworkIp, NetworkSpec } from './model';
import { FORWARD_MODES } from './validate';

/**
 * Reads a network definition back into a spec (parse(render(s)) deep-equals s for a spec in normal form:
 * lowercase MACs, optional fields absent rather than undefined). The uuid libvirt assigned appears in the result.
 * @throws NetworkXmlParseError when the root is not `<network>`, the name is missing, or a forward mode or
 *   `<ip>` is of a form the model does not cover (e.g. `hostdev`, `passthrough`, an IP without prefix/netmask).
 */
export function parseNetworkXml(xml: string): NetworkSpec {
  let document: XmlNode;
  try {
    document = newParser().parse(xml, true) as XmlNode;
  } catch (err) {
    throw new NetworkXmlParseError('(document)', `not well-formed XML: ${(err as Error).message}`);
  }
  const network = child(document, 'network');
  if (!network) throw new NetworkXmlParseError('(document)', 'the root element is not <network>');
  const name = text(child(network, 'name'));
  if (!name) throw new NetworkXmlParseError('network/name', 'missing');
  const spec: NetworkSpec = { name, ips: [], dnsHosts: [] };
  const uuid = text(child(network, 'uuid'));
  if (uuid) spec.uuid = uuid;
  const forward = child(network, 'forward');
  if (forward) {
    const mode = attr(forward, 'mode') ?? 'nat';
    if (!isOneOf(FORWARD_MODES, mode))
      throw new NetworkXmlParseError('network/forward/@mode', `unsupported mode '${mode}' (expected ${FORWARD_MODES.join(', ')})`);
    spec.forward = { mode };
    const dev = attr(forward, 'dev');
    if (dev !== undefined) spec.forward.dev = dev;
  }
  const bridge = attr(child(network, 'bridge'), 'name');
  if (bridge !== undefined) spec.bridge = bridge;
  const mtu = attr(child(network, 'mtu'), 'size');
  if (mtu !== undefined) spec.mtu = Number(mtu);
  const domain = attr(child(network, 'domain'), 'name');
  if (domain !== undefined) spec.domain = domain;
  spec.dnsHosts = children(child(network, 'dns'), 'host').map((h, i): NetworkDnsHost => {
    const ip = attr(h, 'ip');
    if (!ip) throw new NetworkXmlParseError(`network/dns/host[${i}]/@ip`, 'missing');
    return { ip, hostnames: children(h, 'hostname').map((n) => text(n) ?? '') };
  });
  spec.ips = children(network, 'ip').map((ip, i) => readIp(ip, `network/ip[${i}]`));
  return spec;
}

function readIp(node: XmlNode, at: string): NetworkIp {
  const address = attr(node, 'address');
  if (!address) throw new NetworkXmlParseError(`${at}/@address`, 'missing');
  const family = attr(node, 'family') === 'ipv6' || address.includes(':') ? 'ipv6' : 'ipv4';
  const prefixText = attr(node, 'prefix');
  const netmask = attr(node, 'netmask');
  const prefix =
    prefixText !== undefined ? Number(prefixText) : netmask !== undefined ? netmaskToPrefix(netmask) : family === 'ipv4' ? undefined : 64;
  if (prefix === undefined || !Number.isInteger(prefix))
    throw new NetworkXmlParseError(`${at}/@prefix`, 'missing or invalid prefix/netmask');
  const dhcp = child(node, 'dhcp');
  return {
    family,
    address,
    prefix,
    dhcpRanges: children(dhcp, 'range').map((r) => ({ start: attr(r, 'start') ?? '', end: attr(r, 'end') ?? '' })),
    dhcpHosts: children(dhcp, 'host').map((h) => {
      const mac = attr(h, 'mac');
      const name = attr(h, 'name');
      return { ...(mac !== undefined ? { mac: mac.toLowerCase() } : {}), ...(name !== undefined ? { name } : {}), ip: attr(h, 'ip') ?? '' };
    }),
  };
}
