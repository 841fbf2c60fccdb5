/**
 * Checks a NetworkSpec before rendering: the rules libvirt (formatnetwork) would reject at define or start time,
 * as diagnostics with paths in the spec's own keys (e.g. `['ips', 0, 'dhcpHosts', 1, 'mac']`). Pure.
 */
import { error, type Diagnostic } from '../diagnostics';
import { NETWORK_FIELDS, isOneOf, valuesOf } from '../fields';
import { validateNameAndUuid } from '../object-identity';
import { inSubnet, ipFamily, ipToBigInt } from '../ip';
import type { NetworkForwardMode, NetworkSpec } from './model';

const MAC_RE = /^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/;
/** Linux interface names: 1-15 characters, no `/`, `:` or whitespace. */
const DEV_RE = /^[A-Za-z0-9_.-]{1,15}$/;
/** A DNS name (RFC 1123 labels). */
const HOSTNAME_RE = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** The forward modes: the table's `mode` values but `none` (no `<forward>`: src/fields/network.ts). */
export const FORWARD_MODES: readonly NetworkForwardMode[] = valuesOf(NETWORK_FIELDS.fields.mode).filter(
  (m): m is NetworkForwardMode => m !== 'none',
);

/**
 * Every problem found (empty when valid): name/uuid forms; forward mode and device; `bridge` mode needs an
 * existing host bridge and takes no IP, DHCP, DNS or domain; bridge device names; MTU 68..65535; each `<ip>` a
 * valid address with a prefix in range, at most one IPv4 and one IPv6 subnet with DHCP (libvirt's limit); DHCP
 * ranges and static hosts inside their subnet (IPv4 hosts need a MAC or a name, IPv6 hosts a name; MACs and
 * addresses unique); DNS hosts with valid addresses and hostnames.
 */
