/** `virtseed_network`'s fields (see ./model.ts). */
import { HOST_CHANGE_REPLACES, hostField } from './host';
import type { ResourceFields } from './model';

export const NETWORK_FIELDS = {
  version: 0,
  description:
    'A libvirt virtual network: isolated (default), NAT, routed, open, or an existing host bridge; IPv4/IPv6 subnets with DHCP, static DHCP hosts and DNS entries.',
  fields: {
    id: { type: 'string', computed: true, description: 'Network UUID. `virtseed_domain` `network_interface.network` accepts it.' },
    uuid: { type: 'string', computed: true, description: 'Network UUID.' },
    name: { type: 'string', required: true, description: 'Network name. Changing it replaces the network.' },
    host: hostField(HOST_CHANGE_REPLACES),
    mode: {
      type: 'string',
      optional: true,
      computed: true,
      description:
        '`none` (default: isolated — guests reach each other and the host, nothing else), `nat`, `route`, `open`, or `bridge` (an existing host bridge named in `bridge`). Changing it replaces the network.',
    },
    bridge: {
      type: 'string',
      optional: true,
      computed: true,
      description:
        'Bridge device. For `mode = "bridge"` the existing host bridge (required); otherwise the bridge libvirt creates (default: libvirt picks `virbrN`). Changing it replaces the network.',
    },
    forward_dev: {
      type: 'string',
      optional: true,
      description: 'With `nat`, `route` or `open`: forward only through this host device. Changing it replaces the network.',
    },
    domain: {
      type: 'string',
      optional: true,
      description: "DNS domain of the guests (answered by the network's DNS server, never forwarded). Changing it replaces the network.",
    },
    mtu: { type: 'number', optional: true, description: "MTU of the network's bridge in bytes. Changing it replaces the network." },
    autostart: {
      type: 'bool',
      optional: true,
      computed: true,
      description: 'Start the network when libvirtd starts. Default true. Changes in place.',
    },
    ip: {
      nesting: 'list',
      description:
        "A subnet: the host's address on the network (the guests' gateway and DNS server) and its DHCP ranges. At most one IPv4 and one IPv6 subnet serve DHCP. Changing any replaces the network.",
      fields: {
        address: {
          type: 'string',
          required: true,
          description: 'Host address with prefix length, e.g. `192.168.150.1/24` or `fd00:150::1/64` (DHCPv6 needs /64).',
        },
        dhcp_range: {
          nesting: 'list',
          description: 'Addresses DHCP hands out (inclusive).',
          fields: {
            start: { type: 'string', required: true, description: 'First address.' },
            end: { type: 'string', required: true, description: 'Last address.' },
          },
        },
      },
    },
    dhcp_host: {
      nesting: 'list',
      description: 'A static DHCP lease, in the subnet of the `ip` block that holds `ip`. Changes in place (virNetworkUpdate).',
      fields: {
        mac: { type: 'string', optional: true, description: 'Guest MAC address (IPv4 hosts).' },
        hostname: { type: 'string', optional: true, description: 'Hostname given to the guest (how IPv6 hosts are matched).' },
        ip: { type: 'string', required: true, description: 'The address the guest gets.' },
      },
    },
    dns_host: {
      nesting: 'list',
      description: "Names the network's DNS server answers for an address. Changes in place (virNetworkUpdate).",
      fields: {
        ip: { type: 'string', required: true, description: 'IPv4 or IPv6 address.' },
        hostnames: { type: 'list(string)', required: true, description: 'Names for `ip`.' },
      },
    },
  },
} as const satisfies ResourceFields;
