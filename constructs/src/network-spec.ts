/**
 * `Network` props → the shared network model (src/network `NetworkSpec`), so synth checks them with the same
 * rules as the provider (validateNetworkSpec), and diagnostic paths turned back into prop paths
 * (`ips[0].dhcpRanges[1]` → `subnets[0].dhcpRanges[1]`, a subnet's `dhcpHosts[j]` → `staticHosts[k]`).
 */
import { Diagnostic, error } from '../../src/diagnostics';
import { assembleNetworkSpec, validateNetworkSpec, type AssembledNetwork } from '../../src/network';
import type { VirtualNetworkProps } from './network-props';

/** Every problem of `props` (empty when valid), with paths in the props' own names. Props must hold no tokens. */
export function validateNetworkProps(props: VirtualNetworkProps): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hosts = props.staticHosts ?? [];
  const { spec, ipSource, badSubnets, placement } = assembleNetworkSpec({
    name: props.name,
    mode: props.mode || 'none',
    forwardDev: props.forwardDevice,
    bridge: props.bridge,
    domain: props.domain,
    mtu: props.mtu,
    subnets: (props.subnets ?? []).map((s) => ({ address: s.address, dhcpRanges: s.dhcpRanges ?? [] })),
    staticHosts: hosts,
    dnsHosts: props.dnsHosts ?? [],
  });
  for (const i of badSubnets) {
    out.push(
      error(
        ['subnets', i, 'address'],
        'Invalid address',
        `Got ${JSON.stringify(props.subnets?.[i].address)}; expected the host's address and prefix length, e.g. 192.168.150.1/24 or fd00:150::1/64.`,
      ),
    );
  }
  placement.forEach((at, k) => {
    if (!at)
      out.push(
        error(
          ['staticHosts', k, 'ip'],
          'Address outside the network',
          `Got ${JSON.stringify(hosts[k].ip)}, which is in no subnet of this network; use an address of one of its subnets.`,
        ),
      );
  });
  if ((props.mode ?? 'none') === 'none' && props.forwardDevice) {
    out.push(
      error(
        ['forwardDevice'],
        'Invalid forwardDevice',
        'An isolated network (NetworkMode.ISOLATED) forwards nothing; forwardDevice is for NAT, ROUTE and OPEN.',
      ),
    );
  }
  for (const d of validateNetworkSpec(spec)) out.push({ ...d, path: propPath(d.path ?? [], ipSource, placement) });
  return out;
}

function propPath(
  p: readonly (string | number)[],
  subnetOf: readonly number[],
  placement: AssembledNetwork['placement'],
): (string | number)[] {
  if (p[0] === 'ips' && typeof p[1] === 'number' && p[2] === 'dhcpHosts' && typeof p[3] === 'number') {
    const k = placement.findIndex((x) => x && x[0] === p[1] && x[1] === p[3]);
    return ['staticHosts', k >= 0 ? k : p[3], ...p.slice(4).map((x) => (x === 'name' ? 'hostname' : x))];
  }
  if (p[0] === 'ips' && typeof p[1] === 'number')
    return ['subnets', subnetOf[p[1]], ...p.slice(2).map((x) => (x === 'prefix' ? 'address' : x))];
  if (p[0] === 'ips') return ['subnets'];
  if (p[0] === 'forward') return [p[1] === 'dev' ? 'forwardDevice' : 'mode'];
  return [...p];
}
