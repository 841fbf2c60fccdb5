/**
 * The libvirt version of a connection's daemon (virConnectGetLibVersion: major * 1,000,000 + minor * 1,000 +
 * release), asked once per client: a daemon does not change version under a connection (a restarted one is a new
 * connection). Saves a round trip per domain removed (issue #38).
 */
import type { LibvirtClient } from '../../../../src/libvirt';
import { perConnection } from './per-connection';

const versions = perConnection((client) => client.connectGetLibVersion());

/** The daemon's libvirt version; a failed ask is not kept (the next call asks again). Throws LibvirtError. */
export function libVersionOf(client: LibvirtClient): Promise<number> {
  return versions.get(client);
}
