/** The `virtseed_network` data source: an existing virtual network by name (formatnetwork). */
import { error } from '../../../src/diagnostics';
import { NETWORK_DATA_FIELDS } from '../../../src/fields';
import { VIR_NETWORK_XML_INACTIVE, type LibvirtClient } from '../../../src/libvirt';
import { NetworkXmlParseError, parseNetworkXml } from '../../../src/network';
import type { DataSourceHandler } from '../handler';
import { networkByName } from './private/lookups';
import { schemaOf } from './private/fields';
import { str } from './private/values';
import type { NetworkData } from './private/data-model';
import { notFound } from './private/not-found';

export const networkData: DataSourceHandler<NetworkData, LibvirtClient> = {
  typeName: 'virtseed_network',
  schema: schemaOf(NETWORK_DATA_FIELDS),

  async read({ config }, ctx) {
    const client = await ctx.client();
    const name = str(config.name) ?? '';
    const net = await networkByName(client, name);
    if (!net) {
      const names = (await client.connectListAllNetworks(0)).map((n) => n.name);
      return { state: null, diagnostics: [notFound(['name'], { kind: 'network', name, list: 'virsh net-list --all' }, ctx.uri, names)] };
    }
    const [xml, autostart, active, persistent] = await Promise.all([
      client.networkGetXmlDesc(net, VIR_NETWORK_XML_INACTIVE),
      client.networkGetAutostart(net),
      client.networkIsActive(net),
      client.networkIsPersistent(net),
    ]);
    let spec;
    try {
      spec = parseNetworkXml(xml);
    } catch (err) {
      if (!(err instanceof NetworkXmlParseError)) throw err;
      return {
        state: null,
        diagnostics: [
          error(['name'], 'Unsupported network', `Network ${name} is of a kind this data source does not read (${err.message}).`),
        ],
      };
    }
    return {
      state: {
        host: ctx.hostName,
        name,
        id: spec.uuid ?? null,
        uuid: spec.uuid ?? null,
        mode: spec.forward?.mode ?? 'none',
        bridge: spec.bridge ?? null,
        forward_dev: spec.forward?.dev ?? null,
        domain: spec.domain ?? null,
        mtu: spec.mtu ?? null,
        autostart,
        active,
        persistent,
        addresses: spec.ips.map((ip) => `${ip.address}/${ip.prefix}`),
      },
      diagnostics: [],
    };
  },
};
