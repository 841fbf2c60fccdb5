/** Options of {@link NetworkAttachment.userMode}. */
export interface UserModeOptions {
  /**
   * Isolate the guest: QEMU user networking with `restrict=on` (no traffic off the host).
   * @default true
   */
  readonly restrict?: boolean;
  /**
   * MAC address.
   * @default - chosen by libvirt
   */
  readonly mac?: string;
}

/** Options of {@link NetworkAttachment.libvirtNetwork}. */
export interface LibvirtNetworkOptions {
  /**
   * MAC address.
   * @default - chosen by libvirt
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
    return new NetworkAttachment({ network, mac: options.mac, model: 'virtio' });
  }

  /** QEMU user-mode networking (no host setup needed); restricted by default. */
  static userMode(options: UserModeOptions = {}): NetworkAttachment {
    return new NetworkAttachment({ user: true, restrict: options.restrict ?? true, mac: options.mac, model: 'virtio' });
  }

  private constructor(readonly config: NetworkAttachmentConfig) {}
}
