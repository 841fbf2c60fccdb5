/**
 * `virtseed_pool` state ⇄ the shared pool model (src/pool `PoolSpec`): Terraform spells the pool's `<source>`
 * flat (`source_host`, `source_devices`, …); the model nests it.
 */
import type { Diagnostic } from '../../../../src/diagnostics';
import { validatePoolSpec, withLibvirtDefaults, type PoolSource, type PoolSpec } from '../../../../src/pool';
import type { PoolState } from './model';
import { isWhollyKnown, known, list, str } from './values';

/** The model's `source` keys and their Terraform attributes. */
const SOURCE_ATTRS = {
  host: 'source_host',
  dir: 'source_dir',
  format: 'source_format',
  name: 'source_name',
  devices: 'source_devices',
} as const satisfies Record<keyof PoolSource, keyof PoolState>;

/** The spec of a state or config (unknown and null values left out; `type` default `dir`). */
export function toPoolSpec(s: PoolState): PoolSpec {
  const source: PoolSource = {};
  const host = str(s.source_host);
  const dir = str(s.source_dir);
  const format = known(s.source_format);
  const name = str(s.source_name);
  if (host !== undefined) source.host = host;
  if (dir !== undefined) source.dir = dir;
  if (format !== undefined) source.format = format;
  if (name !== undefined) source.name = name;
  if (Array.isArray(s.source_devices) && s.source_devices.length) source.devices = list(s.source_devices);
  const spec: PoolSpec = { name: str(s.name) ?? '', type: known(s.type) ?? 'dir' };
  const uuid = str(s.uuid);
  if (uuid !== undefined) spec.uuid = uuid;
  const path = str(s.path);
  if (path !== undefined) spec.path = path;
  if (Object.keys(source).length) spec.source = source;
  return spec;
}

/** validatePoolSpec with paths in Terraform's terms (`source.devices[1]` → `source_devices[1]`); a config with
 *  unknown values is checked once they are known. */
export function validatePoolState(config: PoolState): Diagnostic[] {
  if (!isWhollyKnown(config)) return [];
  return validatePoolSpec(toPoolSpec(config)).map((d) => {
    const [head, key, ...rest] = d.path;
    return head === 'source' && typeof key === 'string' ? { ...d, path: [SOURCE_ATTRS[key as keyof PoolSource], ...rest] } : d;
  });
}

/** The state attributes of a pool libvirt describes (its definition, whether it runs, its sizes in bytes). */
export function stateFromPool(
  spec: PoolSpec,
  facts: { active: boolean; autostart: boolean; capacity: number; allocation: number; available: number },
): PoolState {
  return {
    id: spec.uuid ?? null,
    uuid: spec.uuid ?? null,
    name: spec.name,
    host: null, // where the pool is: known to the caller, not to libvirt
    type: spec.type,
    path: spec.path ?? null,
    source_host: spec.source?.host ?? null,
    source_dir: spec.source?.dir ?? null,
    source_format: spec.source?.format ?? null,
    source_name: spec.source?.name ?? null,
    source_devices: spec.source?.devices ?? null,
    autostart: facts.autostart,
    active: facts.active,
    capacity: facts.capacity,
    allocation: facts.allocation,
    available: facts.available,
  };
}

/**
 * `planned` with the definition attributes the config leaves null (path, source_format, source_name) set to what
 * libvirt will store for this pool (src/pool withLibvirtDefaults), when name and type are known.
 */
export function withPlannedDefinition(planned: PoolState, config: PoolState): PoolState {
  if (!isWhollyKnown(planned.name) || !isWhollyKnown(planned.type) || !isWhollyKnown(planned.source_name)) return planned;
  const spec = withLibvirtDefaults(toPoolSpec(planned));
  const out = { ...planned };
  if (config.path === null && spec.path !== undefined) out.path = spec.path;
  if (config.source_format === null) out.source_format = spec.source?.format ?? null;
  if (config.source_name === null) out.source_name = spec.source?.name ?? null;
  return out;
}
