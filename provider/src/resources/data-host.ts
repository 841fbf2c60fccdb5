/**
 * The `virtseed_host` data source: the libvirt host behind the provider's URI (virConnectGetLibVersion,
 * virConnectGetVersion, virConnectGetHostname, virNodeGetInfo, virNodeGetFreeMemory, virConnectGetCapabilities,
 * virConnectGetDomainCapabilities), and the provider's own KVM check.
 */
import { HOST_DATA_FIELDS } from '../../../src/fields';
import { availableFirmware, parseFirmwareCapabilities, parseHostCapabilities, versionString } from '../../../src/host';
import type { LibvirtClient } from '../../../src/libvirt';
import type { DataSourceHandler } from '../handler';
import { schemaOf } from './private/fields';
import type { HostData } from './private/data-model';

const MIB = 1024 * 1024;

/** Domain capabilities for `machine` (null: the host's default machine), or '' when libvirt has none for it. */
async function domainCapabilities(client: LibvirtClient, virttype: string, machine: string | null): Promise<string> {
  return client.connectGetDomainCapabilities({ virttype, machine }).catch(() => '');
}

export const hostData: DataSourceHandler<HostData, LibvirtClient> = {
  typeName: 'virtseed_host',
  schema: schemaOf(HOST_DATA_FIELDS),

  async read(_req, ctx) {
    const client = await ctx.client();
    const domainType = ctx.host.domainType(ctx.uri);
    const [libVersion, hvVersion, hostname, node, freeBytes, capsXml, defaultCaps, q35Caps] = await Promise.all([
      client.connectGetLibVersion(),
      client.connectGetVersion(),
      client.connectGetHostname(),
      client.nodeGetInfo(),
      client.nodeGetFreeMemory(),
      client.connectGetCapabilities(),
      domainCapabilities(client, domainType, null),
      domainCapabilities(client, domainType, 'q35'),
    ]);
    const caps = parseHostCapabilities(capsXml);
    const firmware = parseFirmwareCapabilities(defaultCaps);
    return {
      state: {
        host: ctx.hostName,
        id: caps.uuid ?? hostname,
        hostname,
        uri: ctx.uri,
        libvirt_version: versionString(libVersion),
        qemu_version: versionString(hvVersion),
        arch: node.model,
        cpu_model: caps.cpuModel ?? null,
        cpus: node.cpus,
        cpu_sockets: node.sockets,
        cpu_cores: node.cores,
        cpu_threads: node.threads,
        cpu_mhz: node.mhz,
        numa_cells: node.nodes,
        memory_total: Math.floor(node.memoryKiB / 1024),
        memory_free: Math.floor(freeBytes / MIB),
        kvm: domainType === 'kvm',
        domain_type: domainType,
        firmware: availableFirmware(caps.arch ?? node.model, firmware),
        secure_boot: firmware.secureBoot || parseFirmwareCapabilities(q35Caps).secureBoot,
      },
      diagnostics: [],
    };
  },
};
