/** `virtseed_network`'s fields (see ./model.ts), and those of the `virtseed_network` data source. */
import { dataSourceFields } from './data-source';
import { HOST_FIELD } from './host-field';
import type { ResourceFields } from './model';

export const NETWORK_FIELDS = {
  version: 0,
  description:
    'A libvirt virtual network: isolated (default), NAT, routed, open, or an existing host bridge; IPv4/IPv6 subnets with DHCP, static DHCP hosts and DNS entries.',
  object: 'network',
  whenUnknown: 'wait',
  fields: {
    id: { type: 'string', computed: true, description: 'Network UUID. `virtseed_domain` `network_interface.network` accepts it.' },
    uuid: { type: 'string', computed: true, description: 'Network UUID.' },
    name: { type: 'string', required: true, replace: true, description: 'Network name.' },
    host: HOST_FIELD,
    mode: {
      type: 'string',
      optional: true,
      computed: true,
      values: {
        none: 'isolated: guests reach each other and the host, nothing else',
        nat: '',
        route: '',
        open: '',
        bridge: 'an existing host bridge named in `bridge`',
      },
      default: 'none',
      replace: true,
      description: 'How the network forwards traffic.',
    },
    bridge: {
      type: 'string',
      optional: true,
      computed: true,
      default: { derived: 'libvirt picks `virbrN`' },
      replace: true,
      description: 'Bridge device. For `mode = "bridge"` the existing host bridge (required); otherwise the bridge libvirt creates.',
    },
    forward_dev: {
      type: 'string',
      optional: true,
      replace: true,
      description: 'With `nat`, `route` or `open`: forward only through this host device.',
    },
    domain: {
      type: 'string',
      optional: true,
      replace: true,
      description: "DNS domain of the guests (answered by the network's DNS server, never forwarded).",
    },
    mtu: { type: 'number', optional: true, replace: true, description: "MTU of the network's bridge in bytes." },
    autostart: {
      type: 'bool',
      optional: true,
      computed: true,
      default: true,
      impact: 'live',
      description: 'Start the network when libvirtd starts.',
    },
    ip: {
      nesting: 'list',
      replace: true,
      description:
        "A subnet: the host's address on the network (the guests' gateway and DNS server) and its DHCP ranges. At most one IPv4 and one IPv6 subnet serve DHCP.",
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
      impact: 'live',
      description:
        'A static DHCP lease, in the subnet of the `ip` block that holds `ip`, changed on the running network and its definition.',
      fields: {
        mac: { type: 'string', optional: true, description: 'Guest MAC address (IPv4 hosts).' },
        hostname: { type: 'string', optional: true, description: 'Hostname given to the guest (how IPv6 hosts are matched).' },
        ip: { type: 'string', required: true, description: 'The address the guest gets.' },
      },
    },
    dns_host: {
      nesting: 'list',
      impact: 'live',
      description: "Names the network's DNS server answers for an address, changed on the running network and its definition.",
      fields: {
        ip: { type: 'string', required: true, description: 'IPv4 or IPv6 address.' },
        hostnames: { type: 'list(string)', required: true, description: 'Names for `ip`.' },
      },
    },
  },
} as const satisfies ResourceFields;

/** The `virtseed_network` data source: an existing network by name, as `virsh net-info` and `net-dumpxml` show it. */
export const NETWORK_DATA_FIELDS = dataSourceFields(NETWORK_FIELDS, {
  description:
    'An existing libvirt virtual network, by name: its UUID, forward mode, bridge, state and subnets (what `virsh net-info` and `virsh net-dumpxml` show), so a domain can be put on a network this configuration does not manage.',
  lookup: ['name'],
  pick: ['id', 'uuid', 'mode', 'bridge', 'forward_dev', 'domain', 'mtu', 'autostart'],
  describe: {
    mode: '`none` (isolated: no `<forward>`), `nat`, `route`, `open` or `bridge`; a network of another forward mode is an error.',
    bridge: 'The bridge device of the network on the host (`virsh net-info`: Bridge).',
    forward_dev: 'The host device a `nat`, `route` or `open` network forwards through, when it names one.',
    domain: "DNS domain of the network's guests.",
    mtu: "MTU of the network's bridge in bytes, when the definition sets one.",
    autostart: 'Whether libvirtd starts the network when it starts.',
  },
  extra: {
    active: { type: 'bool', computed: true, description: 'Whether the network runs now.' },
    persistent: { type: 'bool', computed: true, description: 'Whether the network has a persistent definition.' },
    addresses: {
      type: 'list(string)',
      computed: true,
      description: "The host's addresses on the network with prefix length, one per subnet, e.g. `192.168.122.1/24`.",
    },
  },
});
