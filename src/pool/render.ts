/**
 * PoolSpec → libvirt storage pool XML (https://libvirt.org/formatstorage.html, "Storage pool XML"), for
 * virStoragePoolDefineXML. Pure; the output depends only on the spec.
 */
import { ValidationError, hasErrors } from '../diagnostics';
import { ATTR, TEXT, newBuilder, type XmlNode } from '../xml';
import type { PoolSpec } from './model';
import { withLibvirtDefaults } from './defaults';
import { validatePoolSpec } from './validate';

/**
 * The pool's XML: name, uuid, `<source>` (netfs: host, dir, format; logical: name, devices, format) and
 * `<target><path>`, with what libvirt would fill in written out (withLibvirtDefaults: libvirt's schema wants a
 * logical pool's target, which libvirt itself derives from the volume group).
 * @throws ValidationError when `validatePoolSpec(spec)` reports an error.
 */
export function renderPoolXml(input: PoolSpec): string {
  const diagnostics = validatePoolSpec(input);
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  const spec = withLibvirtDefaults(input);
  const pool: XmlNode = { [`${ATTR}type`]: spec.type, name: { [TEXT]: spec.name } };
  if (spec.uuid !== undefined) pool.uuid = { [TEXT]: spec.uuid };
  const s = spec.source;
  if (s && (s.host !== undefined || s.dir !== undefined || s.name !== undefined || s.devices?.length || s.format !== undefined)) {
    const source: XmlNode = {};
    if (s.host !== undefined) source.host = { [`${ATTR}name`]: s.host };
    if (s.dir !== undefined) source.dir = { [`${ATTR}path`]: s.dir };
    if (s.devices?.length) source.device = s.devices.map((d) => ({ [`${ATTR}path`]: d }));
    if (s.name !== undefined) source.name = { [TEXT]: s.name };
    if (s.format !== undefined) source.format = { [`${ATTR}type`]: s.format };
    pool.source = source;
  }
  if (spec.path !== undefined) pool.target = { path: { [TEXT]: spec.path } };
  return newBuilder().build({ pool }) as string;
}
