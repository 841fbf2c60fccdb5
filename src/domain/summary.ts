/**
 * What any libvirt domain's XML says about it, read tolerantly (unlike parse.ts, which reads back what virtseed
 * defines and rejects forms its model does not cover): type, firmware, the sources of its disks and its NICs
 * (`<interface>` elements and virtseed's restricted user-mode NICs in `<qemu:commandline>`, in the spec's order).
 * For reading domains virtseed did not make (the `virtseed_domain` data source). Pure.
 */
import type { DomainFirmware } from './model';
import { firmwareOf } from './private/firmware';
import { domainName, domainRoot } from './private/root';
import { mergeByIndex, readQemuArgs, takeUserNetdevArgs } from './private/user-netdev';
import { attr, child, children, text, type XmlNode } from '../xml';

/** One `<interface>`: its type (`network`, `bridge`, `user`, `direct`, …), MAC, and libvirt network when on one. */
export interface DomainSummaryInterface {
  type: string;
  mac?: string;
  network?: string;
}

/** The facts `summarizeDomainXml` reads. */
export interface DomainSummary {
  name: string;
  uuid?: string;
  /** `<domain type>`, e.g. `kvm`, `qemu`. */
  type: string;
  firmware: DomainFirmware;
  secureBoot: boolean;
  /**
   * Disk and cdrom sources in device order: `<source file>`, `<source dev>` or `<source dir>`, `POOL/VOLUME` for
   * `type='volume'`, `protocol://host/name` for network disks, `''` for an empty drive.
   */
  disks: string[];
  interfaces: DomainSummaryInterface[];
}

/** @throws DomainXmlParseError when the document is not a `<domain>` with a name. */
export function summarizeDomainXml(xml: string): DomainSummary {
  const domain = domainRoot(xml);
  const name = domainName(domain);
  const devices = child(domain, 'devices');
  const uuid = text(child(domain, 'uuid'));
  return {
    name,
    ...(uuid ? { uuid } : {}),
    type: attr(domain, 'type') ?? '',
    ...firmwareOf(child(domain, 'os')),
    disks: children(devices, 'disk').map((d) => diskSource(child(d, 'source'))),
    interfaces: mergeByIndex(
      children(devices, 'interface').map((n): DomainSummaryInterface => {
        const mac = attr(child(n, 'mac'), 'address');
        const type = attr(n, 'type') ?? '';
        const network = type === 'network' ? attr(child(n, 'source'), 'network') : undefined;
        return { type, ...(mac !== undefined ? { mac } : {}), ...(network !== undefined ? { network } : {}) };
      }),
      // Restricted user-mode NICs are QEMU command-line passthrough (./model.ts DomainInterfaceUser).
      takeUserNetdevArgs(readQemuArgs(domain)).interfaces.map(({ index, iface }) => ({
        index,
        iface: { type: 'user', ...(iface.mac !== undefined ? { mac: iface.mac } : {}) },
      })),
    ),
  };
}

function diskSource(source: XmlNode | undefined): string {
  if (!source) return '';
  const pool = attr(source, 'pool');
  const volume = attr(source, 'volume');
  if (pool !== undefined && volume !== undefined) return `${pool}/${volume}`;
  const protocol = attr(source, 'protocol');
  if (protocol !== undefined) {
    const host = attr(child(source, 'host'), 'name');
    return `${protocol}://${host ?? ''}/${attr(source, 'name') ?? ''}`;
  }
  return attr(source, 'file') ?? attr(source, 'dev') ?? attr(source, 'dir') ?? '';
}
