/**
 * Derived instance-ids.
 *
 * Rule (v1): `iid-` + the first 16 lower-case hex digits of sha256 over a canonical encoding of everything the
 * seed delivers to the guest except the instance-id itself:
 *
 *     "virtseed-instance-id/v1\n" + format + "\n"
 *     + for each seed file, sorted by path: path + "\n" + byteLength (decimal) + "\n" + bytes + "\n"
 *
 * where the files are rendered exactly as on the seed but with meta-data's own instance-id key (`instance-id`
 * in NoCloud meta-data, `uuid` in ConfigDrive meta_data.json) left out. So the same content always gives the same
 * id, and any change of content that reaches the guest (user-data, meta-data keys, network, vendor-data, the
 * format) gives a new id — which makes cloud-init re-run its per-instance modules. Inputs that do not reach the
 * guest (e.g. a local `source` path whose file content is unchanged) do not change it.
 */
import { ValidationError } from '../diagnostics';
import { layoutFiles, type PendingSeedFile } from './layout';
import type { SeedFormat, SeedSpec } from './model';
import { utf8 } from './private/bytes';
import { createSha256 } from './private/hash';
import { byPath } from './private/order';
import { checkSeed } from './validate';

/** Prefix of derived instance-ids. */
export const DERIVED_INSTANCE_ID_PREFIX = 'iid-';

/** The derived instance-id of seed files rendered without an instance-id (see the module docstring). Pure. */
export function instanceIdFromFiles(format: SeedFormat, filesWithoutId: readonly PendingSeedFile[]): string {
  const hash = createSha256();
  hash.update(utf8(`virtseed-instance-id/v1\n${format}\n`));
  const sorted = [...filesWithoutId].sort(byPath);
  for (const f of sorted) {
    hash.update(utf8(`${f.path}\n${f.content.length}\n`));
    if (f.content instanceof Uint8Array) hash.update(f.content);
    else f.content.updateHash(hash);
    hash.update(utf8('\n'));
  }
  return DERIVED_INSTANCE_ID_PREFIX + hash.digest('hex').slice(0, 16);
}

/**
 * The derived instance-id of a spec (ignores `spec.instance_id`): renders the seed without an id and hashes it
 * with {@link instanceIdFromFiles}. Pure. Throws `ValidationError` when the spec has errors.
 */
export function deriveInstanceId(spec: SeedSpec): string {
  const { diagnostics, rendered } = checkSeed(spec, { requireLoadedSources: true });
  if (!rendered) throw new ValidationError(diagnostics);
  return instanceIdFromFiles(rendered.format, layoutFiles(rendered.content, rendered.format));
}
