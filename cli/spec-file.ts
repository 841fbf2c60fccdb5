/**
 * Reads a seed spec file for `virtseed seed build SPEC -o ISO` and rejects what is not one: an empty file, a binary
 * file (an ISO image), cloud-init user-data (`#cloud-config`, `#!` scripts, MIME, …: cloud-init's user-data
 * formats, recognised by their first line), a document that is not a mapping, and keys that are not fields of
 * `SeedSpec` (src/seed/model/seed.ts) at any level the spec defines (top level, `files[]`, `mounts[]`,
 * `user_data_parts[]`, `network`, `network.interfaces[]`). Free-form maps (`cloud_config`, `meta_data`,
 * `environment`, `vendor_data`) are left to the seed validator.
 */
import { readFileSync } from 'node:fs';
import { error, ValidationError, type AttributePath, type Diagnostic } from '../src/diagnostics';
import type { BlockDeviceMount, NetworkInterfaceSpec, NetworkSpec, SeedInjectedFile, SeedSpec, UserDataPart } from '../src/seed';
import { readSeedSpecFile } from '../src/seed/io';

// `Record<keyof T, true>`: tsc fails here when a field is added to or removed from the model without this list.
const SPEC_KEYS: Record<keyof SeedSpec, true> = {
  format: true,
  instance_id: true,
  hostname: true,
  fqdn: true,
  public_keys: true,
  meta_data: true,
  cloud_config: true,
  user_data: true,
  user_data_base64: true,
  user_data_parts: true,
  user_data_gzip: true,
  merge_overwrite: true,
  environment: true,
  files: true,
  mounts: true,
  network: true,
  network_config: true,
  vendor_data: true,
};
const FILE_KEYS: Record<keyof SeedInjectedFile, true> = {
  path: true,
  content: true,
  content_base64: true,
  source: true,
  owner: true,
  permissions: true,
  defer: true,
  append: true,
};
const MOUNT_KEYS: Record<keyof BlockDeviceMount, true> = { device: true, mount_point: true, symlink: true, fs_type: true, options: true };
const PART_KEYS: Record<keyof UserDataPart, true> = { content: true, content_type: true, filename: true, merge_type: true };
const NETWORK_KEYS: Record<keyof NetworkSpec, true> = { version: true, force_dhcp: true, interfaces: true };
const INTERFACE_KEYS: Record<keyof NetworkInterfaceSpec, true> = {
  name: true,
  mac: true,
  dhcp4: true,
  dhcp6: true,
  addresses: true,
  gateway4: true,
  gateway6: true,
  nameservers: true,
  search: true,
  mtu: true,
};

/** First lines by which cloud-init recognises user-data (cloud-init docs, "User data formats"). */
const USER_DATA_HEADERS: ReadonlyArray<[RegExp, string]> = [
  [/^#cloud-config-archive\b/, 'cloud-init user-data (#cloud-config-archive)'],
  [/^#cloud-config\b/, 'cloud-init user-data (#cloud-config)'],
  [/^#!/, 'a user-data script (#!)'],
  [/^#include(-once)?\b/, 'cloud-init user-data (#include)'],
  [/^#cloud-boothook\b/, 'a cloud-init boothook (#cloud-boothook)'],
  [/^#part-handler\b/, 'a cloud-init part handler (#part-handler)'],
  [/^## template: *jinja\b/, 'a cloud-init jinja template (## template: jinja)'],
  [/^(content-type|mime-version)\s*:/i, 'MIME multipart user-data'],
];

/** What a spec file's text is when it is recognisably not a spec, else undefined. */
export function notASpec(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return 'a binary file (an ISO image?)';
  const text = Buffer.from(bytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (text.trim() === '') return 'empty';
  for (const [re, what] of USER_DATA_HEADERS) if (re.test(text)) return what;
  return undefined;
}

/** Error diagnostics for keys of `value` that are not spec fields, with a spelling suggestion where one is close. */
export function unknownSpecKeys(value: Record<string, unknown>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = (obj: unknown, known: Record<string, true>, path: AttributePath, what: string): void => {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return;
    for (const key of Object.keys(obj)) {
      if (Object.prototype.hasOwnProperty.call(known, key)) continue;
      const names = Object.keys(known);
      const near = closest(key, names);
      out.push(
        error(
          [...path, key],
          'Unknown field',
          `"${key}" is not a field of ${what}${near ? `; did you mean "${near}"?` : '.'} The fields are: ${names.join(', ')}.`,
        ),
      );
    }
  };
  const each = (list: unknown, known: Record<string, true>, path: AttributePath, what: string): void => {
    if (Array.isArray(list)) list.forEach((item, i) => check(item, known, [...path, i], what));
  };
  check(value, SPEC_KEYS, [], 'a seed spec');
  each(value.files, FILE_KEYS, ['files'], 'a files entry');
  each(value.mounts, MOUNT_KEYS, ['mounts'], 'a mounts entry');
  each(value.user_data_parts, PART_KEYS, ['user_data_parts'], 'a user_data_parts entry');
  check(value.network, NETWORK_KEYS, ['network'], 'network');
  const network = value.network as { interfaces?: unknown } | null | undefined;
  if (network && typeof network === 'object')
    each(network.interfaces, INTERFACE_KEYS, ['network', 'interfaces'], 'a network.interfaces entry');
  return out;
}

/**
 * Reads and checks a spec file (JSON or YAML), loading `files[].source` relative to it.
 * @throws ValidationError naming the file and what it is instead, or every unknown key with its path.
 */
export function readSpecFile(path: string): SeedSpec {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new ValidationError([error([], 'Cannot read spec file', `${path}: ${(e as Error).message}`)]);
  }
  const what = notASpec(bytes);
  if (what !== undefined) {
    const hint =
      what === 'empty' || what.startsWith('a binary')
        ? 'a spec is a JSON or YAML mapping of seed fields, e.g. "hostname: web1"'
        : "to put user-data on a seed as it is, use cloud-localds's arguments: virtseed seed build OUTPUT USER-DATA [META-DATA]; " +
          'or put it under "user_data:" in a spec';
    throw new ValidationError([error([], 'Not a seed spec', `${path} is ${what}, not a seed spec; ${hint}.`)]);
  }
  const spec = readSeedSpecFile(path) as unknown;
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    const kind = spec === null ? 'null' : Array.isArray(spec) ? 'a list' : `a ${typeof spec} (${JSON.stringify(spec).slice(0, 40)})`;
    throw new ValidationError([
      error(
        [],
        'Not a seed spec',
        `${path} holds ${kind}; expected a mapping of seed fields (hostname, cloud_config, files, network, ...).`,
      ),
    ]);
  }
  const unknown = unknownSpecKeys(spec as Record<string, unknown>);
  if (unknown.length) throw new ValidationError(unknown);
  return spec as SeedSpec;
}

/** The name in `names` within edit distance 2 of `key` (the nearest; ties: the first), or undefined. */
export function closest(key: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const n of names) {
    const d = editDistance(key.toLowerCase(), n);
    if (d < bestDistance) [best, bestDistance] = [n, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
