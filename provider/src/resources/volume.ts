/**
 * `virtseed_volume`: a storage volume in a libvirt pool (formatstorage): empty with a capacity, a qcow2 overlay on
 * a backing volume, or uploaded from a local file or http(s) URL by stream; with `checksum_url`, a qcow2 overlay on
 * the pool's verified cache of the image (private/verified-volume.ts); or restored from a backup chain
 * (`restore_from`, private/restore.ts). Capacity grows in place.
 */
import { Diagnostic, error } from '../../../src/diagnostics';
import { VIR_DOMAIN_BLOCK_RESIZE_BYTES, type LibvirtClient, type VolRef } from '../../../src/libvirt';
import type { HandlerContext, ResourceHandler } from '../handler';
import { mergeTwins, twinConflicts, VOLUME_FIELDS } from '../../../src/fields';
import type { ResourceSchema } from '../plugin/schema';
import { isValueOf, replacePaths, schemaOf, valueDiagnostics } from './private/fields';
import { volumeByKey, volumeByName, volumeByPath } from './private/lookups';
import { inspectSource, isLocalSource, SourceReadError } from './private/image-source';
import { qcow2GrowBlocker } from './private/qcow2-snapshots';
import { noteManaged, plannedPrivateOf, plannedVolumeChecks, reachableClient, withoutReplaceMark } from './private/plan-checks';
import {
  CapacityBelowSourceError,
  ChecksumMismatchError,
  createVolumeFromSource,
  isSha256Hex,
  UploadVerificationError,
} from './private/upload';
import {
  activePool,
  afterCreate,
  backingPathFromXml,
  createMarked,
  isPoolInactive,
  removeInterrupted,
  runningVolumeUsers,
  VolumeCreatedError,
  volumeFormatFromXml,
  volumeXml,
} from './private/storage';
import type { VolumeFormat, VolumeState } from './private/model';
import { settleComputed } from './private/plan';
import { destroyVolume } from './private/raw-volume';
import { notFinished } from './private/not-finished';
import { checksumSource, createVerifiedVolume, planDigest, releaseCache, verificationDiagnostics } from './private/verified-volume';
import { keyedDigest, keyFor, keyOf, privateWithKey } from './private/keyed';
import { known, num, str, UNKNOWN } from './private/values';
import { createRestoredVolume, planRestore, RestorePlanError, restoreWarning, type RestorePlan } from './private/restore';

/** The provider schema, from the field table (src/fields/volume.ts). */
const VOLUME_SCHEMA: ResourceSchema = schemaOf(VOLUME_FIELDS);

/** `source_wo` set with `source` (the two are exclusive), as a diagnostic on `source_wo`. */
function twinDiagnostics(config: VolumeState): Diagnostic[] {
  return twinConflicts(VOLUME_FIELDS.fields, config).map((c) =>
    error(c.path, 'Conflicting attributes', `Set either ${c.of} or ${c.twin} (its write-only form), not both.`),
  );
}

/** The config's diagnostics, `source_wo` read as `source`. */
function validateConfig(given: VolumeState): Diagnostic[] {
  const c = mergeTwins(VOLUME_FIELDS.fields, given);
  const d = [...twinDiagnostics(given), ...valueDiagnostics(VOLUME_FIELDS, c)];
  const format = str(c.format);
  if (str(c.source) && str(c.backing_volume))
    d.push(error(['source'], 'Conflicting attributes', 'Set either source or backing_volume, not both.'));
  const restoreFrom = str(c.restore_from);
  if (restoreFrom && (str(c.source) || str(c.backing_volume)))
    d.push(error(['restore_from'], 'Conflicting attributes', 'Set one of restore_from, source and backing_volume, not several.'));
  if (restoreFrom && str(c.format) === 'raw')
    d.push(error(['format'], 'Invalid format', 'A volume restored from a backup (restore_from) is qcow2; format must be qcow2 or unset.'));
  if (str(c.restore_disk) && c.restore_from === null)
    d.push(
      error(
        ['restore_disk'],
        'restore_disk without restore_from',
        'restore_disk picks a disk of the backup restore_from names; set restore_from too, or remove restore_disk.',
      ),
    );
  if (c.capacity === null && c.source === null && c.backing_volume === null && c.restore_from === null)
    d.push(
      error(['capacity'], 'Missing capacity', 'An empty volume needs capacity (bytes); or give source, backing_volume or restore_from.'),
    );
  const cap = num(c.capacity);
  if (cap !== undefined && (!Number.isInteger(cap) || cap <= 0))
    d.push(error(['capacity'], 'Invalid capacity', `capacity is ${cap}; expected a positive whole number of bytes.`));
  if (format === 'raw' && str(c.backing_volume))
    d.push(error(['format'], 'Invalid format', 'A volume with backing_volume is a qcow2 overlay; format must be qcow2.'));
  const sha256 = str(c.sha256);
  if (sha256 !== undefined && !isSha256Hex(sha256))
    d.push(error(['sha256'], 'Invalid sha256', `sha256 is "${sha256}"; expected 64 hex digits (e.g. the output of sha256sum).`));
  if (sha256 !== undefined && c.source === null)
    d.push(error(['sha256'], 'sha256 without source', 'sha256 pins the bytes of source; set source too, or remove sha256.'));
  d.push(...verificationDiagnostics(c));
  return d;
}

