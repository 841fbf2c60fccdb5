/**
 * The e2e tests' one teardown (their afterAll): `terraform destroy` when asked, then, whatever that did, the
 * test's own extra steps, the Terraform working directory removed, and every libvirt object named with the test's
 * prefix removed (domains and volumes, and networks when asked).
 */
import { cleanupByPrefix } from './guest';
import { cleanupNetworksByPrefix } from './network';
import type { TfWorkdir } from './terraform';

export interface Teardown {
  /** The test's working directory (undefined when beforeAll failed before making it). */
  readonly tf: TfWorkdir | undefined;
  /** `vstest-...`: what the test's libvirt objects are named with. */
  readonly prefix: string;
  /** Run `terraform destroy` first (after `beforeDestroy`). */
  readonly destroy?: boolean;
  /** Runs before the destroy, e.g. to write a config that destroy can plan. */
  readonly beforeDestroy?: (tf: TfWorkdir) => void;
  /** The test's own cleanup (console tails, captures), run even when the destroy failed. */
  readonly also?: () => void;
  /** Remove the prefix's libvirt networks (instead of its domains and volumes). */
  readonly networks?: boolean;
}

export function teardown(t: Teardown): void {
  try {
    if (t.destroy && t.tf) {
      t.beforeDestroy?.(t.tf);
      t.tf.destroy();
    }
  } finally {
    try {
      t.also?.();
      t.tf?.dispose();
    } finally {
      if (t.networks) cleanupNetworksByPrefix(t.prefix);
      else cleanupByPrefix(t.prefix);
    }
  }
}
