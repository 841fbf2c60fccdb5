/**
 * The device set of issue 25's row "plan of 1000 domains each with 6 devices ≤ 1.1× the same plan without
 * devices" (issue 22's devices): six `virtseed_domain` device blocks in Terraform's JSON syntax, for domains that
 * are defined and never started (bench/terraform.ts). Each is a device libvirt keeps in the domain's XML, so a
 * read parses six more elements per domain.
 */

/** The six device blocks, merged into a `virtseed_domain` resource body. */
export const BENCH_DEVICES: Readonly<Record<string, unknown>> = {
  graphics: [{ type: 'vnc' }],
  tpm: { model: 'tpm-crb' },
  rng: { source: '/dev/urandom' },
  watchdog: { action: 'reset' },
  input: [{ type: 'tablet' }],
  filesystem: [{ source: '/srv', target: 'share' }],
};

/** How many devices BENCH_DEVICES gives a domain (the video adapter that comes with `graphics` aside). */
export const BENCH_DEVICE_COUNT = 6;