/** The diagnostic for a source that cannot be read: what failed (never a credential) and what to check. */
function sourceDiagnostic(planned: VolumeState, source: string, err: SourceReadError): Diagnostic {
  const check = isLocalSource(source)
    ? 'Check the path (build or download the image first).'
    : 'Check the URL and that this machine reaches the server.';
  return error(
    ['source'],
    'Cannot read source',
    `Volume ${str(planned.pool) ?? '?'}/${str(planned.name) ?? '?'}: ${err.message}. The provider reads source on the machine that runs terraform: a local image file or an http(s) URL. ${check}`,
  );
}

export const volume: ResourceHandler<VolumeState, LibvirtClient> = {
  typeName: 'virtseed_volume',
  schema: VOLUME_SCHEMA,

  validate(config) {
    return validateConfig(config);
  },

  async plan({ prior, proposed, config: given, priorPrivate }, ctx) {
    if (!proposed || !given) return { planned: null, requiresReplace: [], diagnostics: [] };
    const diagnostics = validateConfig(given);
    const config = mergeTwins(VOLUME_FIELDS.fields, given);
    // A write-only value is never planned (the proposed value may carry it; compared with the prior's null, it
    // would plan a replacement at every plan).
    let planned: VolumeState = { ...proposed, source_wo: null };
    // `source_wo`: the state keeps its keyed digest, under the key of the prior private state; without one (a
    // create, or the first plan with it) the key is made at apply and the digest is unknown until then. The create
    // half of a replacement gets the replaced volume's private state: its digest is unknown too (Terraform plans
    // that half again at apply, where a known value must not change).
    const key = prior && given.source_wo !== null ? keyOf(priorPrivate) : undefined;
    planned.keyed_digest = keyedSource(given, key);
    const requiresReplace = prior ? replacePaths(VOLUME_FIELDS, prior, planned) : [];
    if (prior && typeof prior.keyed_digest === 'string' && prior.keyed_digest !== planned.keyed_digest)
      requiresReplace.push(['keyed_digest']);
    const replacing = !prior || requiresReplace.length > 0;
    diagnostics.push(...(await plannedVolumeChecks(ctx, 'Volume', { prior, priorPrivate }, planned, volumeTakenDiagnostic)));
    const basePrivate = key ? privateWithKey(priorPrivate, key) : priorPrivate;
    const plannedPrivate = plannedPrivateOf(ctx, 'volume', str(prior?.id), basePrivate, requiresReplace.length > 0);
    planned = settleComputed(planned, prior, replacing, ['id', 'path', 'allocation', 'digest']);
    if (config.checksum_url === null) planned.digest = null;
    if (!replacing && prior) {
      planned.restore_chain = prior.restore_chain;
      planned.restore_bytes = prior.restore_bytes;
      planned.restore_instance_id = prior.restore_instance_id;
      planned.restore_taken_at = prior.restore_taken_at;
    } else {
      planned.restore_chain = null;
      planned.restore_bytes = null;
      planned.restore_instance_id = null;
      planned.restore_taken_at = null;
    }
    const restoreFrom = str(config.restore_from);
    if (replacing && restoreFrom) {
      try {
        const r = await planRestore(restoreFrom, str(config.restore_disk));
        planned.restore_disk = r.disk;
        planned.restore_chain = r.chain;
        planned.restore_bytes = r.bytes;
        planned.restore_instance_id = r.instanceId;
        planned.restore_taken_at = r.takenAt;
        diagnostics.push(restoreWarning(r, `Volume ${str(planned.pool) ?? '?'}/${str(planned.name) ?? '?'}`, new Date()));
        if (config.format === null) planned.format = 'qcow2';
        const wanted = num(config.capacity);
        if (config.capacity === null) planned.capacity = r.virtualSize ?? UNKNOWN;
        else if (wanted !== undefined && r.virtualSize !== undefined && wanted < r.virtualSize)
          diagnostics.push(
            capacityBelowDiagnostic(`Volume ${str(planned.pool) ?? '?'}/${str(planned.name) ?? '?'}`, wanted, r.virtualSize, 'source'),
          );
      } catch (err) {
        if (!(err instanceof RestorePlanError)) throw err;
        diagnostics.push(error([err.attribute], 'Cannot restore from the backup', err.message));
      }
      return { planned, requiresReplace, diagnostics, plannedPrivate };
    } else if (restoreFrom === undefined && config.restore_disk === null) planned.restore_disk = null;
    if (replacing) {
      if (config.format === null) planned.format = UNKNOWN;
      if (config.capacity === null) planned.capacity = UNKNOWN;
      const source = str(config.source);
      const wanted = num(config.capacity);
      if (source && (config.format === null || isLocalSource(source) || wanted !== undefined)) {
        try {
          const info = await inspectSource(source, ctx.signal);
          if (config.format === null) planned.format = info.format;
          if (config.format === null && config.capacity === null) planned.capacity = info.virtualSize ?? UNKNOWN;
          // The size the volume gets from its source: an image's virtual size (also under a verified overlay), else
          // its length; unknown for a URL served without a length (checked after the upload then).
          const size = checksumSource(config) || (str(config.format) ?? info.format) === 'qcow2' ? info.virtualSize : info.length;
          if (wanted !== undefined && size !== undefined && wanted < size)
            diagnostics.push(
              capacityBelowDiagnostic(`Volume ${str(planned.pool) ?? '?'}/${str(planned.name) ?? '?'}`, wanted, size, 'source'),
            );
        } catch (err) {
          if (!(err instanceof SourceReadError)) throw err;
          diagnostics.push(sourceDiagnostic(planned, source, err));
        }
      } else if (!source && config.format === null && !requiresReplace.length) {
        planned.format = 'qcow2';
      }
      if (!source && config.format === null && str(config.backing_volume) !== undefined) planned.format = 'qcow2';
      const backingRef = str(config.backing_volume);
      const client = backingRef && wanted !== undefined ? await reachableClient(ctx) : null;
      const base = client && backingRef ? await backingVolume(client, backingRef, { signal: ctx.signal }) : null;
      if (client && base && wanted !== undefined) {
        const size = (await client.storageVolGetInfo(base, { signal: ctx.signal })).capacity;
        if (wanted < size)
          diagnostics.push(
            capacityBelowDiagnostic(`Volume ${str(planned.pool) ?? '?'}/${str(planned.name) ?? '?'}`, wanted, size, 'backing volume'),
          );
      }
      const from = checksumSource(config);
      if (from && source) {
        // An overlay on the verified image; its digest comes from the checksum file, checked here already.
        if (config.format === null) planned.format = 'qcow2';
        const digest = await planDigest(source, from, `Volume ${str(planned.pool) ?? '?'}/${str(planned.name) ?? '?'}`, ctx.signal);
        if (typeof digest === 'string') planned.digest = digest;
        else diagnostics.push(...digest);
      }
    } else if (prior) {
      if (config.format === null) planned.format = prior.format;
      if (config.capacity === null) planned.capacity = prior.capacity;
      const before = num(prior.capacity);
      const after = num(planned.capacity);
      if (before !== undefined && after !== undefined && after < before)
        diagnostics.push(
          error(
            ['capacity'],
            'Cannot shrink a volume',
            `capacity goes from ${before} to ${after} bytes; volumes only grow in place (shrinking loses data). Replace the volume instead (terraform apply -replace=...).`,
          ),
        );
      if (after !== before) planned.allocation = UNKNOWN;
      const client = before !== undefined && after !== undefined && after > before ? await reachableClient(ctx) : null;
      const vol = client && str(prior.id) ? await volumeByKey(client, str(prior.id)!, { signal: ctx.signal }) : null;
      const blocked = client && vol ? await qcow2GrowBlocker(client, vol, before!, after!, { signal: ctx.signal }) : null;
      if (blocked) diagnostics.push(blocked);
    }
    return { planned, requiresReplace, diagnostics, plannedPrivate };
  },

  async apply(req, ctx) {
    const kept = withoutReplaceMark(req.plannedPrivate);
    const secret = req.config && req.planned ? str(req.config.source_wo) : undefined;
    if (secret === undefined || !req.planned) return { ...(await applyVolume(req, ctx)), private: kept };
    // `source_wo`: the upload reads it as `source`; the new state holds neither, only its keyed digest.
    const key = keyFor(kept);
    const applied = await applyVolume({ prior: req.prior, planned: { ...req.planned, source: secret } }, ctx);
    const newState = applied.newState && {
      ...applied.newState,
      source: null,
      source_wo: null,
      keyed_digest: keyedDigest(key, Buffer.from(secret, 'utf8')),
    };
    return { ...applied, newState, private: privateWithKey(kept, key) };
  },

  async read({ current }, ctx) {
    const client = await ctx.client();
    const key = str(current.id);
    const vol = key ? await volumeByKey(client, key, { signal: ctx.signal }) : null;
    if (!vol) {
      // A stopped pool hides its volumes: keep the state (the pool's own resource starts it again).
      const pool = str(current.pool);
      return { newState: pool && (await isPoolInactive(client, pool, { signal: ctx.signal })) ? current : null, diagnostics: [] };
    }
    noteManaged(ctx, 'volume', vol.key);
    return { newState: await describe(client, vol, current), diagnostics: [] };
  },

  async importState(id, ctx) {
    const client = await ctx.client();
    let vol = await volumeByKey(client, id);
    if (!vol) {
      const slash = id.indexOf('/');
      if (slash <= 0 || id.startsWith('/'))
        throw new Error(`cannot import volume "${id}": expected POOL/NAME or an existing volume key/path`);
      const pool = await activePool(client, id.slice(0, slash));
      vol = await volumeByName(client, pool, id.slice(slash + 1));
      if (!vol) throw new Error(`cannot import volume "${id}": pool ${id.slice(0, slash)} has no volume ${id.slice(slash + 1)}`);
    }
    const xml = await client.storageVolGetXmlDesc(vol, 0);
    const base: VolumeState = {
      id: null,
      pool: vol.pool,
      name: vol.name,
      host: ctx.hostName,
      format: null,
      capacity: null,
      source: null,
      source_wo: null,
      keyed_digest: null,
      sha256: null,
      checksum_url: null,
      checksum_algorithm: null,
      signature_url: null,
      signature_key: null,
      digest: null,
      restore_from: null,
      restore_disk: null,
      restore_chain: null,
      restore_bytes: null,
      restore_instance_id: null,
      restore_taken_at: null,
      backing_volume: backingPathFromXml(xml) ?? null,
      path: null,
      allocation: null,
    };
    return [await describe(client, vol, base)];
  },
};

