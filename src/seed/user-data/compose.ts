/**
 * Composition of the final user-data from every user-data input of a SeedSpec.
 *
 * Rules (Virtlet's order: docs/FACTS.md, "Seeds: the order in which user-data sources merge"):
 * The raw user-data is `user_data` (text) or `user_data_base64` (exact bytes; see `rawUserData`).
 * 1. cloud-config sources are merged in this order: generated parts (environment, files, mounts, fqdn), the
 *    user's `cloud_config`, then the raw user-data when it is `#cloud-config` YAML — maps recursively, lists
 *    appended; with `merge_overwrite` a later source replaces each of its top-level keys wholesale. The generated
 *    parts are one source (Virtlet's "generated data": they merge among themselves), and under `merge_overwrite`
 *    each reaches the guest whole or not at all: a part one of whose keys a user source sets is dropped entirely
 *    (a mount script's runcmd never outlives its write_files entry), and a warning names what was dropped and why.
 *    A merge re-renders the user's YAML (a warning says so); a `#cloud-config` raw user-data with nothing to merge
 *    with is written byte for byte (as the whole user-data, or as the cloud-config part with `user_data_parts`).
 * 2. Raw user-data that is neither cloud-config nor MIME (a `#!` script, `#include`, `#cloud-boothook`, gzip or
 *    other bytes that are not UTF-8) replaces the user-data entirely, byte for byte; generated parts and
 *    `cloud_config` are dropped (a warning names them).
 * 3. Raw user-data that is MIME is passed through byte for byte (it is not re-wrapped, so the user's own
 *    boundaries and headers reach cloud-init as written); dropped inputs are named in a warning.
 * 4. With `user_data_parts` (and user_data not raw/MIME — validation rejects that mix), the result is
 *    `multipart/mixed`: the merged cloud-config as part `cloud-config.yaml` (omitted when empty), then each part
 *    in order.
 * 5. `user_data_gzip` gzips the final bytes.
 */
import { warning, type Diagnostic } from '../../diagnostics';
import type { CloudConfig, SeedSpec } from '../model';
import { rawUserData, type RawUserData } from './raw';
import { renderCloudConfig, renderCloudConfigPieces } from './cloud-config';
import { ENVIRONMENT_PATH, generatedParts, MOUNT_SCRIPT_PATH, type GeneratedPart } from './generated';
import { gzipDeterministic } from './gzip';
import { mergeCloudConfigs } from './merge';
import { renderMultipart, type MimePart } from './mime';
import { materialize, utf8, Utf8Pieces, type SeedBytes } from '../private/bytes';
import { decompressedLength } from '../private/size';
import { ineffectiveInputWarnings } from './cloud-init-rules';
import { isPlainObject, parseYaml } from '../private/yaml';

/** The final user-data. */
export interface ComposedUserData {
  /** The bytes of the user-data file (gzip-compressed when `user_data_gzip`). */
  bytes: Uint8Array;
  /** Length of the user-data as cloud-init reads it: before `user_data_gzip`, gzip raw user-data decompressed
   *  (counted up to just past the size rule's limit). */
  plainLength: number;
  /** The merged cloud-config, when user-data carries one (not for raw or MIME user-data). */
  cloudConfig?: CloudConfig;
  /** Warnings about dropped inputs. */
  diagnostics: Diagnostic[];
}

/** Filename of the merged cloud-config part in multipart user-data. */
export const CLOUD_CONFIG_PART_FILENAME = 'cloud-config.yaml';

/** A cloud-config source, named by its SeedSpec key. */
export interface CloudConfigSource {
  name: string;
  config: CloudConfig;
}

/** A generated part that `merge_overwrite` keeps from the guest: `key` (set by the user source `by`) displaced it. */
export interface DroppedPart {
  part: GeneratedPart;
  key: string;
  by: string;
  /** True when a merge would have combined the values (a list or map), so the loss is the overwrite's doing. */
  merged: boolean;
}

/** The user's cloud-config sources in merge order: `cloud_config`, then `#cloud-config` raw user-data (valid YAML). */
function userSources(spec: SeedSpec): CloudConfigSource[] {
  const sources: CloudConfigSource[] = [];
  if (spec.cloud_config && Object.keys(spec.cloud_config).length > 0) sources.push({ name: 'cloud_config', config: spec.cloud_config });
  const raw = rawUserData(spec);
  if (raw?.kind === 'cloud-config') {
    const parsed = parseYaml(raw.text as string).value;
    if (isPlainObject(parsed)) sources.push({ name: raw.key, config: parsed as CloudConfig });
  }
  return sources;
}

