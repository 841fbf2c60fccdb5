/**
 * `virtseed_pool`: a libvirt storage pool (formatstorage): `dir`, `logical` or `netfs`, defined, started (built
 * first when its target is missing) and by default autostarted. `autostart` and `active` change in place; every
 * attribute of the definition replaces the pool (the field table, src/fields/pool.ts, says which). Reads show a
 * pool deleted outside Terraform as gone (planned again) and a stopped one as `active = false` (started again).
 * Imports by name or UUID.
 *
 * What the provider built it removes: private state records that starting the pool needed a build (a directory,
 * mount point or volume group made by virStoragePoolBuild), and destroy then deletes it (virStoragePoolDelete),
 * after checking the pool is empty. A running pool that still holds volumes is never destroyed: Terraform deletes
 * the pool's own volumes before the pool (they refer to it), so whatever is left is not Terraform's, and the apply
 * fails naming it. A pool that is not running is only undefined (its target stays).
 */
import { Diagnostic, error } from '../../../src/diagnostics';
import { POOL_FIELDS } from '../../../src/fields';
import {
  LibvirtClient,
  LibvirtError,
  PoolRef,
  VIR_STORAGE_POOL_BUILD_NO_OVERWRITE,
  VIR_STORAGE_XML_INACTIVE,
  bytesToUuid,
} from '../../../src/libvirt';
import { parsePoolXml, renderPoolXml } from '../../../src/pool';
import type { HandlerContext, ResourceHandler } from '../handler';
import type { ResourceSchema } from '../plugin/schema';
import { replacePaths, schemaOf, valueDiagnostics, withTableDefaults } from './private/fields';
import { poolByName, poolByRef, poolByUuid } from './private/lookups';
import type { PoolState } from './private/model';
import { settleComputed } from './private/plan';
import { isReplacedObject, noteManaged, notePlannedPool, planHost, plannedPrivateOf, withoutReplaceMark } from './private/plan-checks';
import { describePool } from './private/pool-read';
import { toPoolSpec, validatePoolState, withPlannedDefinition } from './private/pool-state';
import { isWhollyKnown, list, messageOf, str, UNKNOWN } from './private/values';
import { notFinished } from './private/not-finished';

/** The provider schema, from the field table (src/fields/pool.ts). */
const POOL_SCHEMA: ResourceSchema = schemaOf(POOL_FIELDS);

/** The definition attributes libvirt completes when the config leaves them null. */
const DEFINITION_COMPUTED = ['path', 'source_format', 'source_name'] as const;

/** Sizes that change with the pool's content or state. */
const SIZES = ['capacity', 'allocation', 'available'] as const;

/** Private state: whether starting the pool needed a build (then destroy deletes what the build made). */
interface PoolPrivate {
  built?: boolean;
}

function readPrivate(bytes: Buffer | undefined): PoolPrivate {
  if (!bytes?.length) return {};
  try {
    const v = JSON.parse(bytes.toString('utf8')) as unknown;
    return v && typeof v === 'object' ? (v as PoolPrivate) : {};
  } catch {
    return {};
  }
}

function writePrivate(p: PoolPrivate): Buffer {
  return Buffer.from(JSON.stringify(p));
}

/** Thrown when a pool cannot be started, with libvirt's words for the start and (when one ran) the build. */
class PoolStartError extends Error {
  constructor(
    readonly start: string,
    readonly build: string | undefined,
    readonly built: boolean,
  ) {
    super(build ? `starting it failed (${start}); building its target failed (${build})` : `starting it failed (${start})`);
    this.name = 'PoolStartError';
  }
}

/**
 * virStoragePoolBuild flags per pool type: a logical pool's build writes the devices (pvcreate, vgcreate), so it
 * runs with NO_OVERWRITE (libvirt refuses devices that hold data); for dir and netfs pools the build makes a
 * directory, and any flag asks libvirt to format a source device instead.
 */
function buildFlags(type: string): number {
  return type === 'logical' ? VIR_STORAGE_POOL_BUILD_NO_OVERWRITE : 0;
}

