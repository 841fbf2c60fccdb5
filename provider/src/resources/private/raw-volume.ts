/**
 * apply and read of the resources whose object is a raw volume holding bytes virtseed builds (a seed ISO, an
 * Ignition JSON): destroy deletes the volume; create or update stores the bytes (rewritten in place when the volume
 * exists, so a running guest keeps the same file); read reports the volume's path, size and content hash.
 */
import type { Diagnostic } from '../../../../src/diagnostics';
import type { LibvirtClient } from '../../../../src/libvirt';
import type { HandlerContext } from '../../handler';
import type { Val } from './model';
import { notFinished } from './not-finished';
import { noteManaged } from './plan-checks';
import { deleteOrRelease } from './release';
import { inspectRawVolume, isPoolInactive, storeRawVolume, volumeExistsDiagnostic, VolumeCreatedError } from './storage';
import { str } from './values';

/** The attributes every raw-volume resource has. */
export interface RawVolumeAttrs {
  id: Val<string>;
  pool: Val<string>;
  name: Val<string>;
  path: Val<string>;
}

/** What a resource builds for a planned value: the bytes and the computed attributes they give, or errors. */
export type Built<S> = { bytes: Uint8Array; computed: Partial<S> } | { diagnostics: Diagnostic[] };

/**
 * The apply of a destroy of any volume resource: deletes the volume `prior.id` (one already gone is fine). A volume
 * a running guest still uses (the old copy of a live move, whose domain migrates after this destroy) is marked for
 * release instead, and its domain deletes it once it let go of it (./release.ts).
 */
export async function destroyVolume(
  ctx: HandlerContext<LibvirtClient>,
  prior: { id: Val<string>; name?: Val<string> } | null,
): Promise<{ newState: null; diagnostics: Diagnostic[] }> {
  const key = str(prior?.id);
  if (key && (await deleteOrRelease(await ctx.client(), key, { signal: ctx.signal })) === 'marked')
    ctx.log.info(`volume ${str(prior?.name) ?? key}: a running guest still uses it; it is removed once its domain lets go of it`);
  return { newState: null, diagnostics: [] };
}

export async function applyRawVolume<S extends RawVolumeAttrs>(
  req: { prior: S | null; planned: S | null },
  ctx: HandlerContext<LibvirtClient>,
  build: (planned: S) => Built<S>,
): Promise<{ newState: S | null; diagnostics: Diagnostic[] }> {
  const { prior, planned } = req;
  if (!planned) return destroyVolume(ctx, prior);
  const client = await ctx.client();
  const opts = { signal: ctx.signal };
  const key = str(prior?.id);
  const built = build(planned);
  if ('diagnostics' in built) return { newState: prior, diagnostics: built.diagnostics };
  const target = { key, pool: str(planned.pool) ?? '', name: str(planned.name) ?? '' };
  let stored;
  try {
    stored = await storeRawVolume(client, target, built.bytes, opts);
  } catch (err) {
    if (!(err instanceof VolumeCreatedError)) throw err;
    // Created, then a step failed: recorded tainted (see VolumeCreatedError), replaced by the next apply.
    return notFinished(
      planned,
      { ...built.computed, id: err.vol.key, path: null },
      'volume',
      `${target.pool}/${target.name}`,
      'created',
      err.reason,
    );
  }
  if (!stored) return { newState: prior, diagnostics: [volumeExistsDiagnostic(target.pool, target.name)] };
  return { newState: { ...planned, ...built.computed, id: stored.vol.key, path: stored.path }, diagnostics: [] };
}

/** The volume's facts merged into `current` by `merge`, or null when the volume is gone (`current` unchanged while
 *  its pool is stopped). With `hmacKey`, `found.sha256` is the HMAC-SHA256 of the bytes under it (./keyed.ts). */
export async function readRawVolume<S extends RawVolumeAttrs>(
  current: S,
  ctx: HandlerContext<LibvirtClient>,
  merge: (found: { path: string; size: number; sha256: string }) => Partial<S>,
  hmacKey?: Buffer,
): Promise<{ newState: S | null; diagnostics: Diagnostic[] }> {
  const key = str(current.id);
  const client = await ctx.client();
  const found = key ? await inspectRawVolume(client, key, { signal: ctx.signal }, hmacKey) : null;
  if (found) {
    noteManaged(ctx, 'volume', key);
    return { newState: { ...current, ...merge(found) }, diagnostics: [] };
  }
  // A stopped pool hides its volumes: keep the state (the pool's own resource starts it again).
  const pool = str(current.pool);
  return { newState: pool && (await isPoolInactive(client, pool, { signal: ctx.signal })) ? current : null, diagnostics: [] };
}
