/**
 * Libvirt networks for the e2e tests: an isolated network (no `<forward>`: guests reach each other and the host,
 * nothing else) with DHCP, as HCL, and cleanup of `vstest-` networks through virsh.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';

/** A /24 under 10.213.0.0/16 picked from `name` (so suites running side by side get different subnets), 100..249. */
export function testSubnetOctet(name: string): number {
  return 100 + (createHash('sha256').update(name).digest()[0] % 150);
}

/**
 * A `virtseed_network` resource block `resourceName` for an isolated network `name` with DHCP on
 * 10.213.N.0/24 (host .1, leases .100–.199), N from testSubnetOctet(name) unless given.
 */
export function isolatedNetworkHcl(resourceName: string, name: string, octet = testSubnetOctet(name)): string {
  return `
resource "virtseed_network" "${resourceName}" {
  name      = "${name}"
  autostart = false
  ip {
    address = "10.213.${octet}.1/24"
    dhcp_range {
      start = "10.213.${octet}.100"
      end   = "10.213.${octet}.199"
    }
  }
}
`;
}

function virsh(...args: string[]): string {
  return spawnSync('virsh', ['-c', 'qemu:///system', ...args], { encoding: 'utf8' }).stdout ?? '';
}

/** Names of libvirt networks that start with `prefix`. */
export function networkNames(prefix = ''): string[] {
  return virsh('net-list', '--all', '--name')
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s && s.startsWith(prefix))
    .sort();
}

/** Stops and removes every network whose name starts with `prefix` (must start with `vstest-`). */
export function cleanupNetworksByPrefix(prefix: string): void {
  if (!prefix.startsWith('vstest-')) throw new Error('cleanupNetworksByPrefix only removes vstest- networks');
  for (const name of networkNames(prefix)) {
    virsh('net-destroy', name);
    virsh('net-undefine', name);
  }
}
