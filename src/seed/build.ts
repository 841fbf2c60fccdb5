/** buildSeedIso: a SeedSpec to a seed ISO image (ISO 9660 + Joliet + Rock Ridge, see src/seed/iso9660). */
import { ValidationError, type Diagnostic } from '../diagnostics';
import { estimatedSeedBytes } from './checks/size-rule';
import { buildIso } from './iso9660';
import { hashWhileWriting } from './iso9660/hash-worker';
import type { BuiltSeedIso, SeedSpec } from './model';
import { layoutSeed } from './render';
import { checkSeed } from './validate';

/**
 * Validates the spec, renders it once and builds its ISO. Deterministic. Throws `ValidationError` like
 * `renderSeed`. The sha256 of a large image is computed on a worker thread while the image is written
 * (src/seed/iso9660/hash-worker.ts); the image is then backed by a SharedArrayBuffer.
 */
export function buildSeedIso(spec: SeedSpec): BuiltSeedIso {
  const { diagnostics, built } = tryBuildSeedIso(spec);
  if (!built) throw new ValidationError(diagnostics);
  return built;
}

/**
 * {@link buildSeedIso} that returns the diagnostics instead of throwing them: every diagnostic
 * `validateSeed(spec, { requireLoadedSources: true })` gives (warnings too), and the built seed when none is an
 * error. Validation and the ISO share one rendering. Throws only what the ISO writer throws on a seed that passed.
 */
export function tryBuildSeedIso(spec: SeedSpec): { diagnostics: Diagnostic[]; built?: BuiltSeedIso } {
  const hash = hashWhileWriting(typeof spec === 'object' && spec !== null ? estimatedSeedBytes(spec) : 0);
  try {
    const { diagnostics, rendered } = checkSeed(spec, { requireLoadedSources: true });
    if (!rendered) {
      hash.cancel();
      return { diagnostics };
    }
    const seed = layoutSeed(spec, rendered);
    const iso = buildIso(seed.files, { volumeId: seed.volumeId, output: hash.output });
    return { diagnostics, built: { iso, instanceId: seed.instanceId, sha256: hash.digest(iso) } };
  } catch (err) {
    hash.cancel();
    throw err;
  }
}