/**
 * Starts a defined pool. When the start fails (its directory, mount point or volume group is missing), builds the
 * target (never over existing data, see buildFlags) and starts again. Returns whether a build ran; throws
 * PoolStartError (its `built` says whether a build succeeded before the second start failed).
 */
async function startPool(
  client: LibvirtClient,
  pool: PoolRef,
  type: string,
  ctx: HandlerContext<LibvirtClient>,
): Promise<{ built: boolean }> {
  try {
    await client.storagePoolCreate(pool, 0);
    return { built: false };
  } catch (first) {
    if (!(first instanceof LibvirtError)) throw first;
    ctx.log.info(`pool ${pool.name}: start failed (${first.message}); building its target`);
    try {
      await client.storagePoolBuild(pool, buildFlags(type));
    } catch (build) {
      if (!(build instanceof LibvirtError)) throw build;
      throw new PoolStartError(first.message, build.message, false);
    }
    try {
      await client.storagePoolCreate(pool, 0);
    } catch (second) {
      if (!(second instanceof LibvirtError)) throw second;
      throw new PoolStartError(second.message, undefined, true);
    }
    return { built: true };
  }
}

function startFailed(name: string, err: PoolStartError, kept: string): Diagnostic {
  return error(
    [],
    `Cannot start storage pool ${name}`,
    `libvirt defined the pool but ${err.message}. ${kept} Check the target: a dir pool's parent directory must be writable; a netfs pool's server must export source_dir to this host; a logical pool needs its volume group, or source_devices that hold no data yet.`,
  );
}

/** The diagnostic for a create that would take over a pool virtseed did not make. */
function poolExistsDiagnostic(name: string): Diagnostic {
  return error(
    ['name'],
    'Storage pool exists already',
    `libvirt already has a storage pool named ${name}. Import it (terraform import <address> ${name}), use it by name in your volumes, or choose another name.`,
  );
}

/**
 * Plan-time checks of a new pool against the host: no pool of that name, and no other pool on the same target path
 * (libvirt refuses a second pool on one directory); the pool this create replaces counts for neither
 * (isReplacedObject; `priorPrivate`: the plan's prior private state). Silent when the host cannot be reached (one
 * warning per process, from planHost).
 */
async function newPoolChecks(
  ctx: HandlerContext<LibvirtClient>,
  planned: PoolState,
  priorPrivate: Buffer | undefined,
): Promise<Diagnostic[]> {
  const name = str(planned.name);
  const { client, diagnostics } = await planHost(ctx);
  if (!client || !name) return diagnostics;
  const replaced = (pool: PoolRef) => isReplacedObject(ctx, 'pool', bytesToUuid(pool.uuid), priorPrivate);
  const same = await poolByName(client, name);
  if (same && !replaced(same)) return [poolExistsDiagnostic(name)];
  const path = str(planned.path);
  if (!path || planned.type === 'logical') return [];
  for (const pool of await client.connectListAllStoragePools(0)) {
    if (replaced(pool)) continue;
    let other;
    try {
      other = parsePoolXml(await client.storagePoolGetXmlDesc(pool, VIR_STORAGE_XML_INACTIVE));
    } catch {
      continue; // a pool type the model does not read (iscsi, rbd, ...) has no directory target to clash with
    }
    if (other.path === path && other.type !== 'logical')
      return [
        error(
          ['path'],
          'Path used by another pool',
          `Storage pool ${other.name} already uses ${path}; libvirt keeps one pool per directory. Choose another path, or use pool ${other.name} (import it to manage it here).`,
        ),
      ];
  }
  return [];
}

/** `observed` with `source_devices` as `current` spells "none" (null or []), so a read shows no change. */
function keepEmptyDevices(current: PoolState, observed: PoolState): PoolState {
  const none = (v: PoolState['source_devices']) => v === null || (Array.isArray(v) && v.length === 0);
  return none(current.source_devices) && none(observed.source_devices) ? { ...observed, source_devices: current.source_devices } : observed;
}

