/**
 * The `provider "virtseed" {}` block: its schema, and the hosts it names (the default `uri` and the `host` blocks),
 * read and checked from its decoded value (pure).
 */
import { Diagnostic, error } from '../../src/diagnostics';
import { t, isUnknown } from './plugin/cty';
import type { ResourceSchema } from './plugin/schema';
import { validateUri } from './plugin/private/rpc';
import { DEFAULT_URI, HostConfig } from './host';

/** A host block name: what resources' `host` and placements' `hosts` say. */
const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

export const PROVIDER_SCHEMA: ResourceSchema = {
  version: 0,
  description: 'Declarative libvirt virtual machines provisioned by cloud-init or Ignition.',
  attributes: {
    uri: {
      type: t.string,
      optional: true,
      description: `libvirt connection URI of the default host (resources without \`host\`), e.g. \`qemu:///system\` or \`qemu+ssh://user@host/system\`. Default: \`${DEFAULT_URI}\`.`,
    },
  },
  blocks: {
    host: {
      nesting: 'list',
      block: {
        description:
          'A named libvirt host. Resources choose it with `host = "<name>"`; `virtseed_placement` chooses among these hosts. The provider connects to each host the first time a resource needs it, once per provider run.',
        attributes: {
          name: {
            type: t.string,
            required: true,
            description: 'The name resources use (`host = "<name>"`): letters, digits, `.`, `_` and `-`, up to 63 characters.',
          },
          uri: {
            type: t.string,
            required: true,
            description: 'libvirt connection URI of the host, e.g. `qemu+tls://kvm2.example.net/system` or `qemu+ssh://root@kvm2/system`.',
          },
          migration_uri: {
            type: t.string,
            optional: true,
            description:
              "The URI the other hosts' libvirtd uses to reach this host when a running domain live-migrates to it (peer to peer: the source host's libvirtd connects, with its own credentials). Default: `uri`.",
          },
          max_memory: {
            type: t.number,
            optional: true,
            description:
              "MiB of guest memory placements may commit on the host (the memory of every domain there, running or not, counts). Default: the host's physical memory.",
          },
          max_vcpu: {
            type: t.number,
            optional: true,
            description: 'vCPUs placements may commit on the host (every domain there counts). Default: 4 per host CPU.',
          },
        },
      },
    },
  },
};

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
