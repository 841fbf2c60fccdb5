/**
 * Domain lookups by UUID for ReadResource, answered from one `virConnectListAllDomains` call shared by every read
 * that starts within LISTING_TTL_MS of it: Terraform refreshes up to 10 resources at a time, so a plan of 1000
 * domains makes a few list calls instead of 1000 `virDomainLookupByUUID` round trips (issue #15).
 * The listing is only a shortcut for domains that exist: a UUID missing from it is looked up directly (the domain may
 * be newer than the listing), and a listed domain undefined since then makes the caller's next call fail with
 * VIR_ERR_NO_DOMAIN, which the caller treats as gone. Listings are per client connection.
 *
 * A second listing, taken with the first (same round trip), names the domains that start with the host
 * (VIR_CONNECT_LIST_DOMAINS_AUTOSTART): with it a listed domain that was shut off (no domain id) comes with its
 * running state and autostart flag as of the listing, and its read asks libvirt for neither (issue #38: two of a
 * refresh's three calls per domain). A running domain's state is always asked of libvirt (paused, being shut down,
 * crashed and suspended guests all have an id).
 */
import { bytesToUuid, uuidToBytes, VIR_CONNECT_LIST_DOMAINS_AUTOSTART, type DomRef, type LibvirtClient } from '../../../../src/libvirt';
import { domainByUuid } from './lookups';
import { perConnection } from './per-connection';

/** How long one listing answers new lookups. */
const LISTING_TTL_MS = 2000;

/** A domain found by UUID; `shutOff` when the listing found it shut off, with its autostart flag then. */
export interface FoundDomain {
  readonly dom: DomRef;
  readonly shutOff?: { readonly autostart: boolean };
}

/** All domains by UUID; the shut-off ones with their autostart flag when the autostart listing answered too. */
async function listAll(client: LibvirtClient): Promise<Map<string, FoundDomain>> {
  const [doms, autostart] = await Promise.all([
    client.connectListAllDomains(0),
    client.connectListAllDomains(VIR_CONNECT_LIST_DOMAINS_AUTOSTART).catch(() => null),
  ]);
  const starting = autostart && new Set(autostart.map((d) => bytesToUuid(d.uuid)));
  return new Map(
    doms.map((dom) => {
      const uuid = bytesToUuid(dom.uuid);
      return [uuid, starting && dom.id === -1 ? { dom, shutOff: { autostart: starting.has(uuid) } } : { dom }];
    }),
  );
}

/** The shared listing of a connection, taken anew once it is LISTING_TTL_MS old. */
const listings = perConnection(listAll, LISTING_TTL_MS);

/** The domain with `uuid` (any case, dashes optional), or null when libvirt has none. Throws other LibvirtErrors. */
export async function lookupDomainByUuid(client: LibvirtClient, uuid: string): Promise<DomRef | null> {
  return (await findDomainByUuid(client, uuid))?.dom ?? null;
}

/**
 * The domain with `uuid` as {@link lookupDomainByUuid} finds it, with what the listing knew of a shut-off one
 * (`shutOff`; absent when it runs, or when it was looked up directly). Throws other LibvirtErrors.
 */
export async function findDomainByUuid(client: LibvirtClient, uuid: string): Promise<FoundDomain | null> {
  const bytes = uuidToBytes(uuid);
  const listed = (await listings.get(client).catch(() => undefined))?.get(bytesToUuid(bytes));
  if (listed) return listed;
  const dom = await domainByUuid(client, uuid);
  return dom && { dom };
}

/** Drops the shared listing (after this provider defined or undefined a domain). */
export function forgetDomainListing(client: LibvirtClient): void {
  listings.forget(client);
}