/** The volumes a pool holds now (refreshed first, so files written outside libvirt count), sorted. */
async function volumesOf(client: LibvirtClient, pool: PoolRef): Promise<string[]> {
  await client.storagePoolRefresh(pool, 0);
  return (await client.storagePoolListAllVolumes(pool, 0)).map((v) => v.name).sort();
}

function validateConfig(config: PoolState): Diagnostic[] {
  const values = valueDiagnostics(POOL_FIELDS, config);
  return values.length ? values : validatePoolState(withTableDefaults(POOL_FIELDS, config, config));
}

/**
 * Destroys the pool `prior` describes. A running pool is checked first: when it holds volumes (Terraform has
 * deleted the pool's own ones before it), nothing changes and the error names them; else it is stopped, what
 * starting it built is deleted (private state), and it is undefined. A pool that is not running cannot list its
 * volumes without being started (which could mount a file system or activate a volume group), so it is only
 * undefined: its target and whatever is in it stay on the host.
 */
async function destroyPool(
  client: LibvirtClient,
  prior: PoolState,
  priv: PoolPrivate,
  ctx: HandlerContext<LibvirtClient>,
): Promise<{ newState: PoolState | null; diagnostics: Diagnostic[] }> {
  const uuid = str(prior.uuid);
  const pool = uuid ? await poolByUuid(client, uuid) : null;
  if (!pool) return { newState: null, diagnostics: [] };
  if (await client.storagePoolIsActive(pool)) {
    const volumes = await volumesOf(client, pool);
    if (volumes.length) {
      const shown = volumes.length > 20 ? `${volumes.slice(0, 20).join(', ')} and ${volumes.length - 20} more` : volumes.join(', ');
      return {
        newState: prior,
        diagnostics: [
          error(
            [],
            `Storage pool ${pool.name} is not empty`,
            `Pool ${pool.name} holds ${volumes.length} volume(s) Terraform does not manage: ${shown}. virtseed does not delete what it did not create, so the pool was kept. Delete or move them (virsh vol-delete --pool ${pool.name} NAME), or keep the pool and drop it from the state (terraform state rm <address>), then destroy again.`,
          ),
        ],
      };
    }
    await client.storagePoolDestroy(pool);
    if (priv.built) {
      // What starting the pool built (directory, mount point, volume group) goes with it; it is empty (checked above).
      await client
        .storagePoolDelete(pool, 0)
        .catch((err: unknown) => ctx.log.warn(`pool ${pool.name}: could not remove its target: ${messageOf(err)}`));
    }
  }
  await client.storagePoolUndefine(pool);
  return { newState: null, diagnostics: [] };
}

