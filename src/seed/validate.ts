/**
 * validateSeed: every check of a SeedSpec, as Diagnostics whose paths use the SeedSpec keys
 * (e.g. `['cloud_config', 'write_files', 2, 'path']`). Pure.
 *
 * Checks: field types and formats (instance-id charset, RFC 1123 host names, OpenSSH public keys, octal
 * permissions, environment names, devices, mount points, network addresses); YAML syntax of `user_data`,
 * `network_config` and cloud-config `vendor_data` (line and column in the detail); cloud-config against
 * src/seed/schemas/cloud-config.schema.json (unknown top-level keys: warning); network-config v1/v2 against
 * src/seed/schemas/network-config-v{1,2}.schema.json; `network` and `network_config` both set; meta_data keys
 * that clash with dedicated fields; duplicate write_files paths after merging; sizes.
 *
 * Sizes follow the seed size rule of src/seed/private/size.ts (docs/seed-fidelity.md): each file cloud-init reads
 * at most {@link SEED_FILE_MAX_BYTES} (64 MiB, user-data after decompression), the seed at most
 * {@link SEED_MAX_BYTES} (128 MiB), user-data over {@link USER_DATA_WARN_BYTES} (1 MiB) a warning. An input that
 * alone breaks the rule is an error before anything is parsed.
 */
import { error, hasErrors, type Diagnostic } from '../diagnostics';
import { duplicateWriteFiles, validateEnvironment, validateFiles, validateMounts } from './checks/files';
import { validateNetwork } from './checks/network';
import { inputSizeDiagnostics, seedSizeDiagnostics } from './checks/size-rule';
import { keyList, validateUserDataInputs } from './checks/user-data';
import { formatOf, seedContent } from './content';
import { layoutFiles, type PendingSeedContent } from './layout';
import type { SeedFormat, SeedSpec } from './model';
import { withBase64Memo } from './private/base64';
import { INSTANCE_ID, isHostname } from './private/patterns';
import { decompressedLength } from './private/size';
import { isPlainObject } from './private/yaml';

export { SEED_FILE_MAX_BYTES, SEED_MAX_BYTES, USER_DATA_WARN_BYTES } from './private/size';

/** meta-data keys owned by dedicated SeedSpec fields, per format. */
const RESERVED_META_DATA = {
  nocloud: ['instance-id', 'local-hostname', 'public-keys'],
  configdrive: ['uuid', 'hostname', 'name', 'public_keys'],
} as const;

/** Options of {@link validateSeed}. */
export interface ValidateSeedOptions {
  /** Treat a remaining `files[].source` as an error (renderSeed does). @default false — plan-time validation
   *  before `loadSeedSources` accepts it. */
  requireLoadedSources?: boolean;
}

/** All diagnostics of a spec; no error means it renders. Never throws. */
export function validateSeed(spec: SeedSpec, options: ValidateSeedOptions = {}): Diagnostic[] {
  return checkSeed(spec, options).diagnostics;
}

/** A spec validated and rendered in one pass ({@link checkSeed}). */
export interface CheckedSeed {
  /** Exactly what {@link validateSeed} gives for the spec and options. */
  diagnostics: Diagnostic[];
  /** When no diagnostic is an error: the seed format and the rendered content (instance-id `null`). */
  rendered?: { format: SeedFormat; content: PendingSeedContent };
}

/**
 * Validates a spec and renders its content in the same pass, so whoever needs both (plan, apply, `virtseed seed
 * build`) renders once: every input is checked once, the content composed once (the composition warnings and the
 * size rule need it). Pure; never throws.
 */
export function checkSeed(spec: SeedSpec, options: ValidateSeedOptions = {}): CheckedSeed {
  return withBase64Memo(() => {
    const inputs = validateSeedInputs(spec, options);
    if (hasErrors(inputs)) return { diagnostics: inputs };
    const { content, diagnostics, userDataPlainBytes } = seedContent(spec);
    const all = [...inputs, ...contentDiagnostics(spec, content, diagnostics, userDataPlainBytes)];
    return hasErrors(all) ? { diagnostics: all } : { diagnostics: all, rendered: { format: formatOf(spec), content } };
  });
}

