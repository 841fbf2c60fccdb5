/**
 * What the provider serves: its resource handlers and how it connects to libvirt (src/libvirt's remote RPC client).
 */
import { connect } from '../../src/libvirt';
import type { HostConnector } from './host';
import type { ResourceHandler } from './plugin/handler';
import { cloudinitSeed } from './resources/cloudinit-seed';
import { domain } from './resources/domain';
import { ignition } from './resources/ignition';
import { network } from './resources/network';
import { volume } from './resources/volume';

/** The resource handlers served by the provider binary. */
export function resourceHandlers(): ResourceHandler<any>[] {
  return [volume, cloudinitSeed, ignition, domain, network];
}

/** The libvirt connector used by `ctx.client()`. */
export function hostConnector(): HostConnector {
  return { connect: (uri: string) => connect(uri) };
}
