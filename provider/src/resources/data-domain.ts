/**
 * The `virtseed_domain` data source: an existing domain by name, any domain of the host (formatdomain, read
 * tolerantly by src/domain summarizeDomainXml), with its state and memory from virDomainGetInfo.
 */
import { error } from '../../../src/diagnostics';
import { DomainXmlParseError, summarizeDomainXml } from '../../../src/domain';
import { DOMAIN_DATA_FIELDS } from '../../../src/fields';
import { VIR_DOMAIN_XML_INACTIVE, type DomRef, type LibvirtClient } from '../../../src/libvirt';
import type { DataSourceHandler } from '../handler';
import { addressAttributes, domainAddresses } from './private/addresses';
import { isNoDomain } from './private/lookups';
import { schemaOf } from './private/fields';
import { str } from './private/values';
import type { DomainData } from './private/data-model';
import { notFound } from './private/not-found';

/** virDomainState as `virsh dominfo` words it, by value. */
const DOMAIN_STATE_NAMES = ['no state', 'running', 'idle', 'paused', 'in shutdown', 'shut off', 'crashed', 'pmsuspended'];

async function lookup(client: LibvirtClient, name: string): Promise<DomRef | null> {
  try {
    return await client.domainLookupByName(name);
  } catch (err) {
    if (isNoDomain(err)) return null;
    throw err;
  }
}

export const domainData: DataSourceHandler<DomainData, LibvirtClient> = {
  typeName: 'virtseed_domain',
  schema: schemaOf(DOMAIN_DATA_FIELDS),

  async read({ config }, ctx) {
    const client = await ctx.client();
    const name = str(config.name) ?? '';
    const dom = await lookup(client, name);
    if (!dom) {
      const names = (await client.connectListAllDomains(0)).map((d) => d.name);
      return { state: null, diagnostics: [notFound(['name'], { kind: 'domain', name, list: 'virsh list --all' }, ctx.uri, names)] };
    }
    const [info, xml, autostart, persistent, active] = await Promise.all([
      client.domainGetInfo(dom),
      client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE),
      client.domainGetAutostart(dom),
      client.domainIsPersistent(dom),
      client.domainIsActive(dom),
    ]);
    let summary;
    try {
      summary = summarizeDomainXml(xml);
    } catch (err) {
      if (!(err instanceof DomainXmlParseError)) throw err;
      return { state: null, diagnostics: [error(['name'], 'Unreadable domain', `Domain ${name}: ${err.message}.`)] };
    }
    const { addresses, ip_address } = addressAttributes(await domainAddresses(client, dom, { agent: true }));
    return {
      state: {
        host: ctx.hostName,
        name,
        id: summary.uuid ?? null,
        uuid: summary.uuid ?? null,
        memory: Math.floor(info.maxMemoryKiB / 1024),
        vcpu: info.vcpus,
        type: summary.type,
        firmware: summary.firmware,
        secure_boot: summary.secureBoot,
        running: active,
        addresses,
        ip_address,
        state: DOMAIN_STATE_NAMES[info.state] ?? `state ${info.state}`,
        autostart,
        persistent,
        disks: summary.disks,
        mac_addresses: summary.interfaces.flatMap((i) => (i.mac !== undefined ? [i.mac] : [])),
        networks: summary.interfaces.flatMap((i) => (i.network !== undefined ? [i.network] : [])),
      },
      diagnostics: [],
    };
  },
};
