// The one definition of the policy names: the constructs export it, the provider validates and plans with it,
// and the domain's metadata keeps it (METADATA_KEYS.reprovisionPolicy).

/**
 * What happens to a running guest when its instance-id changes (the seed or Ignition content changed), the
 * `reprovision` policy of `virtseed_domain`.
 */
export enum Reprovision {
  /** Reboot with the new seed on the same disks: cloud-init re-runs its per-instance modules. */
  REBOOT = 'reboot',
  /** Replace the domain, and the root volume (from the base image), so provisioning starts from scratch. */
  RECREATE = 'recreate',
  /** Only swap the seed; the guest picks it up at its next boot. */
  NEXT_BOOT = 'next-boot',
}

/** Every policy name, in declaration order. */
export const REPROVISION_POLICIES: readonly string[] = Object.values(Reprovision);
