/** renderSeed: a SeedSpec to the files of its seed (docs/CONTRACTS.md, "Seed generator"). */
import { ValidationError } from '../diagnostics';
import { instanceIdFromFiles } from './instance-id';
import { layoutFiles, type PendingSeedContent, type PendingSeedFile } from './layout';
import { VOLUME_IDS, type RenderedSeed, type SeedFormat, type SeedSpec } from './model';
import { materialize } from './private/bytes';
import { checkSeed } from './validate';

/** A rendered seed whose cloud-config user-data may still be pieces, for the ISO writer (issue #15). */
export type PendingSeed = Omit<RenderedSeed, 'files'> & { files: PendingSeedFile[] };

/**
 * Validates and renders a spec: files sorted by path, the volume label, and the instance-id (`instance_id`, or
 * derived as `deriveInstanceId` documents). Pure and deterministic; `files[].source` must have been loaded with
 * `loadSeedSources` (src/seed/io.ts). Throws `ValidationError` carrying all diagnostics when any is an error.
 */
export function renderSeed(spec: SeedSpec): RenderedSeed {
  const seed = renderSeedPending(spec);
  return { ...seed, files: seed.files.map((f) => ({ path: f.path, content: materialize(f.content) })) };
}

/** {@link renderSeed} with a rendered cloud-config user-data left as pieces. */
export function renderSeedPending(spec: SeedSpec): PendingSeed {
  const { diagnostics, rendered } = checkSeed(spec, { requireLoadedSources: true });
  if (!rendered) throw new ValidationError(diagnostics);
  return layoutSeed(spec, rendered);
}

/** The files of content rendered by `checkSeed`, with the instance-id (`instance_id`, or derived). Pure. */
export function layoutSeed(spec: SeedSpec, { format, content }: { format: SeedFormat; content: PendingSeedContent }): PendingSeed {
  const instanceId = spec.instance_id ?? instanceIdFromFiles(format, layoutFiles(content, format));
  return { format, instanceId, files: layoutFiles({ ...content, instanceId }, format), volumeId: VOLUME_IDS[format] };
}