/** The planned `keyed_digest`: of `source_wo` under `key`; unknown without a key or while `source_wo` is; null
 *  without `source_wo`. */
function keyedSource(config: VolumeState, key: Buffer | undefined): VolumeState['keyed_digest'] {
  if (config.source_wo === null) return null;
  const url = str(config.source_wo);
  return key && url !== undefined ? keyedDigest(key, Buffer.from(url, 'utf8')) : UNKNOWN;
}

/** ApplyResourceChange of a volume: destroy, grow in place, or create (empty, overlay, uploaded or verified). */
async function applyVolume(
  { prior, planned }: { prior: VolumeState | null; planned: VolumeState | null },
  ctx: HandlerContext<LibvirtClient>,
): Promise<{ newState: VolumeState | null; diagnostics: Diagnostic[] }> {
  if (!planned) {
    const done = await destroyVolume(ctx, prior);
    const digest = str(prior?.digest);
    const pool = str(prior?.pool);
    if (digest && pool) await releaseCache(await ctx.client(), pool, digest, ctx);
    return done;
  }
  const client = await ctx.client();
  const opts = { signal: ctx.signal };
  const priorKey = str(prior?.id);
  if (prior && priorKey && priorKey === planned.id) {
    const vol = await volumeByKey(client, priorKey, opts);
    if (vol) {
      const cap = num(planned.capacity);
      if (cap !== undefined && cap !== num(prior.capacity)) await grow(client, vol, cap, ctx);
      return { newState: await describe(client, vol, planned), diagnostics: [] };
    }
  }
  try {
    return await createVolume(planned, client, ctx);
  } catch (err) {
    if (!(err instanceof VolumeCreatedError)) throw err;
    // Created, then a step failed: recorded tainted (see VolumeCreatedError), replaced by the next apply.
    const known = { id: err.vol.key, pool: err.vol.pool, name: err.vol.name, path: null, allocation: null };
    return notFinished(planned, known, 'volume', `${err.vol.pool}/${err.vol.name}`, 'created', err.reason);
  }
}

