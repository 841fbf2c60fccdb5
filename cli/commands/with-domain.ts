/**
 * The connection and domain lookup the domain commands share (`virtseed snapshot`, `virtseed backup`): connects to
 * `uri`, finds the domain by name or UUID and runs `then`; closes the connection whatever happens.
 */
import { connect, LibvirtError, uuidToBytes, VIR_ERR_NO_DOMAIN, type DomRef, type LibvirtClient } from '../../src/libvirt';
import { isUuid } from '../../src/uuid';
import type { CliIo } from '../io';

/**
 * Runs `then` on domain `ref` (a name or UUID) of libvirt at `uri`, its messages prefixed `command` (e.g.
 * `virtseed backup create`). Returns `then`'s exit code; 1 when the connection fails or libvirt (or an error
 * `refused` accepts) refuses, 2 when there is no such domain. Other errors are thrown.
 */
export async function withDomain(
  command: string,
  uri: string,
  ref: string,
  io: CliIo,
  then: (client: LibvirtClient, dom: DomRef) => Promise<number>,
  refused: (err: unknown) => err is Error = (err): err is Error => err instanceof LibvirtError,
): Promise<number> {
  let client: LibvirtClient;
  try {
    client = await connect(uri);
  } catch (err) {
    io.stderr(`${command}: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    let dom: DomRef;
    try {
      dom = isUuid(ref) ? await client.domainLookupByUuid(uuidToBytes(ref)) : await client.domainLookupByName(ref);
    } catch (err) {
      if (err instanceof LibvirtError && err.code === VIR_ERR_NO_DOMAIN) {
        io.stderr(`${command}: libvirt at ${uri} has no domain ${ref} (virsh -c ${uri} list --all)\n`);
        return 2;
      }
      throw err;
    }
    return await then(client, dom);
  } catch (err) {
    if (!(err instanceof LibvirtError) && !refused(err)) throw err;
    io.stderr(`${command}: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await client.close();
  }
}
