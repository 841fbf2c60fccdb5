/**
 * What libvirt fills in when it defines a pool (formatstorage; checked against libvirt 9.0's stored XML), so a plan
 * can show the values the pool will have instead of "known after apply". Pure.
 */
import type { PoolSpec } from './model';

/**
 * `spec` completed as libvirt stores it: a `logical` pool's volume group is the pool name, its format `lvm2` and
 * its target `/dev/<volume group>`; a `netfs` pool's format is `auto`. Fields the spec sets are kept.
 */
export function withLibvirtDefaults(spec: PoolSpec): PoolSpec {
  if (spec.type === 'logical') {
    const name = spec.source?.name ?? spec.name;
    return { ...spec, path: spec.path ?? `/dev/${name}`, source: { ...spec.source, name, format: spec.source?.format ?? 'lvm2' } };
  }
  if (spec.type === 'netfs') return { ...spec, source: { ...spec.source, format: spec.source?.format ?? 'auto' } };
  return spec;
}
