/**
 * `Network` props → the shared network model (src/network `NetworkSpec`), so synth checks them with the same
 * rules as the provider (validateNetworkSpec), and diagnostic paths turned back into prop paths
 * (`ips[0].dhcpRanges[1]` → `subnets[0].dhcpRanges[1]`, a subnet's `dhcpHosts[j]` → `staticHosts[k]`).
 */
import { Diagnostic, error } from '../../../src/diagnostics';
import { inSubnet, NetworkSpec, parseCidr, validateNetworkSpec } from '../../../src/network';
import type { VirtualNetworkProps } from '../network';

/** Every problem of `props` (empty when valid), with paths in the props' own names. Props must hold no tokens. */
export function validateNetworkProps(props: VirtualNetworkProps): Diagnostic[] {
  const out: Diagnostic[] = [];
  const subnetOf: number[] = []; // spec ips[i] → subnets index
  const spec: NetworkSpec = {
    name: props.name,
    ...(props.mode && props.mode !== 'none' ? { forward: { mode: props.mode, ...(props.forwardDevice ? { dev: props.forwardDevice } : {}) } } : {}),
    ...(props.bridge !== undefined ? { bridge: props.bridge } : {}),
    ...(props.domain !== undefined ? { domain: props.domain } : {}),
    ...(props.mtu !== undefined ? { mtu: props.mtu } : {}),
    ips: [],
    dnsHosts: (props.dnsHosts ?? []).map((h) => ({ ip: h.ip, hostnames: [...h.hostnames] })),
  };
  (props.subnets ?? []).forEach((s, i) => {
    const cidr = parseCidr(s.address);
    if (!cidr) {
      out.push(error(['subnets', i, 'address'], 'Invalid address', `Got ${JSON.stringify(s.address)}; expected the host's address and prefix length, e.g. 192.168.150.1/24 or fd00:150::1/64.`));
      return;
    }
    subnetOf.push(i);
    spec.ips.push({ ...cidr, dhcpRanges: (s.dhcpRanges ?? []).map((r) => ({ ...r })), dhcpHosts: [] });
  });
  const hostAt = new Map<string, number>(); // `${ip index}/${host index}` → staticHosts index
  (props.staticHosts ?? []).forEach((h, k) => {
    const at = spec.ips.findIndex((x) => inSubnet(h.ip, x.address, x.prefix));
    if (at < 0) {
      out.push(error(['staticHosts', k, 'ip'], 'Address outside the network', `Got ${JSON.stringify(h.ip)}, which is in no subnet of this network; use an address of one of its subnets.`));
      return;
    }
    hostAt.set(`${at}/${spec.ips[at].dhcpHosts.length}`, k);
    spec.ips[at].dhcpHosts.push({ ...(h.mac ? { mac: h.mac.toLowerCase() } : {}), ...(h.hostname ? { name: h.hostname } : {}), ip: h.ip });
  });
  if ((props.mode ?? 'none') === 'none' && props.forwardDevice) {
    out.push(error(['forwardDevice'], 'Invalid forwardDevice', 'An isolated network (NetworkMode.ISOLATED) forwards nothing; forwardDevice is for NAT, ROUTE and OPEN.'));
  }
  for (const d of validateNetworkSpec(spec)) out.push({ ...d, path: propPath(d.path ?? [], subnetOf, hostAt) });
  return out;
}

function propPath(p: readonly (string | number)[], subnetOf: number[], hostAt: Map<string, number>): (string | number)[] {
  if (p[0] === 'ips' && typeof p[1] === 'number' && p[2] === 'dhcpHosts' && typeof p[3] === 'number') {
    return ['staticHosts', hostAt.get(`${p[1]}/${p[3]}`) ?? p[3], ...p.slice(4).map((x) => (x === 'name' ? 'hostname' : x))];
  }
  if (p[0] === 'ips' && typeof p[1] === 'number') return ['subnets', subnetOf[p[1]], ...p.slice(2).map((x) => (x === 'prefix' ? 'address' : x))];
  if (p[0] === 'ips') return ['subnets'];
  if (p[0] === 'forward') return [p[1] === 'dev' ? 'forwardDevice' : 'mode'];
  return [...p];
}
