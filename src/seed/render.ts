/** renderSeed: a SeedSpec to the files of its seed (docs/CONTRACTS.md, "Seed generator"). */
import { instanceIdFromFiles } from './instance-id';
import { toLayout } from './layout';
import { VOLUME_IDS, type RenderedSeed, type SeedSpec } from './model';
import { checkedContent } from './private/checked-content';

/**
 * Validates and renders a spec: files sorted by path, the volume label, and the instance-id (`instance_id`, or
 * derived as `deriveInstanceId` documents). Pure and deterministic; `files[].source` must have been loaded with
 * `loadSeedSources` (src/seed/io.ts). Throws `ValidationError` carrying all diagnostics when any is an error.
 */
export function renderSeed(spec: SeedSpec): RenderedSeed {
  const { format, content } = checkedContent(spec);
  const instanceId = spec.instance_id ?? instanceIdFromFiles(format, toLayout(content, format));
  return { format, instanceId, files: toLayout({ ...content, instanceId }, format), volumeId: VOLUME_IDS[format] };
}