export const pool: ResourceHandler<PoolState, LibvirtClient> = {
  typeName: 'virtseed_pool',
  schema: POOL_SCHEMA,

  validate(config) {
    return validateConfig(config);
  },

  async plan({ prior, proposed, config, priorPrivate }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    const diagnostics = validateConfig(config);
    let planned = withPlannedDefinition(withTableDefaults(POOL_FIELDS, proposed, config), config);
    const requiresReplace = prior ? replacePaths(POOL_FIELDS, prior, planned) : [];
    const plannedPrivate = plannedPrivateOf(ctx, 'pool', str(prior?.uuid), priorPrivate, requiresReplace.length > 0);
    const replacing = !prior || requiresReplace.length > 0;
    planned = settleComputed(planned, prior, replacing, ['id', 'uuid']);
    if (replacing) {
      const definitionKnown = isWhollyKnown(planned.name) && isWhollyKnown(planned.type) && isWhollyKnown(planned.source_name);
      for (const a of DEFINITION_COMPUTED) if (config[a] === null && planned[a] === null && !definitionKnown) planned[a] = UNKNOWN;
      for (const a of SIZES) planned[a] = UNKNOWN;
      const name = str(planned.name);
      if (name) notePlannedPool(ctx, name);
      if (name && (!prior || prior.name !== name)) diagnostics.push(...(await newPoolChecks(ctx, planned, priorPrivate)));
    } else if (prior && planned.active !== prior.active) {
      for (const a of SIZES) planned[a] = UNKNOWN;
    } else if (prior) {
      for (const a of SIZES) planned[a] = prior[a];
    }
    return { planned, requiresReplace, diagnostics, plannedPrivate };
  },

  async apply({ prior, planned, plannedPrivate }, ctx) {
    const client = await ctx.client();
    const priv = readPrivate(withoutReplaceMark(plannedPrivate));
    if (!planned) return prior ? destroyPool(client, prior, priv, ctx) : { newState: null, diagnostics: [] };
    const name = str(planned.name) ?? '';
    const priorUuid = str(prior?.uuid);
    if (prior && priorUuid && priorUuid === planned.uuid) {
      const existing = await poolByUuid(client, priorUuid);
      if (!existing)
        return {
          newState: null,
          diagnostics: [
            error(
              [],
              `Storage pool ${name} is gone`,
              `libvirt no longer has storage pool ${name} (deleted outside Terraform). Run terraform apply again to create it.`,
            ),
          ],
        };
      if (prior.autostart !== planned.autostart) await client.storagePoolSetAutostart(existing, planned.autostart === true);
      const running = await client.storagePoolIsActive(existing);
      if (planned.active !== false && !running) {
        try {
          if ((await startPool(client, existing, str(planned.type) ?? 'dir', ctx)).built) priv.built = true;
        } catch (err) {
          if (!(err instanceof PoolStartError)) throw err;
          if (err.built) priv.built = true;
          return {
            newState: prior,
            diagnostics: [startFailed(name, err, 'The pool stays defined and stopped.')],
            private: writePrivate(priv),
          };
        }
      } else if (planned.active === false && running) {
        await client.storagePoolDestroy(existing);
      }
      return {
        newState: keepEmptyDevices(planned, await describePool(client, existing, ctx.hostName)),
        diagnostics: [],
        private: writePrivate(priv),
      };
    }
    if (await poolByName(client, name)) return { newState: null, diagnostics: [poolExistsDiagnostic(name)] };
    const spec = toPoolSpec(planned);
    delete spec.uuid;
    const created = await client.storagePoolDefineXml(renderPoolXml(spec), 0);
    const uuid = bytesToUuid(created.uuid);
    const fresh: PoolPrivate = {};
    // Defined: from here a failure returns the pool (tainted, ./private/not-finished.ts) unless it is undefined again.
    const unfinished = (err: unknown) => ({
      ...notFinished(planned, { id: uuid, uuid }, 'storage pool', name, 'defined', err),
      private: writePrivate(fresh),
    });
    try {
      if (planned.active !== false) {
        try {
          fresh.built = (await startPool(client, created, spec.type, ctx)).built;
        } catch (err) {
          if (!(err instanceof PoolStartError)) throw err;
          if (err.built) await client.storagePoolDelete(created, 0).catch(() => undefined);
          const undone = await client
            .storagePoolUndefine(created)
            .then(() => true)
            .catch(() => false);
          if (!undone) return unfinished(err);
          return { newState: null, diagnostics: [startFailed(name, err, 'Nothing was kept.')] };
        }
      }
      if (planned.autostart !== false) await client.storagePoolSetAutostart(created, true);
      const described = await describePool(client, created, ctx.hostName);
      return { newState: { ...keepEmptyDevices(planned, described), id: uuid, uuid }, diagnostics: [], private: writePrivate(fresh) };
    } catch (err) {
      return unfinished(err);
    }
  },

  async read({ current }, ctx) {
    const client = await ctx.client();
    const uuid = str(current.uuid);
    const found = uuid ? await poolByUuid(client, uuid) : null;
    if (!found) return { newState: null, diagnostics: [] };
    noteManaged(ctx, 'pool', uuid);
    return { newState: keepEmptyDevices(current, await describePool(client, found, ctx.hostName)), diagnostics: [] };
  },

  async importState(id, ctx) {
    const client = await ctx.client();
    const found = await poolByRef(client, id);
    if (!found) throw new Error(`cannot import storage pool "${id}": libvirt has no storage pool with that name or UUID`);
    const state = await describePool(client, found, ctx.hostName);
    return [{ ...state, source_devices: list(state.source_devices).length ? state.source_devices : null }];
  },
};
