/**
 * NetworkSpec → libvirt network XML (https://libvirt.org/formatnetwork.html), and the XML fragments
 * virNetworkUpdate takes for live changes. Pure; the output depends only on the spec.
 */
import { ValidationError, hasErrors } from '../diagnostics';
import { ATTR, TEXT, newBuilder, type XmlNode } from '../xml';
import type { NetworkDnsHost, NetworkIp, NetworkIpDhcpHost, NetworkSpec } from './model';
import { validateNetworkSpec } from './validate';

/**
 * The XML for `virNetworkDefineXML`: no `<forward>` for an isolated network; `<domain localOnly='yes'>` so the
 * network's DNS never forwards queries for its own domain; IPv4 subnets with `prefix` (not `netmask`).
 * @throws ValidationError when `validateNetworkSpec(spec)` reports an error.
 */
export function renderNetworkXml(spec: NetworkSpec): string {
  const diagnostics = validateNetworkSpec(spec);
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  const network: XmlNode = { name: spec.name };
  if (spec.uuid !== undefined) network.uuid = spec.uuid;
  if (spec.forward)
    network.forward = {
      [`${ATTR}mode`]: spec.forward.mode,
      ...(spec.forward.dev !== undefined ? { [`${ATTR}dev`]: spec.forward.dev } : {}),
    };
  if (spec.bridge !== undefined) network.bridge = { [`${ATTR}name`]: spec.bridge };
  if (spec.mtu !== undefined) network.mtu = { [`${ATTR}size`]: String(spec.mtu) };
  if (spec.domain !== undefined) network.domain = { [`${ATTR}name`]: spec.domain, [`${ATTR}localOnly`]: 'yes' };
  if (spec.dnsHosts.length) network.dns = { host: spec.dnsHosts.map(dnsHostNode) };
  if (spec.ips.length) network.ip = spec.ips.map(ipNode);
  return newBuilder().build({ network }) as string;
}

/** `<host mac=... name=... ip=.../>` for virNetworkUpdate section IP_DHCP_HOST. */
export function renderDhcpHostXml(host: NetworkIpDhcpHost): string {
  return (newBuilder().build({ host: dhcpHostNode(host) }) as string).trim();
}

/** `<host ip=...><hostname>…</hostname></host>` for virNetworkUpdate section DNS_HOST. */
export function renderDnsHostXml(host: NetworkDnsHost): string {
  return (newBuilder().build({ host: dnsHostNode(host) }) as string).trim();
}

function ipNode(ip: NetworkIp): XmlNode {
  const node: XmlNode = {};
  if (ip.family === 'ipv6') node[`${ATTR}family`] = 'ipv6';
  node[`${ATTR}address`] = ip.address;
  node[`${ATTR}prefix`] = String(ip.prefix);
  if (ip.dhcpRanges.length || ip.dhcpHosts.length) {
    const dhcp: XmlNode = {};
    if (ip.dhcpRanges.length) dhcp.range = ip.dhcpRanges.map((r) => ({ [`${ATTR}start`]: r.start, [`${ATTR}end`]: r.end }));
    if (ip.dhcpHosts.length) dhcp.host = ip.dhcpHosts.map(dhcpHostNode);
    node.dhcp = dhcp;
  }
  return node;
}

function dhcpHostNode(h: NetworkIpDhcpHost): XmlNode {
  return {
    ...(h.mac !== undefined ? { [`${ATTR}mac`]: h.mac.toLowerCase() } : {}),
    ...(h.name !== undefined ? { [`${ATTR}name`]: h.name } : {}),
    [`${ATTR}ip`]: h.ip,
  };
}

function dnsHostNode(h: NetworkDnsHost): XmlNode {
  return { [`${ATTR}ip`]: h.ip, hostname: h.hostnames.map((n) => ({ [TEXT]: n })) };
}
