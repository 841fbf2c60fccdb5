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

/** Options of {@link NetworkAttachment.libvirtNetwork}. */
export interface LibvirtNetworkOptions {
  /**
   * MAC address.
   * @default - stable, derived from the domain name and the interface's position (one no other interface has)
   */
  readonly mac?: string;
}

/** The rendered form of an attachment, one `network_interface` block of `virtseed_domain`. */
export interface NetworkAttachmentConfig {
  readonly network?: string;
  readonly user?: boolean;
  readonly restrict?: boolean;
  readonly mac?: string;
  readonly model: 'virtio';
}

/** One network interface of a virtual machine. Value object; create with the static factories. */
export class NetworkAttachment {
  /** An interface on a libvirt network: its name (e.g. `'default'`) or UUID (a {@link Network}'s `networkId`; `network.attach()` does this). */
  static libvirtNetwork(network: string, options: LibvirtNetworkOptions = {}): NetworkAttachment {
    return new NetworkAttachment({ network, mac: options.mac, model: NIC.model.default });
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
