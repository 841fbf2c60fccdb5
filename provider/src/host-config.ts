/**
 * The hosts a `provider "virtseed"` block names — its `uri` (the default host) and its `host` blocks — read and
 * checked from the block's decoded value (pure).
 */
import { Diagnostic, error } from '../../src/diagnostics';
import { LibvirtUriError, parseLibvirtUri } from '../../src/libvirt/uri';
import { isUnknown } from './plugin/cty';
import { DEFAULT_URI, HostConfig } from './host';

/** A host block name: what resources' `host` and placements' `hosts` say. */
const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/** Checks a libvirt URI of the provider block (null and unknown pass). */
function validateUri(uri: unknown): Diagnostic[] {
  if (uri === null || uri === undefined || isUnknown(uri)) return [];
  if (typeof uri !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) {
    return [
      {
        severity: 'error',
        summary: 'Invalid libvirt URI',
        detail: `uri ${JSON.stringify(uri)} is not a libvirt connection URI; expected e.g. "qemu:///system" or "qemu+ssh://user@host/system".`,
        path: ['uri'],
      },
    ];
  }
  try {
    parseLibvirtUri(uri);
  } catch (e) {
    if (!(e instanceof LibvirtUriError)) throw e;
    return [{ severity: 'error', summary: 'Invalid libvirt URI', detail: e.message, path: ['uri'] }];
  }
  return [];
}

/** The provider block's value as the protocol layer decodes it. */
export interface ProviderConfigValue {
  uri?: unknown;
  host?: unknown;
}

/** The hosts a provider block names: `default` (its `uri`) and the `host` blocks by name, in configuration order. */
export interface ProviderHosts {
  readonly default: HostConfig;
  readonly named: readonly HostConfig[];
}

/** Checks the provider block: the URIs, and the `host` blocks' names (unique, well formed) and limits. */
export function validateProviderConfig(config: ProviderConfigValue | null): Diagnostic[] {
  const d: Diagnostic[] = [...validateUri(config?.uri)];
  const seen = new Set<string>();
  hostBlocks(config).forEach((h, i) => {
    const name = h.name;
    if (typeof name === 'string') {
      if (!HOST_NAME.test(name))
        d.push(
          error(
            ['host', i, 'name'],
            'Invalid host name',
            `host name ${JSON.stringify(name)}: expected letters, digits, ".", "_" and "-" (starting with a letter or digit), up to 63 characters.`,
          ),
        );
      else if (seen.has(name))
        d.push(error(['host', i, 'name'], 'Duplicate host name', `two host blocks are named ${name}; give each host its own name.`));
      seen.add(name);
    }
    for (const key of ['uri', 'migration_uri'] as const) d.push(...validateUri(h[key]).map((x) => ({ ...x, path: ['host', i, key] })));
    for (const key of ['max_memory', 'max_vcpu'] as const) {
      const v = h[key];
      if (typeof v === 'number' && !(Number.isInteger(v) && v > 0))
        d.push(error(['host', i, key], `Invalid ${key}`, `${key} is ${v}; expected a whole number greater than 0.`));
    }
  });
  return d;
}

/** The hosts of a provider block checked by validateProviderConfig (unknown URIs become ''). */
export function providerHosts(config: ProviderConfigValue | null): ProviderHosts {
  const uri = config?.uri;
  const defaultUri = isUnknown(uri) ? '' : typeof uri === 'string' && uri ? uri : DEFAULT_URI;
  const named = hostBlocks(config)
    .filter((h) => typeof h.name === 'string')
    .map((h): HostConfig => {
      const hostUri = typeof h.uri === 'string' ? h.uri : '';
      return {
        name: h.name as string,
        uri: hostUri,
        migrationUri: typeof h.migration_uri === 'string' ? h.migration_uri : hostUri,
        ...(typeof h.max_memory === 'number' ? { maxMemoryMiB: h.max_memory } : {}),
        ...(typeof h.max_vcpu === 'number' ? { maxVcpu: h.max_vcpu } : {}),
      };
    });
  return { default: { name: null, uri: defaultUri, migrationUri: defaultUri }, named };
}

type HostBlock = { name?: unknown; uri?: unknown; migration_uri?: unknown; max_memory?: unknown; max_vcpu?: unknown };

function hostBlocks(config: ProviderConfigValue | null): HostBlock[] {
  const h = config?.host;
  return Array.isArray(h) ? h.filter((x): x is HostBlock => !!x && typeof x === 'object') : [];
}