export function validateNetworkSpec(spec: NetworkSpec): Diagnostic[] {
  const out: Diagnostic[] = validateNameAndUuid(spec, 'network', 64);
  const mode = spec.forward?.mode;
  if (spec.forward && !isOneOf(FORWARD_MODES, spec.forward.mode))
    out.push(
      error(
        ['forward', 'mode'],
        'Invalid forward mode',
        `Got ${JSON.stringify(spec.forward.mode)}; expected one of ${FORWARD_MODES.join(', ')}, or no forward for an isolated network.`,
      ),
    );
  if (spec.forward?.dev !== undefined && (!DEV_RE.test(spec.forward.dev) || mode === 'bridge'))
    out.push(
      error(
        ['forward', 'dev'],
        'Invalid forward device',
        mode === 'bridge'
          ? 'A bridge-mode network uses the host bridge in bridge; forward dev is for nat, route and open.'
          : `Got ${JSON.stringify(spec.forward.dev)}; expected a host interface name (1-15 letters, digits, '.', '_', '-').`,
      ),
    );
  if (spec.bridge !== undefined && !DEV_RE.test(spec.bridge))
    out.push(
      error(
        ['bridge'],
        'Invalid bridge name',
        `Got ${JSON.stringify(spec.bridge)}; expected a host interface name (1-15 letters, digits, '.', '_', '-').`,
      ),
    );
  if (mode === 'bridge') {
    if (spec.bridge === undefined)
      out.push(
        error(
          ['bridge'],
          'Missing bridge',
          'A bridge-mode network attaches guests to an existing host bridge: name it in bridge (e.g. br0).',
        ),
      );
    if (spec.ips.length)
      out.push(
        error(
          ['ips'],
          'Not allowed in bridge mode',
          "A bridge-mode network has no addresses or DHCP of its own (the host bridge's LAN provides them); remove the ip blocks.",
        ),
      );
    if (spec.dnsHosts.length)
      out.push(
        error(
          ['dnsHosts'],
          'Not allowed in bridge mode',
          'A bridge-mode network has no DNS server of its own; remove the dns_host blocks.',
        ),
      );
    if (spec.domain !== undefined)
      out.push(error(['domain'], 'Not allowed in bridge mode', 'A bridge-mode network has no DNS server of its own; remove domain.'));
  }
  if (spec.domain !== undefined && !HOSTNAME_RE.test(spec.domain))
    out.push(error(['domain'], 'Invalid domain name', `Got ${JSON.stringify(spec.domain)}; expected a DNS name such as vms.test.`));
  if (spec.mtu !== undefined && (!Number.isInteger(spec.mtu) || spec.mtu < 68 || spec.mtu > 65535))
    out.push(error(['mtu'], 'Invalid MTU', `Got ${spec.mtu}; expected a whole number of bytes from 68 to 65535.`));
  const dhcpFamilies = new Set<string>();
  const macs = new Map<string, string>();
  const ips = new Map<string, string>();
  spec.ips.forEach((ip, i) => {
    const at = ['ips', i];
    const family = ipFamily(ip.address);
    const max = family === 'ipv6' ? 128 : 32;
    if (!family || family !== ip.family) {
      out.push(
        error(
          [...at, 'address'],
          'Invalid address',
          `Got ${JSON.stringify(ip.address)}; expected an ${ip.family === 'ipv6' ? 'IPv6' : 'IPv4'} address such as ${ip.family === 'ipv6' ? 'fd00:1::1' : '192.168.150.1'}.`,
        ),
      );
      return;
    }
    if (!Number.isInteger(ip.prefix) || ip.prefix < 1 || ip.prefix > max - 2) {
      out.push(
        error(
          [...at, 'prefix'],
          'Invalid prefix length',
          `Got ${ip.prefix}; expected 1..${max - 2} for ${family === 'ipv6' ? 'IPv6' : 'IPv4'} (a subnet with room for guests).`,
        ),
      );
      return;
    }
    if (family === 'ipv6' && ip.prefix !== 64 && (ip.dhcpRanges.length || ip.dhcpHosts.length))
      out.push(error([...at, 'prefix'], 'Invalid prefix length', `Got ${ip.prefix}; libvirt serves DHCPv6 only on a /64 subnet.`));
    if (ip.dhcpRanges.length || ip.dhcpHosts.length) {
      if (dhcpFamilies.has(family))
        out.push(
          error(
            [...at, 'dhcpRanges'],
            'Second DHCP subnet',
            `libvirt serves DHCP on one ${family === 'ipv6' ? 'IPv6' : 'IPv4'} subnet per network; this is another one. Move its ranges and hosts to the first, or use another network.`,
          ),
        );
      dhcpFamilies.add(family);
    }
    ip.dhcpRanges.forEach((r, j) => {
      const rat = [...at, 'dhcpRanges', j];
      for (const key of ['start', 'end'] as const) {
        if (!inSubnet(r[key], ip.address, ip.prefix))
          out.push(
            error([...rat, key], 'DHCP range outside the subnet', `${key} ${JSON.stringify(r[key])} is not in ${ip.address}/${ip.prefix}.`),
          );
      }
      if (inSubnet(r.start, ip.address, ip.prefix) && inSubnet(r.end, ip.address, ip.prefix)) {
        if (ipToBigInt(r.start) > ipToBigInt(r.end))
          out.push(error([...rat, 'end'], 'Empty DHCP range', `end ${r.end} comes before start ${r.start}.`));
        else if (ipToBigInt(r.start) <= ipToBigInt(ip.address) && ipToBigInt(ip.address) <= ipToBigInt(r.end))
          out.push(
            error(
              [...rat, 'start'],
              'DHCP range holds the host address',
              `${r.start}-${r.end} includes ${ip.address}, the host's own address on the network; start the range after it.`,
            ),
          );
      }
    });
    ip.dhcpHosts.forEach((h, j) => {
      const hat = [...at, 'dhcpHosts', j];
      if (!inSubnet(h.ip, ip.address, ip.prefix))
        out.push(error([...hat, 'ip'], 'Address outside the subnet', `${JSON.stringify(h.ip)} is not in ${ip.address}/${ip.prefix}.`));
      else if (h.ip === ip.address)
        out.push(error([...hat, 'ip'], 'Host address taken', `${h.ip} is the host's own address on the network; choose another.`));
      if (h.mac !== undefined && !MAC_RE.test(h.mac))
        out.push(
          error([...hat, 'mac'], 'Invalid MAC address', `Got ${JSON.stringify(h.mac)}; expected six hex pairs such as 52:54:00:12:34:56.`),
        );
      if (family === 'ipv6' && h.mac !== undefined)
        out.push(error([...hat, 'mac'], 'MAC on an IPv6 host', 'libvirt matches DHCPv6 hosts by name, not MAC; give hostname instead.'));
      if (family === 'ipv4' && h.mac === undefined && h.name === undefined)
        out.push(
          error([...hat, 'mac'], 'Missing MAC address', "A static IPv4 DHCP host needs the guest's MAC (or a hostname the guest sends)."),
        );
      if (family === 'ipv6' && h.name === undefined)
        out.push(error([...hat, 'name'], 'Missing hostname', 'A static IPv6 DHCP host is matched by its hostname; give one.'));
      if (h.name !== undefined && !HOSTNAME_RE.test(h.name))
        out.push(error([...hat, 'name'], 'Invalid hostname', `Got ${JSON.stringify(h.name)}; expected a DNS name.`));
      if (h.mac !== undefined) {
        const key = h.mac.toLowerCase();
        if (macs.has(key))
          out.push(error([...hat, 'mac'], 'Duplicate MAC address', `${h.mac} already has a static address (${macs.get(key)}).`));
        macs.set(key, h.ip);
      }
      if (ips.has(h.ip)) out.push(error([...hat, 'ip'], 'Duplicate address', `${h.ip} is given to two static DHCP hosts.`));
      ips.set(h.ip, h.mac ?? h.name ?? '');
    });
  });
  spec.dnsHosts.forEach((h, i) => {
    if (!ipFamily(h.ip))
      out.push(error(['dnsHosts', i, 'ip'], 'Invalid address', `Got ${JSON.stringify(h.ip)}; expected an IPv4 or IPv6 address.`));
    if (!h.hostnames.length) out.push(error(['dnsHosts', i, 'hostnames'], 'Missing hostnames', 'A DNS host needs at least one hostname.'));
    h.hostnames.forEach((n, j) => {
      if (!HOSTNAME_RE.test(n))
        out.push(error(['dnsHosts', i, 'hostnames', j], 'Invalid hostname', `Got ${JSON.stringify(n)}; expected a DNS name.`));
    });
  });
  return out;
}
