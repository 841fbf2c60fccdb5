/** buildSeedIso: a SeedSpec to a seed ISO image (ISO 9660 + Joliet + Rock Ridge, see src/seed/iso9660). */
import { buildIso } from './iso9660';
import type { BuiltSeedIso, SeedSpec } from './model';
import { sha256Hex } from './private/hash';
import { renderSeedPending } from './render';

/** Renders the spec and builds its ISO. Deterministic. Throws `ValidationError` like `renderSeed`. */
export function buildSeedIso(spec: SeedSpec): BuiltSeedIso {
  const seed = renderSeedPending(spec);
  const iso = buildIso(seed.files, { volumeId: seed.volumeId });
  return { iso, instanceId: seed.instanceId, sha256: sha256Hex(iso) };
}
