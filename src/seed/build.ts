/** buildSeedIso: a SeedSpec to a seed ISO image (ISO 9660 + Joliet + Rock Ridge, see src/seed/iso9660). */
import { buildIso } from './iso9660';
import type { BuiltSeedIso, SeedSpec } from './model';
import { hashWhileWriting } from './private/hash-worker';
import { estimatedSeedBytes } from './private/size';
import { renderSeedPending } from './render';

/**
 * Renders the spec and builds its ISO. Deterministic. Throws `ValidationError` like `renderSeed`. The sha256 of a
 * large image is computed on a worker thread while the image is written (src/seed/private/hash-worker.ts); the
 * image is then backed by a SharedArrayBuffer.
 */
export function buildSeedIso(spec: SeedSpec): BuiltSeedIso {
  const hash = hashWhileWriting(estimatedSeedBytes(spec));
  const seed = renderSeedPending(spec);
  let iso: Uint8Array;
  try {
    iso = buildIso(seed.files, { volumeId: seed.volumeId, output: hash.output });
  } catch (err) {
    hash.cancel();
    throw err;
  }
  return { iso, instanceId: seed.instanceId, sha256: hash.digest(iso) };
}
