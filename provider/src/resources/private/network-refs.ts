/**
 * `network_interface.network` of `virtseed_domain` names a libvirt network by name or by UUID (a
 * `virtseed_network.id`). libvirt's domain XML takes only the name: UUIDs are turned into names when the domain is
 * defined, and a read that finds the name keeps the UUID the configuration gave (no drift).
 */
import { Diagnostic, error } from '../../../../src/diagnostics';
import type { LibvirtClient } from '../../../../src/libvirt';
import { isUuid } from '../../../../src/uuid';
import { networkByRef, networkByUuid } from './lookups';
import type { Blocks, DomainInterfaceState, DomainState } from './model';
import { list, str } from './values';

/** What is wrong when a domain's NIC names a network the host does not have, and the fix. */
function notFoundDetail(subject: string, ref: string): string {
  return `${subject}: libvirt has no network named "${ref}" (nor with that UUID). Create it (a virtseed_network, or virsh net-define), or name an existing one (virsh net-list --all). A virtseed_network created in the same apply is named by its id (network = virtseed_network.<name>.id), which is unknown until then.`;
}

/** Thrown when a network named by a domain does not exist on the host. */
export class NetworkNotFoundError extends Error {
  constructor(
    readonly ref: string,
    readonly index: number,
  ) {
    super(notFoundDetail(`network_interface ${index}`, ref));
    this.name = 'NetworkNotFoundError';
  }
}

/** The network a NIC names (name or UUID); undefined for user-mode NICs and for values not known yet. */
function networkRef(n: DomainInterfaceState): string | undefined {
  return n.user === true ? undefined : str(n.network);
}

/**
 * A diagnostic on `network_interface[i].network` for every known network reference of `s` (a domain's state or
 * plan) that the host does not have. Unknown references (a network created in the same apply) are skipped.
 */
export async function missingNetworkDiagnostics(
  client: LibvirtClient,
  s: Pick<DomainState, 'name' | 'network_interface'>,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const [i, n] of list(s.network_interface).entries()) {
    const ref = networkRef(n);
    if (ref !== undefined && !(await networkByRef(client, ref))) {
      out.push(error(['network_interface', i, 'network'], 'Network not found', notFoundDetail(`Domain ${String(s.name)}`, ref)));
    }
  }
  return out;
}

/**
 * The libvirt network name of every NIC in `nics` (undefined for user-mode NICs), looked up by name or UUID.
 * @throws NetworkNotFoundError for a network libvirt does not have.
 */
export async function resolveNetworkNames(client: LibvirtClient, nics: readonly DomainInterfaceState[]): Promise<(string | undefined)[]> {
  const out: (string | undefined)[] = [];
  for (const [i, n] of nics.entries()) {
    const ref = networkRef(n);
    if (ref === undefined) {
      out.push(undefined);
      continue;
    }
    const net = await networkByRef(client, ref);
    if (!net) throw new NetworkNotFoundError(ref, i);
    out.push(net.name);
  }
  return out;
}

/**
 * `observed` NICs (read from libvirt, network by name) with the configuration's UUID put back wherever `current`
 * named that same network by UUID.
 */
export async function keepNetworkRefs(
  client: LibvirtClient,
  current: Blocks<DomainInterfaceState> | null,
  observed: Blocks<DomainInterfaceState> | null,
): Promise<DomainInterfaceState[]> {
  const cur = list(current);
  const out = list(observed).map((n) => ({ ...n }));
  for (const [i, n] of out.entries()) {
    const ref = str(cur[i]?.network);
    if (ref === undefined || ref === n.network || !isUuid(ref)) continue;
    const net = await networkByUuid(client, ref);
    if (net && net.name === n.network) n.network = ref;
  }
  return out;
}