/**
 * Creates the volume `planned` describes (empty, overlay, restored, uploaded or verified).
 * @throws VolumeCreatedError when the volume was created and a step after that failed.
 */
async function createVolume(
  planned: VolumeState,
  client: LibvirtClient,
  ctx: HandlerContext<LibvirtClient>,
): Promise<{ newState: VolumeState | null; diagnostics: Diagnostic[] }> {
  const opts = { signal: ctx.signal };
  const poolName = str(planned.pool) ?? '';
  const name = str(planned.name) ?? '';
  const pool = await activePool(client, poolName, opts);
  if (await removeInterrupted(client, pool, name, opts))
    ctx.log.info(`volume ${poolName}/${name}: removed what an interrupted create left`);
  if (await volumeByName(client, pool, name, opts)) return { newState: null, diagnostics: [volumeTakenDiagnostic(poolName, name)] };
  const source = str(planned.source);
  const backingRef = str(planned.backing_volume);
  let format: VolumeFormat = known(planned.format) ?? 'qcow2';
  let capacity = num(planned.capacity);
  let backing: { path: string; format: string } | undefined;
  if (backingRef) {
    const base = (await volumeByKey(client, backingRef, opts)) ?? (await client.storageVolLookupByPath(backingRef, opts));
    const baseXml = await client.storageVolGetXmlDesc(base, 0, opts);
    const baseInfo = await client.storageVolGetInfo(base, opts);
    // Known only now when the backing volume was made in this apply: refused before anything is created.
    if (capacity !== undefined && capacity < baseInfo.capacity)
      return {
        newState: null,
        diagnostics: [capacityBelowDiagnostic(`Volume ${poolName}/${name}`, capacity, baseInfo.capacity, 'backing volume')],
      };
    backing = { path: await client.storageVolGetPath(base, opts), format: volumeFormatFromXml(baseXml) ?? 'raw' };
    capacity ??= baseInfo.capacity;
    format = 'qcow2';
  }
  const restoreFrom = str(planned.restore_from);
  if (restoreFrom) {
    let plan: RestorePlan;
    try {
      plan = await planRestore(restoreFrom, str(planned.restore_disk));
    } catch (err) {
      if (!(err instanceof RestorePlanError)) throw err;
      return { newState: null, diagnostics: [error([err.attribute], 'Cannot restore from the backup', err.message)] };
    }
    const planChain = Array.isArray(planned.restore_chain) ? planned.restore_chain.join(',') : undefined;
    if (planChain !== undefined && planChain !== plan.chain.join(','))
      return {
        newState: null,
        diagnostics: [
          error(
            ['restore_from'],
            'The backup chain changed since the plan',
            `The plan restores ${planChain}; the backups now give ${plan.chain.join(',')}. Plan again.`,
          ),
        ],
      };
    try {
      const vol = await createRestoredVolume(client, pool, { name, plan, capacity: num(planned.capacity) }, ctx);
      return { newState: await afterCreate(vol, () => describe(client, vol, { ...planned, format: 'qcow2' })), diagnostics: [] };
    } catch (err) {
      if (err instanceof VolumeCreatedError) throw err;
      return { newState: null, diagnostics: [error(['restore_from'], 'Restore failed', (err as Error).message)] };
    }
  }
  const from = checksumSource(planned);
  if (source && from) {
    const made = await createVerifiedVolume(
      client,
      pool,
      { name, source, from, capacity: num(planned.capacity), plannedDigest: str(planned.digest) },
      ctx,
    );
    if ('diagnostics' in made) return { newState: null, diagnostics: made.diagnostics };
    const newState = await afterCreate(made.vol, () => describe(client, made.vol, { ...planned, format: 'qcow2', digest: made.digest }));
    return { newState, diagnostics: [] };
  }
  if (source) {
    try {
      const made = await createVolumeFromSource(
        client,
        pool,
        { name, source, format: known(planned.format), capacity: num(planned.capacity), sha256: str(planned.sha256) },
        ctx,
      );
      return {
        newState: await afterCreate(made.vol, () => describe(client, made.vol, { ...planned, format: made.format })),
        diagnostics: [],
      };
    } catch (err) {
      if (err instanceof ChecksumMismatchError)
        return { newState: null, diagnostics: [error(['sha256'], 'Source does not match sha256', err.message)] };
      if (err instanceof SourceReadError) return { newState: null, diagnostics: [sourceDiagnostic(planned, source, err)] };
      if (err instanceof CapacityBelowSourceError)
        return { newState: null, diagnostics: [capacityBelowDiagnostic(`Volume ${poolName}/${name}`, err.capacity, err.size, 'source')] };
      if (err instanceof UploadVerificationError)
        return { newState: null, diagnostics: [error(['source'], 'Upload not verified', err.message)] };
      throw err;
    }
  }
  if (capacity === undefined) throw new Error('capacity is unknown');
  // Created under a pending marker: a create cut short is never mistaken for a good volume.
  const xml = volumeXml({ name, capacity, format, backing });
  const vol = await createMarked(client, pool, name, xml, async () => undefined, opts);
  return { newState: await afterCreate(vol, () => describe(client, vol, { ...planned, format })), diagnostics: [] };
}

