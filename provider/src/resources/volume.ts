/**
 * `virtseed_volume`: a storage volume in a libvirt pool (formatstorage): empty with a capacity, a qcow2 overlay on
 * a backing volume, or uploaded from a local file or http(s) URL by stream. Capacity grows in place.
 */
import { Diagnostic, error } from '../../../src/diagnostics';
import { t } from '../plugin/cty';
import type { ResourceHandler } from '../plugin/handler';
import type { ResourceSchema } from '../plugin/schema';
import { clientOf } from './private/client';
import { inspectSource, isLocalSource, openSource } from './private/image-source';
import { plannedVolumeChecks } from './private/plan-checks';
import {
  activePool,
  backingPathFromXml,
  createMarked,
  deleteVolume,
  removeInterrupted,
  volumeByKey,
  volumeByName,
  volumeFormatFromXml,
  volumeXml,
} from './private/storage';
import { isWhollyKnown, messageOf, num, str, UNKNOWN } from './private/values';

type State = Record<string, unknown>;

export const VOLUME_SCHEMA: ResourceSchema = {
  version: 0,
  description: 'A storage volume in a libvirt storage pool: empty, a qcow2 overlay on a backing volume, or uploaded from a file or URL.',
  attributes: {
    id: { type: t.string, computed: true, description: 'libvirt volume key (the path for `dir` pools).' },
    pool: { type: t.string, required: true, description: 'Storage pool name.' },
    name: { type: t.string, required: true, description: 'Volume name.' },
    format: { type: t.string, optional: true, computed: true, description: '`qcow2` or `raw`. Default: the source image\'s format, else `qcow2`.' },
    capacity: { type: t.number, optional: true, computed: true, description: 'Virtual size in bytes. Default: the source\'s or backing volume\'s virtual size. Grows in place; cannot shrink.' },
    backing_volume: { type: t.string, optional: true, description: 'Key or path of a base volume: the new volume is a qcow2 overlay on it.' },
    source: { type: t.string, optional: true, description: 'Local file path or http(s) URL uploaded into the volume (streamed in 1 MiB chunks).' },
    path: { type: t.string, computed: true, description: 'Host path of the volume.' },
    allocation: { type: t.number, computed: true, description: 'Bytes allocated on the host.' },
  },
};

const FORMATS = ['qcow2', 'raw'];

function validateConfig(c: State): Diagnostic[] {
  const d: Diagnostic[] = [];
  const format = str(c.format);
  if (format !== undefined && !FORMATS.includes(format)) d.push(error(['format'], 'Invalid format', `format is "${format}"; expected one of ${FORMATS.join(', ')}.`));
  if (str(c.source) && str(c.backing_volume)) d.push(error(['source'], 'Conflicting attributes', 'Set either source or backing_volume, not both.'));
  if (c.capacity === null && c.source === null && c.backing_volume === null)
    d.push(error(['capacity'], 'Missing capacity', 'An empty volume needs capacity (bytes); or give source or backing_volume.'));
  const cap = num(c.capacity);
  if (cap !== undefined && (!Number.isInteger(cap) || cap <= 0)) d.push(error(['capacity'], 'Invalid capacity', `capacity is ${cap}; expected a positive whole number of bytes.`));
  if (format === 'raw' && str(c.backing_volume)) d.push(error(['format'], 'Invalid format', 'A volume with backing_volume is a qcow2 overlay; format must be qcow2.'));
  return d;
}

