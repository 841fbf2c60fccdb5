/** The boot firmware of a domain's `<os>` element, shared by parse.ts and summary.ts. */
import type { DomainFirmware } from '../model';
import { attr, child, children, type XmlNode } from '../../xml';

/**
 * `efi` from `<os firmware='efi'>` (what was defined) or a `<loader type='pflash'>` (what libvirt resolved it to
 * in a running domain's XML), else `bios`; secure boot (with `efi`) from the `secure-boot` feature or
 * `<loader secure='yes'>`.
 */
export function firmwareOf(os: XmlNode | undefined): { firmware: DomainFirmware; secureBoot: boolean } {
  const loader = child(os, 'loader');
  if (attr(os, 'firmware') !== 'efi' && attr(loader, 'type') !== 'pflash') return { firmware: 'bios', secureBoot: false };
  const secureFeature = children(child(os, 'firmware'), 'feature').find((f) => attr(f, 'name') === 'secure-boot');
  return { firmware: 'efi', secureBoot: attr(secureFeature, 'enabled') === 'yes' || attr(loader, 'secure') === 'yes' };
}