/**
 * Grows a volume to `capacity` bytes. Attached to a running domain, QEMU grows it (virDomainBlockResize): the
 * guest sees the larger disk at once, and the storage driver could not write an image QEMU holds anyway; else
 * the storage driver does (virStorageVolResize). The guest's partition and file system are the guest's: cloud-init
 * grows the root ones at its next boot (growpart, resizefs).
 */
async function grow(client: LibvirtClient, vol: VolRef, capacity: number, ctx: HandlerContext<LibvirtClient>): Promise<void> {
  const users = await runningVolumeUsers(client, vol, { signal: ctx.signal });
  if (!users.length) return client.storageVolResize(vol, capacity, 0, { signal: ctx.signal });
  for (const { dom, target } of users) {
    ctx.log.info(`volume ${vol.pool}/${vol.name}: growing to ${capacity} bytes under running domain ${dom.name} (${target})`);
    await client.domainBlockResize(dom, target, capacity, VIR_DOMAIN_BLOCK_RESIZE_BYTES, { signal: ctx.signal });
  }
  // The pool reads the new size from the image.
  await client.storagePoolRefresh(await client.storagePoolLookupByName(vol.pool), 0, { signal: ctx.signal });
}

/** The volume a `backing_volume` names (its key, else its path), or null. */
async function backingVolume(client: LibvirtClient, ref: string, opts: { signal?: AbortSignal }): Promise<VolRef | null> {
  return (await volumeByKey(client, ref, opts)) ?? (await volumeByPath(client, ref, opts));
}