export const volume: ResourceHandler<State> = {
  typeName: 'virtseed_volume',
  schema: VOLUME_SCHEMA,

  validate(config) {
    return validateConfig(config);
  },

  async plan({ prior, proposed, config }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    const diagnostics = validateConfig(config);
    const planned: State = { ...proposed };
    const requiresReplace: (string | number)[][] = [];
    if (prior) {
      for (const attr of ['pool', 'name', 'backing_volume', 'source'])
        if (isWhollyKnown(planned[attr]) && prior[attr] !== planned[attr]) requiresReplace.push([attr]);
      if (config.format !== null && prior.format !== planned.format) requiresReplace.push(['format']);
    }
    const replacing = !prior || requiresReplace.length > 0;
    diagnostics.push(...(await plannedVolumeChecks(ctx, 'Volume', prior, planned, requiresReplace.length > 0, volumeTakenDiagnostic)));
    if (replacing) {
      planned.id = UNKNOWN;
      planned.path = UNKNOWN;
      planned.allocation = UNKNOWN;
      if (config.format === null) planned.format = UNKNOWN;
      if (config.capacity === null) planned.capacity = UNKNOWN;
      const source = str(config.source);
      if (source && (config.format === null || isLocalSource(source))) {
        try {
          const info = await inspectSource(source, ctx.signal);
          if (config.format === null) planned.format = info.format;
          if (config.format === null && config.capacity === null) planned.capacity = info.virtualSize;
        } catch (err) {
          diagnostics.push(error(['source'], 'Cannot read source', `Volume ${str(planned.pool) ?? '?'}/${str(planned.name) ?? '?'}: ${messageOf(err)}. The provider reads source on the machine that runs terraform: a local image file or an http(s) URL. Check the path (build or download the image first).`));
        }
      } else if (!source && config.format === null && !requiresReplace.length) {
        planned.format = 'qcow2';
      }
      if (!source && config.format === null && str(config.backing_volume) !== undefined) planned.format = 'qcow2';
    } else if (prior) {
      planned.id = prior.id;
      planned.path = prior.path;
      planned.allocation = prior.allocation;
      if (config.format === null) planned.format = prior.format;
      if (config.capacity === null) planned.capacity = prior.capacity;
      const before = num(prior.capacity);
      const after = num(planned.capacity);
      if (before !== undefined && after !== undefined && after < before)
        diagnostics.push(error(['capacity'], 'Cannot shrink a volume', `capacity goes from ${before} to ${after} bytes; volumes only grow in place (shrinking loses data). Replace the volume instead (terraform apply -replace=...).`));
      if (after !== before) planned.allocation = UNKNOWN;
    }
    return { planned, requiresReplace, diagnostics };
  },

  async apply({ prior, planned }, ctx) {
    const client = await clientOf(ctx);
    const opts = { signal: ctx.signal };
    if (!planned) {
      if (prior && str(prior.id)) await deleteVolume(client, prior.id as string, opts);
      return { newState: null, diagnostics: [] };
    }
    if (prior && str(prior.id) && prior.id === planned.id) {
      const vol = await volumeByKey(client, prior.id as string, opts);
      if (vol) {
        const cap = num(planned.capacity);
        if (cap !== undefined && cap !== num(prior.capacity)) await client.storageVolResize(vol, cap, 0, opts);
        return { newState: await describe(client, vol, planned), diagnostics: [] };
      }
    }
    const pool = await activePool(client, planned.pool as string, opts);
    if (await removeInterrupted(client, pool, planned.name as string, opts)) ctx.log.info(`volume ${planned.pool}/${planned.name}: removed what an interrupted create left`);
    if (await volumeByName(client, pool, planned.name as string, opts)) return { newState: null, diagnostics: [volumeTakenDiagnostic(planned.pool as string, planned.name as string)] };
    const source = str(planned.source);
    const backingRef = str(planned.backing_volume);
    let format = str(planned.format) ?? 'qcow2';
    let capacity = num(planned.capacity);
    let backing: { path: string; format: string } | undefined;
    if (backingRef) {
      const base = (await volumeByKey(client, backingRef, opts)) ?? (await client.storageVolLookupByPath(backingRef, opts));
      const baseXml = await client.storageVolGetXmlDesc(base, 0, opts);
      const baseInfo = await client.storageVolGetInfo(base, opts);
      backing = { path: await client.storageVolGetPath(base, opts), format: volumeFormatFromXml(baseXml) ?? 'raw' };
      capacity ??= baseInfo.capacity;
      format = 'qcow2';
    }
    let info: Awaited<ReturnType<typeof inspectSource>> | undefined;
    if (source) {
      info = await inspectSource(source, ctx.signal);
      format = str(planned.format) ?? info.format;
      capacity = info.virtualSize;
    }
    if (capacity === undefined) throw new Error('capacity is unknown');
    // Created and filled under a pending marker: an upload cut short is never mistaken for a good volume.
    const xml = volumeXml({ name: planned.name as string, capacity: source ? info!.length : capacity, format, backing });
    const vol = await createMarked(client, pool, planned.name as string, xml, async (v) => {
      if (!source) return;
      await client.storageVolUpload(v, await openSource(source, ctx.signal), 0, info!.length, opts);
      const wanted = num(planned.capacity);
      if (wanted !== undefined && wanted > info!.virtualSize) await client.storageVolResize(v, wanted, 0, opts);
    }, opts);
    return { newState: await describe(client, vol, { ...planned, format }), diagnostics: [] };
  },

  async read({ current }, ctx) {
    const client = await clientOf(ctx);
    const vol = str(current.id) ? await volumeByKey(client, current.id as string, { signal: ctx.signal }) : null;
    if (!vol) return { newState: null, diagnostics: [] };
    return { newState: await describe(client, vol, current), diagnostics: [] };
  },

  async importState(id, ctx) {
    const client = await clientOf(ctx);
    let vol = await volumeByKey(client, id);
    if (!vol) {
      const slash = id.indexOf('/');
      if (slash <= 0 || id.startsWith('/')) throw new Error(`cannot import volume "${id}": expected POOL/NAME or an existing volume key/path`);
      const pool = await activePool(client, id.slice(0, slash));
      vol = await volumeByName(client, pool, id.slice(slash + 1));
      if (!vol) throw new Error(`cannot import volume "${id}": pool ${id.slice(0, slash)} has no volume ${id.slice(slash + 1)}`);
    }
    const xml = await client.storageVolGetXmlDesc(vol, 0);
    const base: State = { pool: vol.pool, name: vol.name, source: null, backing_volume: backingPathFromXml(xml) ?? null };
    return [await describe(client, vol, base)];
  },
};

/** The diagnostic for a `virtseed_volume` whose name another volume of the pool has. */
function volumeTakenDiagnostic(pool: string, name: string): Diagnostic {
  return error(['name'], 'Volume exists already', `Pool ${pool} already has a volume named ${name}. Import it (terraform import <address> ${pool}/${name}) or choose another name.`);
}

/** Current facts of a volume merged into a state value. */
async function describe(client: Awaited<ReturnType<typeof clientOf>>, vol: { pool: string; name: string; key: string }, state: State): Promise<State> {
  const [info, path, xml] = await Promise.all([client.storageVolGetInfo(vol), client.storageVolGetPath(vol), client.storageVolGetXmlDesc(vol, 0)]);
  return {
    ...state,
    id: vol.key,
    pool: vol.pool,
    name: vol.name,
    path,
    format: volumeFormatFromXml(xml) ?? state.format ?? null,
    capacity: info.capacity,
    allocation: info.allocation,
  };
}