/**
 * The generated parts that reach the guest and, under `merge_overwrite`, those dropped whole because a user source
 * sets one of their top-level keys (the overwrite would replace that key and keep the part's others).
 */
export function effectiveGeneratedParts(spec: SeedSpec): { kept: GeneratedPart[]; dropped: DroppedPart[] } {
  const parts = generatedParts(spec);
  if (spec.merge_overwrite !== true) return { kept: parts, dropped: [] };
  const user = userSources(spec);
  const kept: GeneratedPart[] = [];
  const dropped: DroppedPart[] = [];
  for (const part of parts) {
    const key = Object.keys(part.config).find((k) => user.some((u) => (u.config as Record<string, unknown>)[k] !== undefined));
    if (key === undefined) kept.push(part);
    else {
      const by = [...user].reverse().find((u) => (u.config as Record<string, unknown>)[key] !== undefined)!.name;
      const value = (part.config as Record<string, unknown>)[key];
      dropped.push({ part, key, by, merged: Array.isArray(value) || isPlainObject(value) });
    }
  }
  return { kept, dropped };
}

/** The cloud-config sources in merge order, named by SeedSpec key: the generated parts that reach the guest, then the
 *  user's. The raw user-data must already be valid YAML. */
function cloudConfigSources(spec: SeedSpec): CloudConfigSource[] {
  return [...effectiveGeneratedParts(spec).kept.map((p) => ({ name: p.name, config: p.config })), ...userSources(spec)];
}

/** The merged cloud-config of `sources` (from cloudConfigSources): generated parts always merge among themselves. */
function mergeSources(spec: SeedSpec, sources: readonly CloudConfigSource[]): CloudConfig {
  if (spec.merge_overwrite !== true) return mergeCloudConfigs(sources.map((s) => s.config));
  const isGenerated = (s: CloudConfigSource) => GENERATED_NAMES.has(s.name);
  const generated = mergeCloudConfigs(sources.filter(isGenerated).map((s) => s.config));
  return mergeCloudConfigs([generated, ...sources.filter((s) => !isGenerated(s)).map((s) => s.config)], { overwrite: true });
}

const GENERATED_NAMES: ReadonlySet<string> = new Set<GeneratedPart['name']>(['environment', 'files', 'mounts', 'fqdn']);

/** What a generated part writes, for the warning that it was dropped. */
function describePart(part: GeneratedPart, spec: SeedSpec): string {
  switch (part.name) {
    case 'environment':
      return `environment (${ENVIRONMENT_PATH})`;
    case 'files':
      return `files (${(spec.files ?? []).map((f) => f.path).join(', ')})`;
    case 'mounts': {
      const points = (spec.mounts ?? []).flatMap((m) => (m.mount_point !== undefined ? [m.mount_point] : []));
      return `mounts (${points.length ? `fstab entries for ${points.join(', ')}, ` : ''}${MOUNT_SCRIPT_PATH} and the runcmd that runs it)`;
    }
    case 'fqdn':
      return 'fqdn';
  }
}

/** The warning naming the generated inputs `merge_overwrite` drops (none when a merge would have lost them too). */
function droppedWarning(spec: SeedSpec, dropped: readonly DroppedPart[]): Diagnostic[] {
  const lost = dropped.filter((d) => d.merged);
  if (lost.length === 0) return [];
  return [
    warning(
      ['merge_overwrite'],
      'Generated inputs dropped by merge_overwrite',
      `merge_overwrite is true, so a later cloud-config source replaces each top-level key it sets, and a generated input reaches the guest whole or not at all. These do not reach the guest: ${lost
        .map((d) => `${describePart(d.part, spec)}: ${d.by} sets ${d.key}`)
        .join('; ')}. Set merge_overwrite = false to merge them (lists append, maps merge), or leave those keys out of ${[
        ...new Set(lost.map((d) => d.by)),
      ].join(' and ')}.`,
    ),
  ];
}

