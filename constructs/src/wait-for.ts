/**
 * What `cdktf deploy` waits for when it starts a guest, the `wait_for` of `virtseed_domain`. The provider reads the
 * guest's serial console through libvirt (so remote `qemu+ssh://` hosts work too) and turns the agent's errors into
 * deploy errors.
 */
export enum WaitFor {
  /** Return as soon as the domain is started. */
  NONE = 'none',
  /** Wait until the guest has an address: a DHCP lease on its libvirt network (or the guest agent's). */
  LEASE = 'lease',
  /** Wait until cloud-init finished this boot; a failed cloud-init module fails the deploy with its message. */
  CLOUD_INIT = 'cloud-init',
  /** Wait until Ignition finished on the first boot; an Ignition failure fails the deploy. */
  IGNITION = 'ignition',
}
