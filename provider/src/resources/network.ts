/**
 * `virtseed_network`: a libvirt virtual network (formatnetwork), defined, started and (by default) autostarted.
 * Static DHCP hosts (`dhcp_host`), DNS hosts (`dns_host`) and `autostart` change in place — the hosts through
 * virNetworkUpdate on the running network and its definition, so guests keep their connection. Everything else
 * (name, mode, bridge, forward_dev, domain, mtu, ip) replaces the network, and the plan marks those attributes
 * "forces replacement". Imports by name or UUID; changes made outside Terraform show as drift.
 */
import { Diagnostic, error } from '../../../src/diagnostics';
import {
  LibvirtClient,
  NetRef,
  VIR_NETWORK_SECTION_DNS_HOST,
  VIR_NETWORK_SECTION_IP_DHCP_HOST,
  VIR_NETWORK_UPDATE_AFFECT_CONFIG,
  VIR_NETWORK_UPDATE_AFFECT_LIVE,
  VIR_NETWORK_UPDATE_COMMAND_ADD_LAST,
  VIR_NETWORK_UPDATE_COMMAND_DELETE,
  VIR_NETWORK_XML_INACTIVE,
  bytesToUuid,
} from '../../../src/libvirt';
import { parseNetworkXml, renderDhcpHostXml, renderDnsHostXml, renderNetworkXml } from '../../../src/network';
import type { HandlerContext, ResourceHandler } from '../handler';
import { NETWORK_FIELDS } from '../../../src/fields';
import type { ResourceSchema } from '../plugin/schema';
import { replacePaths, schemaOf, valueDiagnostics, withTableDefaults } from './private/fields';
import { networkByName, networkByRef, networkByUuid } from './private/lookups';
import { isReplacedObject, noteManaged, plannedPrivateOf, reachableClient, withoutReplaceMark } from './private/plan-checks';
import { subnetClashes, usedSubnets } from './private/network-subnets';
import { stateFromNetwork, toNetworkSpec, validateNetworkState } from './private/network-state';
import type { Blocks, NetworkDhcpHostState, NetworkDnsHostState, NetworkState } from './private/model';
import { settleComputed } from './private/plan';
import { isWhollyKnown, list, messageOf, str } from './private/values';
import { notFinished } from './private/not-finished';

/** The provider schema, from the field table (src/fields/network.ts). */
const NETWORK_SCHEMA: ResourceSchema = schemaOf(NETWORK_FIELDS);

/** The state of a network libvirt describes, on `host` (a provider host name; null: the provider's uri). */
async function describe(client: LibvirtClient, net: NetRef, host: string | null): Promise<NetworkState> {
  const spec = parseNetworkXml(await client.networkGetXmlDesc(net, VIR_NETWORK_XML_INACTIVE));
  return { ...stateFromNetwork(spec, await client.networkGetAutostart(net)), host };
}

/** `observed`, with list blocks in `current`'s order when they hold the same elements (no spurious diff). */
function keepOrder(current: NetworkState, observed: NetworkState): NetworkState {
  return {
    ...observed,
    dhcp_host: sameHosts(current.dhcp_host, observed.dhcp_host),
    dns_host: sameHosts(current.dns_host, observed.dns_host),
  };
}

/** `current` when it holds the same hosts as `observed` (in any order), else `observed`. */
function sameHosts<T extends Host>(current: Blocks<T>, observed: Blocks<T>): Blocks<T> {
  const cur = list(current);
  const obs = list(observed);
  return cur.length === obs.length && cur.every((c) => obs.some((o) => keyOf(c) === keyOf(o))) ? current : observed;
}

type Host = NetworkDhcpHostState | NetworkDnsHostState;

/** What identifies a host entry (MACs compare case-insensitively). */
function keyOf(h: Host): string {
  return JSON.stringify(
    'mac' in h ? { mac: str(h.mac)?.toLowerCase() ?? null, hostname: h.hostname ?? null, ip: h.ip } : { ip: h.ip, hostnames: h.hostnames },
  );
}

