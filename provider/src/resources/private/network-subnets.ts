/**
 * Plan-time check that a new network's subnets are free on its host (issue 31 defect 14): libvirt refuses to start
 * a network whose subnet the host already routes ("Network is already in use by interface eth0"). Checked against
 * the host's active libvirt networks (their `<ip>` elements, over the libvirt connection) and, when the host is the
 * machine the provider runs on (a local URI: no host name), against its own interface addresses. A remote host's
 * interfaces are not visible through libvirt (its interface driver reports no addresses), so there only libvirtd's
 * own check at apply remains.
 */
import * as os from 'node:os';
import { error, type Diagnostic } from '../../../../src/diagnostics';
import { parseCidr, subnetsOverlap } from '../../../../src/ip';
import { LibvirtError, parseLibvirtUri, VIR_ERR_NO_NETWORK, type LibvirtClient, type NetRef } from '../../../../src/libvirt';
import { parseNetworkXml } from '../../../../src/network';

/** A subnet in use on the host: where, as `address/prefix`. */
export interface UsedSubnet {
  /** E.g. `libvirt network default` or `interface eth0`. */
  readonly by: string;
  readonly address: string;
  readonly prefix: number;
}

/**
 * The planned `ip` blocks (`address/prefix` each, index = block index) that overlap a subnet in `used`: one error
 * per block on `ip[i].address`, naming the user and the fix. Pure.
 */
export function subnetClashes(network: string, planned: readonly (string | undefined)[], used: readonly UsedSubnet[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  planned.forEach((cidr, i) => {
    const subnet = cidr === undefined ? undefined : parseCidr(cidr);
    if (!subnet) return;
    const clash = used.find((u) => subnetsOverlap(subnet, u));
    if (clash)
      out.push(
        error(
          ['ip', i, 'address'],
          'Subnet already in use on the host',
          `Network ${network}: ${cidr} overlaps ${clash.address}/${clash.prefix} of ${clash.by} on the libvirt host; libvirt would refuse to start the network. Choose a subnet the host does not use (ip addr; virsh net-dumpxml).`,
        ),
      );
  });
  return out;
}

/**
 * The subnets the host uses: its active libvirt networks except those named in `except` (the network itself, being
 * replaced)
 * and, for a local `uri`, the addresses of its non-loopback interfaces other than those networks' bridges.
 */
export async function usedSubnets(client: LibvirtClient, uri: string, except: readonly string[]): Promise<UsedSubnet[]> {
  const out: UsedSubnet[] = [];
  const bridges = new Set<string>();
  for (const net of await client.connectListAllNetworks()) {
    let spec;
    try {
      spec = parseNetworkXml(await client.networkGetXmlDesc(net));
    } catch {
      continue; // a form the model does not read: libvirtd still checks at apply
    }
    if (spec.bridge) bridges.add(spec.bridge);
    if (except.includes(net.name) || !(await isActive(client, net))) continue;
    for (const ip of spec.ips) out.push({ by: `libvirt network ${net.name}`, address: ip.address, prefix: ip.prefix });
  }
  if (isLocal(uri))
    for (const [name, addresses] of Object.entries(os.networkInterfaces())) {
      if (bridges.has(name)) continue;
      for (const a of addresses ?? []) {
        const subnet = a.internal || a.cidr === null ? undefined : parseCidr(a.cidr);
        if (subnet && !(subnet.family === 'ipv6' && /^fe80:/i.test(subnet.address)))
          out.push({ by: `interface ${name}`, address: subnet.address, prefix: subnet.prefix });
      }
    }
  return out;
}

/** Whether `net` runs; false for a network removed since it was listed (another apply's destroy, for instance). */
async function isActive(client: LibvirtClient, net: NetRef): Promise<boolean> {
  try {
    return await client.networkIsActive(net);
  } catch (err) {
    if (err instanceof LibvirtError && err.code === VIR_ERR_NO_NETWORK) return false;
    throw err;
  }
}

/** True for a URI of the machine the provider runs on (no host name, or localhost). */
function isLocal(uri: string): boolean {
  try {
    const host = parseLibvirtUri(uri).host;
    return !host || host === 'localhost' || host === '127.0.0.1' || host === '::1';
  } catch {
    return false;
  }
}
