// The policy names as the constructs spell them (`Reprovision.REBOOT`); the rule about the attribute (its allowed
// values, default and what each does) is `virtseed_domain.reprovision` in src/fields/domain.ts, and a unit test
// (test/fields/tables.test.ts) keeps the two the same.

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
