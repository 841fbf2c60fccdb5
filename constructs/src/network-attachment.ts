import type { DomainNicOptions } from '../../src/domain';
import { DOMAIN_FIELDS } from '../../src/fields';

/** The `network_interface` block's field table (src/fields/domain.ts): the options' defaults are its defaults. */
const NIC = DOMAIN_FIELDS.fields.network_interface.fields;

/** Options of {@link NetworkAttachment.userMode}. */
export interface UserModeOptions {
  /**
   * Isolate the guest: QEMU user networking with `restrict=on` (no traffic off the host).
   * @default true
   */
  readonly restrict?: boolean;
  /**
   * MAC address.
   * @default - stable, derived from the domain name and the interface's position (one no other interface has)
   */
  readonly mac?: string;
}

/** Traffic limits of a NIC: rates in KiB/s, bursts in KiB. Changing them: live (no restart). */
export interface Bandwidth {
  /** @default - unlimited */
  readonly inboundAverage?: number;
  /** @default - no peak */
  readonly inboundPeak?: number;
  /** @default - no burst */
  readonly inboundBurst?: number;
  /** @default - unlimited */
  readonly outboundAverage?: number;
  /** @default - no peak */
  readonly outboundPeak?: number;
  /** @default - no burst */
  readonly outboundBurst?: number;
}

/**
 * The model, link state, MTU and VLAN of a NIC (src/domain/nic-options.ts `NIC_OPTIONS`: one prop per option, its
 * values the field table's).
 */
export interface NicOptions {
  /**
   * NIC model. Changing it: restarts a running guest.
   * @default 'virtio'
   */
  readonly model?: DomainNicOptions['model'];
  /**
   * Link state: `down` unplugs the virtual cable (the guest sees no carrier). Changing it: live (no restart).
   * @default 'up'
   */
  readonly linkState?: DomainNicOptions['linkState'];
  /**
   * MTU of the guest's NIC in bytes (68–65535). Changing it: restarts a running guest.
   * @default - the network's
   */
  readonly mtu?: number;
  /**
   * An 802.1Q VLAN tag (0–4095), where the network supports it (Open vSwitch, SR-IOV). Changing it: restarts a
   * running guest.
   * @default - untagged
   */
  readonly vlan?: number;
}

/** Options of {@link NetworkAttachment.libvirtNetwork} and {@link NetworkAttachment.direct}. */
export interface LibvirtNetworkOptions extends NicOptions {
  /**
   * MAC address.
   * @default - stable, derived from the domain name and the interface's position (one no other interface has)
   */
  readonly mac?: string;
  /**
   * Traffic limits.
   * @default - unlimited
   */
  readonly bandwidth?: Bandwidth;
}

/** Options of {@link NetworkAttachment.direct}. */
export interface DirectOptions extends LibvirtNetworkOptions {
  /**
   * macvtap mode.
   * @default 'vepa'
   */
  readonly mode?: 'vepa' | 'bridge' | 'private' | 'passthrough';
}

/** The rendered form of an attachment, one `network_interface` block of `virtseed_domain`. */
export interface NetworkAttachmentConfig extends NicOptions {
  readonly network?: string;
  readonly user?: boolean;
  readonly restrict?: boolean;
  readonly direct?: string;
  readonly directMode?: 'vepa' | 'bridge' | 'private' | 'passthrough';
  readonly mac?: string;
  readonly model: NonNullable<NicOptions['model']>;
  readonly bandwidth?: Bandwidth;
}

/** One network interface of a virtual machine. Value object; create with the static factories. */
export class NetworkAttachment {
  /** An interface on a libvirt network: its name (e.g. `'default'`) or UUID (a {@link Network}'s `networkId`; `network.attach()` does this). */
  static libvirtNetwork(network: string, options: LibvirtNetworkOptions = {}): NetworkAttachment {
    return new NetworkAttachment({ network, ...options, model: options.model ?? NIC.model.default });
  }

  /**
   * A macvtap interface on a host NIC (e.g. `eth0`): the guest is on that NIC's network directly. The host cannot
   * reach the guest through the same NIC in `vepa` and `bridge` modes.
   */
  static direct(hostInterface: string, options: DirectOptions = {}): NetworkAttachment {
    const { mode, ...rest } = options;
    return new NetworkAttachment({ direct: hostInterface, directMode: mode, ...rest, model: rest.model ?? NIC.model.default });
  }

  /** QEMU user-mode networking (no host setup needed); restricted by default. */
  static userMode(options: UserModeOptions = {}): NetworkAttachment {
    // The table's default of `restrict` with `user = true`.
    return new NetworkAttachment({
      user: true,
      restrict: options.restrict ?? NIC.restrict.default.then,
      mac: options.mac,
      model: NIC.model.default,
    });
  }

  private constructor(readonly config: NetworkAttachmentConfig) {}
}
