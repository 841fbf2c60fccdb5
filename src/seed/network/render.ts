/** The network file of a seed: NoCloud `network-config` (YAML) or ConfigDrive `network_data.json` (JSON). */
import type { SeedFormat, SeedSpec } from '../model';
import { renderNetworkData } from './openstack';
import { renderNetworkV1 } from './v1';
import { renderNetworkV2 } from './v2';
import { stableYaml, parseYaml } from '../private/yaml';
import { stableJsonFile as stableJson } from '../../json';

/**
 * The text of the network file, or `undefined` when the spec has no network input. Typed `network` → v1/v2 YAML
 * (NoCloud) or network_data.json (ConfigDrive). Raw `network_config` → unchanged (NoCloud); for ConfigDrive its
 * YAML/JSON is re-serialised as stable JSON. Expects a validated spec.
 */
export function renderNetworkFile(spec: SeedSpec, format: SeedFormat): string | undefined {
  if (spec.network) {
    if (format === 'configdrive') return stableJson(renderNetworkData(spec.network));
    return stableYaml(spec.network.version === 1 ? renderNetworkV1(spec.network) : renderNetworkV2(spec.network));
  }
  if (spec.network_config !== undefined) {
    if (format === 'configdrive') return stableJson(parseYaml(spec.network_config).value);
    return spec.network_config;
  }
  return undefined;
}
