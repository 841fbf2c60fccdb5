/**
 * The device set of the terraform bench's row "plan of N domains each with 6 devices ≤ 1.1× the same plan without
 * devices" (issue #25): six device blocks of the libvirt-surface issue (#22), as HCL-JSON attributes of a
 * `virtseed_domain`, merged into each bench domain (defined, never started); bench/domain-read.ts reads domains
 * with the same devices. Each is a device libvirt keeps in the domain's XML, so a read parses six more elements.
 */
export const DOMAIN_DEVICE_SET: Readonly<Record<string, unknown>> | undefined = {
  graphics: [{ type: 'vnc' }],
  tpm: { model: 'tpm-crb' },
  rng: { source: '/dev/urandom' },
  watchdog: { action: 'reset' },
  input: [{ type: 'tablet' }],
  filesystem: [{ source: '/srv', target: 'share' }],
};

/** Why the device row is skipped while {@link DOMAIN_DEVICE_SET} is undefined. */
export const NO_DEVICE_SET =
  'no device set yet: virtseed_domain has no devices of the libvirt-surface issue; set DOMAIN_DEVICE_SET in bench/private/device-set.ts';
