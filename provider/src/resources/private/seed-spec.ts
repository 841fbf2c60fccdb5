/**
 * Turns a `virtseed_cloudinit_seed` config/state value into the shared seed generator's `SeedSpec`
 * (src/seed/model.ts), parsing the JSON/YAML string attributes and reading local `file.source` files.
 */
import type * as YamlLib from 'yaml';

/** yaml's parseDocument, loaded on first use rather than at provider start-up (issue #15). */
const parseDocument = (text: string): YamlLib.Document => (require('yaml') as typeof YamlLib).parseDocument(text, { prettyErrors: true, uniqueKeys: true });
import { Diagnostic, error, ValidationError } from '../../../../src/diagnostics';
import type { SeedSpec } from '../../../../src/seed';
import { loadSeedSources } from '../../../../src/seed/io';
import type { CloudinitSeedState, Val } from './model';
import { mapDiagnostics, type PathMapping } from './paths';
import { bool, compact, list, num, str, UNKNOWN } from './values';

/** How seed diagnostics map onto the resource's attribute paths. */
export const SEED_PATHS: PathMapping = {
  rename: { user_data_parts: 'user_data_part', files: 'file', mounts: 'mount', interfaces: 'interface' },
  opaque: ['cloud_config', 'meta_data', 'user_data', 'user_data_base64', 'network_config', 'vendor_data'],
};

function parseMap(value: string | undefined, attr: string, diags: Diagnostic[]): Record<string, unknown> | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  // YAML 1.2 is a superset of JSON: jsonencode() output parses too. Errors carry their own line and column.
  const doc = parseDocument(value);
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const message = (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, '');
      const [line, col] = [e.linePos?.[0]?.line ?? 1, e.linePos?.[0]?.col ?? 1];
      diags.push(error([attr], `Invalid ${attr}`, `${attr} must be a JSON or YAML map; parsing failed at line ${line}, column ${col}: ${message}`));
    }
    return undefined;
  }
  const parsed: unknown = doc.toJS({ maxAliasCount: 100 });
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    diags.push(error([attr], `Invalid ${attr}`, `${attr} must be a JSON or YAML map (e.g. jsonencode({ ... })); got ${Array.isArray(parsed) ? 'a list' : typeof parsed}.`));
    return undefined;
  }
  return parsed as Record<string, unknown>;
}

/** The SeedSpec of a fully known config value, with local sources loaded; diagnostics use attribute paths. */
export function seedSpecFromConfig(v: Partial<CloudinitSeedState>): { spec: SeedSpec; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const network = v.network && v.network !== UNKNOWN ? v.network : undefined;
  const strings = (l: Val<string[]> | undefined) => (Array.isArray(l) ? [...l] : undefined);
  const spec: SeedSpec = compact({
    format: str(v.format) as SeedSpec['format'],
    instance_id: str(v.instance_id),
    hostname: str(v.hostname),
    fqdn: str(v.fqdn),
    public_keys: strings(v.public_keys),
    meta_data: parseMap(str(v.meta_data), 'meta_data', diagnostics),
    cloud_config: parseMap(str(v.cloud_config), 'cloud_config', diagnostics),
    user_data: str(v.user_data),
    user_data_base64: str(v.user_data_base64),
    user_data_parts: nonEmpty(list(v.user_data_part).map((p) =>
      compact({ content: str(p.content) ?? '', content_type: str(p.content_type), filename: str(p.filename), merge_type: str(p.merge_type) }),
    )),
    user_data_gzip: bool(v.user_data_gzip),
    merge_overwrite: bool(v.merge_overwrite),
    environment: v.environment && v.environment !== UNKNOWN ? v.environment : undefined,
    files: nonEmpty(list(v.file).map((f) =>
      compact({
        path: str(f.path) ?? '',
        content: str(f.content),
        content_base64: str(f.content_base64),
        source: str(f.source),
        owner: str(f.owner),
        permissions: str(f.permissions),
        defer: bool(f.defer),
        append: bool(f.append),
      }),
    )),
    mounts: nonEmpty(list(v.mount).map((m) =>
      compact({ device: str(m.device) ?? '', mount_point: str(m.mount_point), symlink: str(m.symlink), fs_type: str(m.fs_type), options: str(m.options) }),
    )),
    network: network
      ? compact({
          version: (num(network.version) ?? 2) as 1 | 2,
          force_dhcp: bool(network.force_dhcp),
          interfaces: list(network.interface).map((i) =>
            compact({
              name: str(i.name),
              mac: str(i.mac),
              dhcp4: bool(i.dhcp4),
              dhcp6: bool(i.dhcp6),
              addresses: strings(i.addresses),
              gateway4: str(i.gateway4),
              gateway6: str(i.gateway6),
              nameservers: strings(i.nameservers),
              search: strings(i.search),
              mtu: num(i.mtu),
            }),
          ),
        })
      : undefined,
    network_config: str(v.network_config),
    vendor_data: str(v.vendor_data),
  }) as SeedSpec;
  if (diagnostics.length) return { spec, diagnostics };
  try {
    return { spec: loadSeedSources(spec), diagnostics };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    diagnostics.push(...mapDiagnostics(err.diagnostics, SEED_PATHS));
    return { spec, diagnostics };
  }
}

/** The list, or undefined when empty (an absent block is `[]` in Terraform, absent in a SeedSpec). */
function nonEmpty<T>(l: T[]): T[] | undefined {
  return l.length ? l : undefined;
}