/** Applies the dhcp_host/dns_host differences between `prior` and `planned` through virNetworkUpdate. */
async function updateHosts(client: LibvirtClient, net: NetRef, prior: NetworkState, planned: NetworkState): Promise<void> {
  const flags = VIR_NETWORK_UPDATE_AFFECT_CONFIG | ((await client.networkIsActive(net)) ? VIR_NETWORK_UPDATE_AFFECT_LIVE : 0);
  const before = toNetworkSpec(prior);
  const after = toNetworkSpec(planned);
  const hostXml = (spec: typeof before, k: number) => {
    const at = spec.placement[k];
    return at ? { parent: at[0], xml: renderDhcpHostXml(spec.spec.ips[at[0]].dhcpHosts[at[1]]) } : undefined;
  };
  const oldHosts = list(prior.dhcp_host);
  const newHosts = list(planned.dhcp_host);
  const oldKeys = new Set(oldHosts.map(keyOf));
  const newKeys = new Set(newHosts.map(keyOf));
  for (let k = 0; k < oldHosts.length; k++) {
    const h = hostXml(before, k);
    if (!newKeys.has(keyOf(oldHosts[k])) && h)
      await client.networkUpdate(net, VIR_NETWORK_UPDATE_COMMAND_DELETE, VIR_NETWORK_SECTION_IP_DHCP_HOST, h.parent, h.xml, flags);
  }
  for (let k = 0; k < newHosts.length; k++) {
    const h = hostXml(after, k);
    if (!oldKeys.has(keyOf(newHosts[k])) && h)
      await client.networkUpdate(net, VIR_NETWORK_UPDATE_COMMAND_ADD_LAST, VIR_NETWORK_SECTION_IP_DHCP_HOST, h.parent, h.xml, flags);
  }
  const oldDns = list(prior.dns_host);
  const newDns = list(planned.dns_host);
  const oldDnsKeys = new Set(oldDns.map(keyOf));
  const newDnsKeys = new Set(newDns.map(keyOf));
  for (let k = 0; k < oldDns.length; k++) {
    if (!newDnsKeys.has(keyOf(oldDns[k])))
      await client.networkUpdate(
        net,
        VIR_NETWORK_UPDATE_COMMAND_DELETE,
        VIR_NETWORK_SECTION_DNS_HOST,
        -1,
        renderDnsHostXml(before.spec.dnsHosts[k]),
        flags,
      );
  }
  for (let k = 0; k < newDns.length; k++) {
    if (!oldDnsKeys.has(keyOf(newDns[k])))
      await client.networkUpdate(
        net,
        VIR_NETWORK_UPDATE_COMMAND_ADD_LAST,
        VIR_NETWORK_SECTION_DNS_HOST,
        -1,
        renderDnsHostXml(after.spec.dnsHosts[k]),
        flags,
      );
  }
}

/** The allowed values, then (once the config is wholly known) the network spec's checks. */
function validateConfig(c: NetworkState): Diagnostic[] {
  const values = valueDiagnostics(NETWORK_FIELDS, c);
  return values.length || !isWhollyKnown(c) ? values : validateNetworkState(c);
}

/** The diagnostic for a create that would take over a network virtseed did not make. */
function networkExistsDiagnostic(name: string): Diagnostic {
  return error(
    ['name'],
    'Network exists already',
    `libvirt already has a network named ${name}. Import it (terraform import <address> ${name}), use it by name in a domain's network_interface, or choose another name.`,
  );
}

/**
 * Plan-time check of a new network's name against the host: the network this create replaces does not count
 * (isReplacedObject; `priorPrivate`: the plan's prior private state). Silent when the host cannot be reached.
 */
async function nameClash(ctx: HandlerContext<LibvirtClient>, name: string, priorPrivate: Buffer | undefined): Promise<Diagnostic[]> {
  const client = await reachableClient(ctx);
  const found = client ? await networkByName(client, name) : null;
  return found && !isReplacedObject(ctx, 'network', bytesToUuid(found.uuid), priorPrivate) ? [networkExistsDiagnostic(name)] : [];
}

/** Plan-time check of a new network's subnets against the host's (./private/network-subnets.ts); silent when the host cannot be reached. */
async function subnetsInUse(ctx: HandlerContext<LibvirtClient>, planned: NetworkState, except: string[]): Promise<Diagnostic[]> {
  if (!isWhollyKnown(planned.ip)) return [];
  const client = await reachableClient(ctx);
  if (!client) return [];
  const cidrs = list(planned.ip).map((ip) => str(ip.address));
  return subnetClashes(str(planned.name) ?? '', cidrs, await usedSubnets(client, ctx.uri, except));
}

