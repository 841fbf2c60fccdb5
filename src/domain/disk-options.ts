/**
 * The options of a disk beyond its source, target and bus, in one place: for each, the `virtseed_domain` `disk`
 * attribute it is (src/fields/domain.ts holds its description, allowed values and change rule) and where libvirt
 * keeps it in the domain XML (libvirt formatdomain, "Hard drives, floppy disks, CDROMs"). Render (`renderDiskOptions`),
 * parse (`readDiskOptions`), the checks (`validateDiskOptions`), the provider's state ⇄ model mapping, drift
 * detection and the constructs' `DiskOptions` all follow from `DISK_OPTIONS`.
 *
 * Adding a disk option: its field in src/fields/domain.ts (`disk.fields`), its entry here, its prop in
 * constructs/src/devices.ts `DiskOptions` (ARCHITECTURE.md, "Adding a device attribute"). Pure.
 */
import { error, type AttributePath, type Diagnostic } from '../diagnostics';
import { DOMAIN_FIELDS } from '../fields';
import type { XmlNode } from '../xml';
import { optionEntries, readOptions, renderOptions, validateOptions, type OptionsOf } from './options';

const F = DOMAIN_FIELDS.fields.disk.fields;

/** libvirt's check of a disk `<serial>` (virDomainDiskDefParseXML), and QEMU's 20-byte limit of virtio-blk. */
const DISK_SERIAL_RE = /^[A-Za-z0-9_ .+-]{1,20}$/;

/**
 * Each option as ./options.ts `OptionSpec` describes it (`element`: the child of `<disk>` that holds it); a
 * `check` is given the value and the disk's bus.
 */
export const DISK_OPTIONS = {
  cache: { attribute: 'cache', element: 'driver', xml: 'cache', values: F.cache.values },
  io: { attribute: 'io', element: 'driver', xml: 'io', values: F.io.values },
  discard: { attribute: 'discard', element: 'driver', xml: 'discard', values: F.discard.values },
  serial: {
    attribute: 'serial',
    element: 'serial',
    check: (v: string): string | undefined => (DISK_SERIAL_RE.test(v) ? undefined : "1 to 20 letters, digits, spaces or '_ . + -'"),
  },
  rotationRate: {
    attribute: 'rotation_rate',
    element: 'target',
    xml: 'rotation_rate',
    number: true,
    check: (v: number, disk: DiskContext): string | undefined =>
      disk.bus !== 'sata' && disk.bus !== 'scsi'
        ? `a disk on the sata or scsi bus (QEMU reports no rotation rate on ${disk.bus ?? 'this bus'})`
        : v === 1 || (v >= 1025 && v <= 65534)
          ? undefined
          : '1 (solid-state) or 1025 to 65534 rpm',
  },
} as const;

/** The model key of a disk option (camelCase). */
export type DiskOptionKey = keyof typeof DISK_OPTIONS;

/** A disk's options in the model (src/domain/model.ts `DomainDisk` has them). */
export type DomainDiskOptions = OptionsOf<typeof DISK_OPTIONS>;

/** What a check may look at beside the value: the disk's bus. */
export interface DiskContext {
  readonly bus?: string;
}

/** The options as [model key, description] pairs, in table order. */
export const DISK_OPTION_ENTRIES = optionEntries<typeof DISK_OPTIONS, DiskContext>(DISK_OPTIONS);

/** Writes the options `disk` has into its `<disk>` element `element` (creating `<driver>`/`<target>` children as needed). */
export function renderDiskOptions(disk: DomainDiskOptions, element: XmlNode): void {
  renderOptions<typeof DISK_OPTIONS, DiskContext>(DISK_OPTIONS, disk, element);
}

/**
 * The options of a parsed `<disk>` (`where`: its XPath, for errors). Throws DomainXmlParseError for a value the
 * table does not allow or a number that is not one.
 */
export function readDiskOptions(disk: XmlNode, where: string): DomainDiskOptions {
  return readOptions<typeof DISK_OPTIONS, DiskContext>(DISK_OPTIONS, disk, where);
}

/** The checks of a disk's options (`path`: the disk's attribute path): allowed values, ranges and how they combine. */
export function validateDiskOptions(disk: DomainDiskOptions & DiskContext, path: AttributePath, out: Diagnostic[]): void {
  validateOptions<typeof DISK_OPTIONS, DiskContext>(DISK_OPTIONS, disk, disk, path, out);
  if (disk.io === 'native' && disk.cache !== 'none' && disk.cache !== 'directsync')
    out.push(
      error(
        [...path, 'io'],
        'Native I/O needs direct access',
        `QEMU's native AIO works only with O_DIRECT: set cache to 'none' or 'directsync' (got ${disk.cache === undefined ? 'the default' : `'${disk.cache}'`}), or use io 'threads' or 'io_uring'.`,
      ),
    );
}