/** The checks of {@link validateSeed} that need no rendering (everything but the composition warnings and the
 *  sizes). Never throws. */
function validateSeedInputs(spec: SeedSpec, options: ValidateSeedOptions = {}): Diagnostic[] {
  if (!isPlainObject(spec)) return [error([], 'Invalid seed spec', 'The seed spec must be an object.')];
  const tooLarge = inputSizeDiagnostics(spec);
  if (tooLarge.length > 0) return tooLarge;
  const out: Diagnostic[] = [];
  if (spec.format !== undefined && spec.format !== 'nocloud' && spec.format !== 'configdrive') {
    out.push(error(['format'], 'Invalid format', `Got ${JSON.stringify(spec.format)}; expected "nocloud" or "configdrive".`));
  }
  const format = spec.format === 'configdrive' ? 'configdrive' : 'nocloud';
  if (spec.instance_id !== undefined && (typeof spec.instance_id !== 'string' || !INSTANCE_ID.test(spec.instance_id))) {
    out.push(
      error(
        ['instance_id'],
        'Invalid instance-id',
        `Got ${JSON.stringify(spec.instance_id)}; expected 1–128 characters of A–Z a–z 0–9 . _ : -`,
      ),
    );
  }
  for (const k of ['hostname', 'fqdn'] as const) {
    const v = spec[k];
    if (v !== undefined && (typeof v !== 'string' || !isHostname(v))) {
      out.push(
        error(
          [k],
          `Invalid ${k}`,
          `Got ${JSON.stringify(v)}; expected an RFC 1123 host name: dot-separated labels of 1–63 letters, digits or hyphens, not starting or ending with a hyphen.`,
        ),
      );
    }
  }
  if (spec.public_keys !== undefined) {
    if (!Array.isArray(spec.public_keys)) out.push(error(['public_keys'], 'Invalid public_keys', 'public_keys must be a list of strings.'));
    else out.push(...keyList(spec.public_keys, ['public_keys']));
  }
  if (spec.meta_data !== undefined) {
    if (!isPlainObject(spec.meta_data))
      out.push(error(['meta_data'], 'Invalid meta_data', 'meta_data must be a map of extra meta-data keys.'));
    else
      for (const k of RESERVED_META_DATA[format]) {
        if (k in spec.meta_data)
          out.push(
            error(
              ['meta_data', k],
              'Reserved meta-data key',
              `"${k}" is set from a dedicated field (instance_id, hostname, public_keys); remove it from meta_data.`,
            ),
          );
      }
  }
  out.push(...validateUserDataInputs(spec));
  out.push(...validateEnvironment(spec.environment));
  out.push(...validateFiles(spec.files, options.requireLoadedSources === true));
  out.push(...validateMounts(spec.mounts));
  out.push(...validateNetwork(spec, format));
  if (spec.vendor_data !== undefined && typeof spec.vendor_data !== 'string' && !isPlainObject(spec.vendor_data)) {
    out.push(error(['vendor_data'], 'Invalid vendor_data', 'vendor_data must be a string or a cloud-config map.'));
  }
  if (hasErrors(out)) return out;
  out.push(...duplicateWriteFiles(spec));
  return out;
}

/** Checks of rendered content: the composition warnings (`composeDiagnostics`, from `seedContent`) and the seed
 *  size rule (`userDataPlainBytes`: the user-data's length before compression, from `seedContent`). Pure. */
function contentDiagnostics(
  spec: SeedSpec,
  content: PendingSeedContent,
  composeDiagnostics: readonly Diagnostic[],
  userDataPlainBytes?: number,
): Diagnostic[] {
  const plain =
    userDataPlainBytes ?? (content.userData instanceof Uint8Array ? decompressedLength(content.userData) : content.userData.length);
  return [...composeDiagnostics, ...seedSizeDiagnostics(spec, plain, layoutFiles(content, formatOf(spec)))];
}
