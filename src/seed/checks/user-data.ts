/** Validation of the cloud-config inputs (`cloud_config`, `user_data`, `user_data_parts`, `vendor_data`). */
import { error, hasErrors, type AttributePath, type Diagnostic } from '../../diagnostics';
import type { SeedSpec } from '../model';
import { isBase64 } from '../private/base64';
import { MIME_TYPE, SSH_PUBLIC_KEY } from '../private/patterns';
import { isPlainObject, parseYaml } from '../private/yaml';
import { classifyUserData } from '../user-data/classify';
import { cloudConfigRuleErrors, cloudConfigRuleWarnings } from '../user-data/cloud-init-rules';
import { rawUserData } from '../user-data/raw';
import { cloudConfigSchemaDiagnostics, unknownKeyWarnings } from './schema';

/** Schema errors, unknown-key warnings and key checks of one cloud-config object. */
function validateCloudConfigObject(config: unknown, base: AttributePath): Diagnostic[] {
  if (!isPlainObject(config)) return [error(base, 'Invalid cloud-config', 'cloud-config must be a map of module keys.')];
  const out = [
    ...cloudConfigSchemaDiagnostics(config, base, 'Invalid cloud-config'),
    ...cloudConfigRuleErrors(config, base),
    ...cloudConfigRuleWarnings(config, base),
    ...unknownKeyWarnings(config, base),
  ];
  out.push(...keyList(config.ssh_authorized_keys, [...base, 'ssh_authorized_keys']));
  if (Array.isArray(config.users)) {
    config.users.forEach((u: unknown, i) => {
      if (isPlainObject(u)) out.push(...keyList(u.ssh_authorized_keys, [...base, 'users', i, 'ssh_authorized_keys']));
    });
  }
  return out;
}

/** Errors for list entries that are not OpenSSH public keys. */
export function keyList(keys: unknown, path: AttributePath): Diagnostic[] {
  if (!Array.isArray(keys)) return [];
  return keys.flatMap((k: unknown, i) =>
    typeof k === 'string' && SSH_PUBLIC_KEY.test(k.trim())
      ? []
      : [
          error(
            [...path, i],
            'Invalid SSH public key',
            `Got ${JSON.stringify(typeof k === 'string' ? k.slice(0, 40) : k)}; expected an OpenSSH public key line starting with ssh-, ecdsa- or sk- followed by base64, e.g. "ssh-ed25519 AAAA… user@host".`,
          ),
        ],
  );
}

/** Cloud-config YAML text (starting with `#cloud-config`): syntax (line/column), map shape, schema. */
function validateCloudConfigText(text: string, base: AttributePath): Diagnostic[] {
  const parsed = parseYaml(text);
  if (parsed.problems.length > 0) {
    return parsed.problems.map((p) => error(base, 'Invalid YAML in cloud-config', `Line ${p.line}, column ${p.col}: ${p.message}`));
  }
  if (parsed.value === null || parsed.value === undefined) return [];
  return validateCloudConfigObject(parsed.value, base);
}

export function validateUserDataInputs(spec: SeedSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (spec.cloud_config !== undefined) out.push(...validateCloudConfigObject(spec.cloud_config, ['cloud_config']));
  if (spec.user_data !== undefined && typeof spec.user_data !== 'string')
    out.push(error(['user_data'], 'Invalid user_data', 'user_data must be a string.'));
  if (spec.user_data_base64 !== undefined) {
    if (spec.user_data !== undefined) {
      out.push(
        error(
          ['user_data_base64'],
          'Conflicting user-data inputs',
          'Both user_data and user_data_base64 are set; give only one (user_data for text, user_data_base64 for exact or binary bytes).',
        ),
      );
    } else if (typeof spec.user_data_base64 !== 'string' || !isBase64(spec.user_data_base64)) {
      out.push(
        error(
          ['user_data_base64'],
          'Invalid user_data_base64',
          `Expected standard base64 (RFC 4648: A–Z a–z 0–9 + /, padded with = to a multiple of 4), e.g. the output of base64encode() or filebase64(); got ${typeof spec.user_data_base64 === 'string' ? `${spec.user_data_base64.length} characters that are not` : typeof spec.user_data_base64}.`,
        ),
      );
    }
  }
  if (!hasErrors(out)) {
    const raw = rawUserData(spec);
    if (raw?.kind === 'cloud-config') out.push(...validateCloudConfigText(raw.text as string, [raw.key]));
    if (raw && (raw.kind === 'raw' || raw.kind === 'mime') && spec.user_data_parts && spec.user_data_parts.length > 0) {
      out.push(
        error(
          ['user_data_parts'],
          'user_data_parts with non-cloud-config user-data',
          `${raw.key} is ${raw.kind === 'raw' ? 'a raw script or binary' : 'MIME'} and would replace the parts. Move it into user_data_parts (e.g. content_type "text/x-shellscript").`,
        ),
      );
    }
  }
  if (spec.user_data_parts !== undefined) {
    if (!Array.isArray(spec.user_data_parts))
      out.push(error(['user_data_parts'], 'Invalid user_data_parts', 'user_data_parts must be a list.'));
    else spec.user_data_parts.forEach((p, i) => out.push(...validatePart(p as unknown, i)));
  }
  if (spec.vendor_data !== undefined) {
    if (typeof spec.vendor_data === 'string') {
      if (classifyUserData(spec.vendor_data) === 'cloud-config') out.push(...validateCloudConfigText(spec.vendor_data, ['vendor_data']));
    } else out.push(...validateCloudConfigObject(spec.vendor_data, ['vendor_data']));
  }
  for (const k of ['user_data_gzip', 'merge_overwrite'] as const) {
    if (spec[k] !== undefined && typeof spec[k] !== 'boolean') out.push(error([k], `Invalid ${k}`, `${k} must be a boolean.`));
  }
  return out;
}

function validatePart(part: unknown, i: number): Diagnostic[] {
  const at = (...k: string[]) => ['user_data_parts', i, ...k];
  if (!isPlainObject(part))
    return [error(at(), 'Invalid user-data part', 'Each part must be an object {content, content_type?, filename?, merge_type?}.')];
  const out: Diagnostic[] = [];
  if (typeof part.content !== 'string') out.push(error(at('content'), 'Missing part content', 'content must be a string.'));
  if (part.content_type !== undefined && (typeof part.content_type !== 'string' || !MIME_TYPE.test(part.content_type))) {
    out.push(
      error(
        at('content_type'),
        'Invalid content type',
        `Got ${JSON.stringify(part.content_type)}; expected a MIME type such as "text/x-shellscript" or "text/cloud-config".`,
      ),
    );
  }
  if (part.filename !== undefined && (typeof part.filename !== 'string' || part.filename === '' || /["\\\r\n]/.test(part.filename))) {
    out.push(
      error(at('filename'), 'Invalid part filename', 'filename must be a non-empty string without quotes, backslashes or line breaks.'),
    );
  }
  if (part.merge_type !== undefined && (typeof part.merge_type !== 'string' || /[\r\n]/.test(part.merge_type))) {
    out.push(
      error(
        at('merge_type'),
        'Invalid Merge-Type',
        'merge_type must be a single-line string, e.g. "list(append)+dict(recurse_array)+str()".',
      ),
    );
  }
  if (part.content_type === 'text/cloud-config' && typeof part.content === 'string') {
    out.push(...validateCloudConfigText(part.content, at('content')));
  }
  return out;
}
