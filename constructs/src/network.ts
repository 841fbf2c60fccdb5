import { Token } from 'cdktf';
import { Construct } from 'constructs';
import * as virtseed from '../generated/virtseed';
import { invalidNetwork } from './errors';
import { LibvirtNetworkOptions, NetworkAttachment } from './network-attachment';
import { validateNetworkProps } from './network-spec';
import { containsTokens } from './private/tokens';

import { NetworkMode, type VirtualNetworkProps } from './network-props';

/**
 * A libvirt virtual network (Terraform `virtseed_network`), isolated unless `mode` says otherwise: subnets with
 * DHCP, static leases and DNS entries. Put a {@link VirtualMachine} on it with `networks: [network.attach()]`.
 */
export class Network extends Construct {
  /** The generated resource. */
  readonly resource: virtseed.network.Network;
  /** The network's UUID (a token); a `virtseed_domain` `network_interface.network` accepts it. */
  readonly networkId: string;
  /** The libvirt network name. */
  readonly name: string;
  /** The bridge device on the host (a token: known after deploy when libvirt picks it). */
  readonly bridge: string;

  /**
   * @throws ConstructPropsError when the definition breaks a rule libvirt would reject (bad addresses, DHCP ranges
   *   or static hosts outside their subnet, a second DHCP subnet of a family, a bridge mode with subnets, ...):
   *   the message lists each error with its prop path, e.g. `staticHosts[1].ip`.
   */
  constructor(scope: Construct, id: string, props: VirtualNetworkProps) {
    super(scope, id);
    if (!containsTokens(props)) {
      const errors = validateNetworkProps(props).filter((d) => d.severity === 'error');
      if (errors.length) throw invalidNetwork('Network', errors);
    } else if (!Token.isUnresolved(props.name)) {
      const errors = validateNetworkProps({ name: props.name }).filter((d) => d.severity === 'error');
      if (errors.length) throw invalidNetwork('Network', errors);
    }
    this.resource = new virtseed.network.Network(this, 'Resource', {
      name: props.name,
      mode: props.mode ?? NetworkMode.ISOLATED,
      bridge: props.bridge,
      forwardDev: props.forwardDevice,
      domain: props.domain,
      mtu: props.mtu,
      autostart: props.autostart ?? true,
      ip: props.subnets?.map((s) => ({ address: s.address, dhcpRange: s.dhcpRanges?.map((r) => ({ start: r.start, end: r.end })) })),
      dhcpHost: props.staticHosts?.map((h) => ({ ip: h.ip, mac: h.mac, hostname: h.hostname })),
      dnsHost: props.dnsHosts?.map((h) => ({ ip: h.ip, hostnames: [...h.hostnames] })),
    });
    this.networkId = this.resource.id;
    this.name = props.name;
    this.bridge = this.resource.bridge;
  }

  /** A network interface on this network, for `VirtualMachineProps.networks`. */
  attach(options: LibvirtNetworkOptions = {}): NetworkAttachment {
    return NetworkAttachment.libvirtNetwork(this.networkId, options);
  }
}
