/**
 * The device set of the terraform bench's row "plan of N domains each with 6 devices ≤ 1.1× the same plan without
 * devices" (issue #25): six device blocks of the libvirt-surface issue (#22), as HCL-JSON attributes of a
 * `virtseed_domain`, merged into each bench domain. Undefined until virtseed_domain has those devices: the row is
 * then skipped with this reason. Fill it in, e.g. `{ graphics: [{ type: 'vnc' }], video: [{ model: 'virtio' }], ... }`,
 * and the bench times it beside the same domains without it.
 */
export const DOMAIN_DEVICE_SET: Readonly<Record<string, unknown>> | undefined = undefined;

/** Why the device row is skipped while {@link DOMAIN_DEVICE_SET} is undefined. */
export const NO_DEVICE_SET =
  'no device set yet: virtseed_domain has no devices of the libvirt-surface issue; set DOMAIN_DEVICE_SET in bench/private/device-set.ts';