/** Builds the user-data of a validated spec (expects `files[].source` loaded). Pure and deterministic. */
export function composeUserData(spec: SeedSpec): ComposedUserData {
  const composed = composeUserDataPieces(spec);
  return { ...composed, bytes: materialize(composed.bytes) };
}

/**
 * {@link composeUserData} with a rendered cloud-config left as {@link Utf8Pieces} (its base64 payloads not joined
 * into one buffer), so the ISO writer writes it once, straight into the image (issue #15). Same bytes.
 */
export function composeUserDataPieces(spec: SeedSpec): Omit<ComposedUserData, 'bytes'> & { bytes: SeedBytes } {
  const diagnostics: Diagnostic[] = [];
  const raw = rawUserData(spec);
  const kind = raw?.kind ?? 'empty';
  let plain: SeedBytes;
  let cloudConfig: CloudConfig | undefined;
  if (raw && (kind === 'raw' || kind === 'mime')) {
    const dropped = [
      ...generatedParts(spec).map((p) => p.name),
      ...(spec.cloud_config && Object.keys(spec.cloud_config).length > 0 ? ['cloud_config'] : []),
    ];
    if (dropped.length > 0) {
      diagnostics.push(
        warning(
          [raw.key],
          kind === 'raw' ? 'User-data replaced by a raw script' : 'MIME user-data passed through unchanged',
          `${raw.key} is ${kind === 'raw' ? 'not cloud-config (e.g. a #! script, or gzip/binary bytes)' : 'MIME multipart'}, so it becomes the whole user-data and these inputs do not reach the guest: ${dropped.join(', ')}. Use a #cloud-config user-data, or user_data_parts, to combine them.`,
        ),
      );
    }
    plain = raw.bytes;
  } else {
    const sources = cloudConfigSources(spec);
    diagnostics.push(...droppedWarning(spec, effectiveGeneratedParts(spec).dropped));
    const others = sources.filter((s) => s.name !== raw?.key);
    const parts = spec.user_data_parts ?? [];
    // The user's #cloud-config given alone keeps its exact bytes (comments, key order, quoting).
    const verbatim = raw !== undefined && others.length === 0 ? (raw.text as string) : undefined;
    if (raw && verbatim === undefined) {
      diagnostics.push(
        warning(
          [raw.key],
          'User-data re-rendered by a merge',
          `${raw.key} is merged with ${others.map((s) => s.name).join(', ')}, so its cloud-config reaches the guest re-rendered (keys sorted; comments, quoting and key order not kept). To keep its exact bytes, give it without the other inputs, or put the other cloud-config into it.`,
        ),
      );
    }
    cloudConfig = mergeSources(spec, sources);
    diagnostics.push(...ineffectiveInputWarnings(spec, sources, cloudConfig));
    if (parts.length === 0) {
      plain = verbatim !== undefined ? (raw as RawUserData).bytes : piecesOrBytes(renderCloudConfigPieces(cloudConfig));
    } else {
      const mime: MimePart[] = [];
      if (verbatim !== undefined) {
        mime.push({ content: verbatim, contentType: 'text/cloud-config', filename: CLOUD_CONFIG_PART_FILENAME });
      } else if (Object.keys(cloudConfig).length > 0) {
        mime.push({ content: renderCloudConfig(cloudConfig), contentType: 'text/cloud-config', filename: CLOUD_CONFIG_PART_FILENAME });
      }
      parts.forEach((p, i) =>
        mime.push({
          content: p.content,
          contentType: p.content_type ?? 'text/plain',
          filename: p.filename ?? `part-${String(i + 1).padStart(3, '0')}`,
          ...(p.merge_type !== undefined ? { mergeType: p.merge_type } : {}),
        }),
      );
      plain = utf8(renderMultipart(mime));
    }
  }
  // Pieces are cloud-config text (never gzip data), so their length is what cloud-init reads.
  const plainLength = plain instanceof Uint8Array ? decompressedLength(plain) : plain.length;
  return {
    bytes: spec.user_data_gzip ? gzipDeterministic(materialize(plain)) : plain,
    plainLength,
    ...(cloudConfig ? { cloudConfig } : {}),
    diagnostics,
  };
}

function piecesOrBytes(pieces: readonly string[]): SeedBytes {
  return pieces.length === 1 ? utf8(pieces[0]) : new Utf8Pieces(pieces);
}
