/**
 * Domain lookups by UUID for ReadResource, answered from one `virConnectListAllDomains` call shared by every read
 * that starts within LISTING_TTL_MS of it: Terraform refreshes up to 10 resources at a time, so a plan of 1000
 * domains makes a few list calls instead of 1000 `virDomainLookupByUUID` round trips (issue #15).
 * The listing is only a shortcut for domains that exist: a UUID missing from it is looked up directly (the domain may
 * be newer than the listing), and a listed domain undefined since then makes the caller's next call fail with
 * VIR_ERR_NO_DOMAIN, which the caller treats as gone. Listings are per client connection.
 */
import { performance } from 'node:perf_hooks';
import { bytesToUuid, uuidToBytes, type DomRef, type LibvirtClient } from '../../../../src/libvirt';
import { domainByUuid } from './lookups';

/** How long one listing answers new lookups. */
const LISTING_TTL_MS = 2000;

interface Listing {
  readonly takenAt: number;
  readonly byUuid: Promise<Map<string, DomRef>>;
}

const listings = new WeakMap<LibvirtClient, Listing>();

function listing(client: LibvirtClient): Promise<Map<string, DomRef>> {
  const current = listings.get(client);
  if (current && performance.now() - current.takenAt <= LISTING_TTL_MS) return current.byUuid;
  const fresh: Listing = {
    takenAt: performance.now(),
    byUuid: client.connectListAllDomains(0).then((doms) => new Map(doms.map((d) => [bytesToUuid(d.uuid), d]))),
  };
  listings.set(client, fresh);
  fresh.byUuid.catch(() => {
    if (listings.get(client) === fresh) listings.delete(client);
  });
  return fresh.byUuid;
}

/** The domain with `uuid` (any case, dashes optional), or null when libvirt has none. Throws other LibvirtErrors. */
export async function lookupDomainByUuid(client: LibvirtClient, uuid: string): Promise<DomRef | null> {
  const bytes = uuidToBytes(uuid);
  const listed = (await listing(client).catch(() => undefined))?.get(bytesToUuid(bytes));
  return listed ?? domainByUuid(client, uuid);
}

/** Drops the shared listing (after this provider defined or undefined a domain). */
export function forgetDomainListing(client: LibvirtClient): void {
  listings.delete(client);
}
