/**
 * Plan-time checks against the host ("plan says what apply would find"): they run only when the provider can
 * reach the resource's libvirt host, and never create or change anything. When a host cannot be reached, the plan
 * carries one warning per host (and provider process, noted in `ctx.notes`) naming it and what to check, and the
 * checks wait for apply. While a resource's host is not known yet (a placement planned in the same run), the checks
 * wait silently.
 *
 * The object a plan replaces still exists while its replacement is planned, so a "name already taken" check must
 * not count it (while any other object of that name still counts): see {@link isReplacedObject}. Every resource
 * notes it by the object's identity (volume key; domain, pool or network UUID; snapshot `DOMAIN-UUID/NAME`).
 */
import { Diagnostic, error } from '../../../../src/diagnostics';
import { bytesToUuid, LibvirtClient, LibvirtError, VIR_ERR_NO_STORAGE_POOL } from '../../../../src/libvirt';
import { Connection, describeHost, HostUnreachableError } from '../../host';
import { hostUnreachable } from '../../plugin/diagnostics';
import type { HandlerContext } from '../../handler';
import { CREATE_PENDING_KEY, domainExistsDiagnostic } from './domain-lifecycle';
import { domainByName, volumeByName } from './lookups';
import type { DomainState } from './model';
import { missingNetworkDiagnostics } from './network-refs';
import { pendingMarkerName } from './storage';

const WARNED_UNREACHABLE = 'warned-unreachable';

/** What an object is known by across plans: a volume's key; a domain's, pool's or network's UUID; a snapshot's
 *  `DOMAIN-UUID/NAME` (compared in lower case). */
export type ObjectKind = 'volume' | 'domain' | 'pool' | 'network' | 'snapshot';

const managedKey = (kind: ObjectKind, id: string) => `managed\u0000${kind}\u0000${id.toLowerCase()}`;
const keptKey = (kind: ObjectKind, id: string) => `kept\u0000${kind}\u0000${id.toLowerCase()}`;
/** The key of the planned private state (JSON object) naming the object a create replaces. */
const REPLACES = 'virtseed-replaces';

/**
 * Records that Terraform manages `kind` object `id`: ReadResource found it in the state. Terraform refreshes a
 * tainted object (ReadResource) just before planning its replacement in the same provider process.
 */
export function noteManaged(ctx: HandlerContext<Connection>, kind: ObjectKind, id: string | undefined): void {
  if (id) ctx.notes.add(managedKey(kind, id));
}