/** ApplyResourceChange of a network: destroy, update in place, or create. */
async function applyNetwork(
  { prior, planned }: { prior: NetworkState | null; planned: NetworkState | null },
  ctx: HandlerContext<LibvirtClient>,
): Promise<{ newState: NetworkState | null; diagnostics: Diagnostic[] }> {
  const client = await ctx.client();
  const priorUuid = str(prior?.uuid);
  if (!planned) {
    const net = priorUuid ? await networkByUuid(client, priorUuid) : null;
    if (net) {
      if (await client.networkIsActive(net)) await client.networkDestroy(net);
      await client.networkUndefine(net);
    }
    return { newState: null, diagnostics: [] };
  }
  const name = str(planned.name) ?? '';
  if (prior && priorUuid && priorUuid === planned.uuid) {
    const net = await networkByUuid(client, priorUuid);
    if (!net)
      return {
        newState: null,
        diagnostics: [
          error(
            [],
            `Network ${name} is gone`,
            `libvirt no longer has network ${name} (deleted outside Terraform). Run terraform apply again to create it.`,
          ),
        ],
      };
    await updateHosts(client, net, prior, planned);
    if (prior.autostart !== planned.autostart) await client.networkSetAutostart(net, planned.autostart === true);
    if (!(await client.networkIsActive(net))) await client.networkCreate(net);
    return {
      newState: { ...planned, ...(await describe(client, net, ctx.hostName)), dhcp_host: planned.dhcp_host, dns_host: planned.dns_host },
      diagnostics: [],
    };
  }
  if (await networkByName(client, name)) return { newState: null, diagnostics: [networkExistsDiagnostic(name)] };
  const { spec } = toNetworkSpec(planned);
  const net = await client.networkDefineXml(renderNetworkXml(spec));
  const uuid = bytesToUuid(net.uuid);
  // Defined: from here a failure returns the network (tainted, ./private/not-finished.ts) unless it is undefined again.
  const unfinished = (err: unknown) => notFinished(planned, { id: uuid, uuid }, 'network', name, 'defined', err);
  try {
    await client.networkCreate(net);
  } catch (err) {
    const undone = await client
      .networkUndefine(net)
      .then(() => true)
      .catch(() => false);
    if (!undone) return unfinished(err);
    return {
      newState: null,
      diagnostics: [
        error(
          [],
          `Cannot start network ${name}`,
          `libvirt defined the network but could not start it: ${messageOf(err)}. Nothing was kept. Check that its subnet and bridge are not used by another network or host interface (virsh net-list --all; ip addr), and for mode "bridge" that the host bridge exists.`,
        ),
      ],
    };
  }
  try {
    if (planned.autostart !== false) await client.networkSetAutostart(net, true);
    const described = await describe(client, net, ctx.hostName);
    return {
      newState: { ...planned, ...described, dhcp_host: planned.dhcp_host, dns_host: planned.dns_host, id: uuid, uuid },
      diagnostics: [],
    };
  } catch (err) {
    return unfinished(err);
  }
}

export const network: ResourceHandler<NetworkState, LibvirtClient> = {
  typeName: 'virtseed_network',
  schema: NETWORK_SCHEMA,

  validate(config) {
    return validateConfig(config);
  },

  async plan({ prior, proposed, config, priorPrivate }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    const diagnostics = validateConfig(config);
    let planned = withTableDefaults(NETWORK_FIELDS, proposed, config);
    const requiresReplace = prior ? replacePaths(NETWORK_FIELDS, prior, planned) : [];
    const priorName = str(prior?.name);
    const plannedPrivate = plannedPrivateOf(ctx, 'network', str(prior?.uuid), priorPrivate, requiresReplace.length > 0);
    const replacing = !prior || requiresReplace.length > 0;
    planned = settleComputed(planned, prior, replacing, config.bridge === null ? ['id', 'uuid', 'bridge'] : ['id', 'uuid']);
    if (replacing) {
      const name = str(planned.name);
      if (name && (!prior || prior.name !== name)) diagnostics.push(...(await nameClash(ctx, name, priorPrivate)));
      if (name && !diagnostics.length) diagnostics.push(...(await subnetsInUse(ctx, planned, [name, priorName ?? name])));
    }
    return { planned, requiresReplace, diagnostics, plannedPrivate };
  },

  async apply(req, ctx) {
    return { ...(await applyNetwork(req, ctx)), private: withoutReplaceMark(req.plannedPrivate) };
  },

  async read({ current }, ctx) {
    const client = await ctx.client();
    const uuid = str(current.uuid);
    const net = uuid ? await networkByUuid(client, uuid) : null;
    if (!net) return { newState: null, diagnostics: [] };
    noteManaged(ctx, 'network', uuid);
    return { newState: keepOrder(current, await describe(client, net, ctx.hostName)), diagnostics: [] };
  },

  async importState(id, ctx) {
    const client = await ctx.client();
    const net = await networkByRef(client, id);
    if (!net) throw new Error(`cannot import network "${id}": libvirt has no network with that name or UUID`);
    return [await describe(client, net, ctx.hostName)];
  },
};