/**
 * The diagnostic for a `capacity` below the size of what the volume is made from (`label`: `Volume POOL/NAME`): its
 * source's virtual size, or its backing volume's capacity. Both sizes and the fix.
 */
function capacityBelowDiagnostic(label: string, capacity: number, size: number, from: 'source' | 'backing volume'): Diagnostic {
  const what =
    from === 'source'
      ? `its source's virtual size is ${size} bytes: a volume cannot be smaller than the image it holds`
      : `its backing volume's capacity is ${size} bytes: an overlay smaller than its backing volume truncates the disk`;
  return error(
    ['capacity'],
    'Capacity below the source',
    `${label}: capacity is ${capacity} bytes, but ${what}. Remove capacity (the volume takes the ${from}'s size) or set capacity to at least ${size}.`,
  );
}

/** The diagnostic for a `virtseed_volume` whose name another volume of the pool has. */
function volumeTakenDiagnostic(pool: string, name: string): Diagnostic {
  return error(
    ['name'],
    'Volume exists already',
    `Pool ${pool} already has a volume named ${name}. Import it (terraform import <address> ${pool}/${name}) or choose another name.`,
  );
}

/** Current facts of a volume merged into a state value. */
async function describe(client: LibvirtClient, vol: VolRef, state: VolumeState): Promise<VolumeState> {
  const [info, path, xml] = await Promise.all([
    client.storageVolGetInfo(vol),
    client.storageVolGetPath(vol),
    client.storageVolGetXmlDesc(vol, 0),
  ]);
  const format = volumeFormatFromXml(xml);
  return {
    ...state,
    id: vol.key,
    pool: vol.pool,
    name: vol.name,
    path,
    format: isValueOf(VOLUME_FIELDS.fields.format, format) ? format : (state.format ?? null),
    capacity: info.capacity,
    allocation: info.allocation,
  };
}
