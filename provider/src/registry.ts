/**
 * What the provider serves: its resource and data source handlers, how it connects to libvirt (src/libvirt's remote RPC client) and
 * the host facts plans read.
 */
import { connect, type LibvirtClient } from '../../src/libvirt';
import type { HostConnector, HostFacts } from './host';
import { createHostProbe } from './host-probe';
import { domainData } from './resources/data-domain';
import { hostData } from './resources/data-host';
import { networkData } from './resources/data-network';
import { poolData } from './resources/data-pool';
import { volumeData } from './resources/data-volume';
import type { DataSourceHandler, ResourceHandler } from './handler';
import { backupPolicy } from './resources/backup-policy';
import { cloudinitSeed } from './resources/cloudinit-seed';
import { domain } from './resources/domain';
import { ignition } from './resources/ignition';
import { network } from './resources/network';
import { snapshot } from './resources/snapshot';
import { placement } from './resources/placement';
import { pool } from './resources/pool';
import { volume } from './resources/volume';

/** The resource handlers served by the provider binary. */
export function resourceHandlers(): ResourceHandler<unknown, LibvirtClient>[] {
  return [volume, cloudinitSeed, ignition, domain, network, pool, snapshot, placement, backupPolicy];
}

/** The data source handlers served by the provider binary. */
export function dataSourceHandlers(): DataSourceHandler<unknown, LibvirtClient>[] {
  return [hostData, poolData, networkData, volumeData, domainData];
}

/** The libvirt connector used by `ctx.client()`. */
export function hostConnector(): HostConnector<LibvirtClient> {
  return { connect: (uri: string) => connect(uri) };
}

/** Facts about the host read from this machine (one probe per provider process). */
export function hostFacts(): HostFacts {
  return createHostProbe();
}