/** JSON object of a private state, or null when it is not one (left alone then). */
function privateObject(priv: Buffer | undefined): Record<string, unknown> | null {
  if (!priv?.length) return {};
  try {
    const v: unknown = JSON.parse(priv.toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The planned private state of a plan with a prior state (`priorId`: the object's key or UUID): `priorPrivate` with
 * the object named as the one a replacement replaces. Terraform hands that planned private state to the create half
 * of a replacement (its second PlanResourceChange, with no prior state), whoever asked for the replacement (the
 * provider's requires_replace, `-replace=ADDR`, replace_triggered_by). A plan that keeps the object (no
 * requires_replace) also notes it as kept, so a new resource taking its name is still refused. Without a prior
 * state, `priorPrivate` as it is.
 */
export function plannedPrivateOf(
  ctx: HandlerContext<Connection>,
  kind: ObjectKind,
  priorId: string | undefined,
  priorPrivate: Buffer | undefined,
  replacing: boolean,
): Buffer | undefined {
  if (!priorId) return priorPrivate;
  if (!replacing) ctx.notes.add(keptKey(kind, priorId));
  const obj = privateObject(priorPrivate);
  return obj ? Buffer.from(JSON.stringify({ ...obj, [REPLACES]: priorId })) : priorPrivate;
}

/** A planned private state without the replacement's mark (what an apply keeps in the state). */
export function withoutReplaceMark(priv: Buffer | undefined): Buffer | undefined {
  const obj = privateObject(priv);
  if (!obj || !(REPLACES in obj)) return priv;
  const { [REPLACES]: _dropped, ...rest } = obj;
  return Object.keys(rest).length ? Buffer.from(JSON.stringify(rest)) : Buffer.alloc(0);
}

/**
 * True when the existing `kind` object `id` is the one the planned create replaces, so it does not count as "exists
 * already": the create half of a replacement names it in its prior private state ({@link plannedPrivateOf}); a
 * tainted object's replacement comes with neither prior state nor private state, so it is the object a ReadResource
 * of this provider process found in the state ({@link noteManaged}) that no plan keeps. An object Terraform does
 * not manage is neither. (With `terraform plan -refresh=false` a tainted object is not read: its plan still refuses.)
 */
export function isReplacedObject(ctx: HandlerContext<Connection>, kind: ObjectKind, id: string, priorPrivate: Buffer | undefined): boolean {
  const named = privateObject(priorPrivate)?.[REPLACES];
  if (typeof named === 'string' && named.toLowerCase() === id.toLowerCase()) return true;
  return ctx.notes.has(managedKey(kind, id)) && !ctx.notes.has(keptKey(kind, id));
}

const plannedPoolKey = (name: string) => `planned-pool\u0000${name}`;

/**
 * Records that this plan creates storage pool `name` (a `virtseed_pool`): Terraform plans the pool before the
 * volumes that name it, in the same provider process, so their "pool exists" check lets it pass.
 */
export function notePlannedPool(ctx: HandlerContext<Connection>, name: string): void {
  ctx.notes.add(plannedPoolKey(name));
}

/** True when a `virtseed_pool` named `name` is created by this plan. */
function isPoolPlanned(ctx: HandlerContext<Connection>, name: string): boolean {
  return ctx.notes.has(plannedPoolKey(name));
}

/** The libvirt client when the host can be reached now, else null (plan-time checks are then skipped). */
export async function reachableClient<C extends Connection>(ctx: HandlerContext<C>): Promise<C | null> {
  return (await planHost(ctx)).client;
}

/**
 * The libvirt client of the resource's host for plan-time checks, or null with (the first time in this process for
 * that host) a warning that the host could not be reached and what to check.
 */
export async function planHost<C extends Connection>(ctx: HandlerContext<C>): Promise<{ client: C | null; diagnostics: Diagnostic[] }> {
  if (!ctx.uri) return { client: null, diagnostics: [] };
  try {
    return { client: await ctx.client(), diagnostics: [] };
  } catch (err) {
    const noted = `${WARNED_UNREACHABLE}\u0000${err instanceof HostUnreachableError ? err.uri : ''}`;
    if (!(err instanceof HostUnreachableError) || ctx.notes.has(noted)) return { client: null, diagnostics: [] };
    ctx.notes.add(noted);
    return { client: null, diagnostics: [notCheckedWarning(err)] };
  }
}

/** The warning for a host that could not be reached at plan. */
function notCheckedWarning(err: HostUnreachableError): Diagnostic {
  const d = hostUnreachable(err.uri, err.cause, err.host);
  return {
    ...d,
    severity: 'warning',
    summary: `Plan not checked against libvirt ${err.host === null ? `at ${err.uri}` : describeHost({ name: err.host, uri: err.uri })}`,
    detail: `${d.detail} Until it is reachable, missing pools, networks and clashing names show only at apply (which needs the host).`,
  };
}

/** Diagnostic of a storage pool the host does not have, on attribute `pool`. */
function poolMissingDiagnostic(resource: string, pool: string): Diagnostic {
  return error(
    ['pool'],
    'Storage pool not found',
    `${resource}: libvirt has no storage pool named ${pool}. Name an existing pool (virsh pool-list --all), or create it with a virtseed_pool resource and refer to its name (pool = virtseed_pool.<name>.name), so Terraform creates the pool first.`,
  );
}

/**
 * Plan-time checks for a volume virtseed will create as `name` in `pool` (a `virtseed_volume`, seed or Ignition
 * volume): the pool exists (or a `virtseed_pool` of this plan creates it); no volume of that name exists (unless it
 * is the one this create replaces ({@link isReplacedObject}, `priorPrivate`: the plan's prior private state), or an
 * interrupted create of ours left it: apply removes that). `exists(pool, name)` is the resource's own "name taken" diagnostic.
 * Returns no diagnostics when the host cannot be reached (only the one warning).
 */
export async function newVolumeChecks(
  ctx: HandlerContext<LibvirtClient>,
  resource: string,
  target: { pool: string; name: string },
  exists: (pool: string, name: string) => Diagnostic,
  priorPrivate?: Buffer,
): Promise<Diagnostic[]> {
  const { client, diagnostics } = await planHost(ctx);
  if (!client) return diagnostics;
  let pool;
  try {
    pool = await client.storagePoolLookupByName(target.pool);
  } catch (err) {
    if (!(err instanceof LibvirtError && err.code === VIR_ERR_NO_STORAGE_POOL)) throw err;
    return isPoolPlanned(ctx, target.pool) ? [] : [poolMissingDiagnostic(resource, target.pool)];
  }
  // A stopped pool lists no volumes; apply starts it (and its own virtseed_pool may be starting it in this plan).
  if (!(await client.storagePoolIsActive(pool))) return [];
  const found = await volumeByName(client, pool, target.name);
  if (!found || isReplacedObject(ctx, 'volume', found.key, priorPrivate)) return [];
  if (await volumeByName(client, pool, pendingMarkerName(target.name))) return [];
  return [exists(target.pool, target.name)];
}

/**
 * The plan-time volume checks of a resource that owns a volume named by its `pool` and `name` attributes: runs
 * newVolumeChecks when the plan creates a volume under a new pool/name (a create, or a replacement's create half,
 * with `priorPrivate`). `label` names the resource kind in the diagnostic (e.g. `Seed`).
 */
export async function plannedVolumeChecks(
  ctx: HandlerContext<LibvirtClient>,
  label: string,
  req: { prior: Readonly<Record<string, unknown>> | null; priorPrivate?: Buffer },
  planned: Readonly<Record<string, unknown>>,
  exists: (pool: string, name: string) => Diagnostic,
): Promise<Diagnostic[]> {
  const { prior, priorPrivate } = req;
  const [pool, name] = [planned.pool, planned.name];
  if (typeof pool !== 'string' || typeof name !== 'string' || (prior && prior.pool === pool && prior.name === name)) return [];
  return newVolumeChecks(ctx, `${label} ${pool}/${name}`, { pool, name }, exists, priorPrivate);
}

/**
 * Plan-time check for a domain virtseed will create as `name`: none of that name exists (unless it is the one this
 * create replaces ({@link isReplacedObject}, `priorPrivate`: the plan's prior private state), or carries
 * `pendingKey` in its metadata: left by an interrupted create, which apply replaces).
 */
export async function newDomainChecks(
  ctx: HandlerContext<LibvirtClient>,
  name: string,
  pendingKey: string,
  exists: (name: string, uuid: string) => Diagnostic,
  priorPrivate?: Buffer,
): Promise<Diagnostic[]> {
  const { client, diagnostics } = await planHost(ctx);
  if (!client) return diagnostics;
  const found = await domainByName(client, name, pendingKey);
  if (!found || found.interrupted) return [];
  const uuid = bytesToUuid(found.dom.uuid);
  return isReplacedObject(ctx, 'domain', uuid, priorPrivate) ? [] : [exists(name, uuid)];
}

/**
 * `virtseed_domain`'s plan-time checks against the host (when it can be reached): the networks its NICs name exist
 * and, when the plan creates a domain under a new name (`creates`), no other domain has that name.
 */
export async function domainHostChecks(
  ctx: HandlerContext<LibvirtClient>,
  planned: DomainState,
  creates: boolean,
  priorPrivate?: Buffer,
): Promise<Diagnostic[]> {
  const name = typeof planned.name === 'string' ? planned.name : undefined;
  const out = name && creates ? await newDomainChecks(ctx, name, CREATE_PENDING_KEY, domainExistsDiagnostic, priorPrivate) : [];
  const { client } = await planHost(ctx);
  return client ? [...out, ...(await missingNetworkDiagnostics(client, planned))] : out;
}
