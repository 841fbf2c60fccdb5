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
import { ATTR, attr, child, text, type XmlNode } from '../xml';
import { DomainXmlParseError } from './errors';

const F = DOMAIN_FIELDS.fields.disk.fields;

/** libvirt's check of a disk `<serial>` (virDomainDiskDefParseXML), and QEMU's 20-byte limit of virtio-blk. */
const DISK_SERIAL_RE = /^[A-Za-z0-9_ .+-]{1,20}$/;

/**
 * Each option: `attribute`, the `disk` block attribute (snake_case; the key is the model's and the constructs'
 * camelCase name); `element`, the child of `<disk>` that holds it, and `xml`, its attribute there (absent: the
 * element's text); `values`, the table's allowed values (a string option), or `number` (a whole number whose range
 * `check` holds); `check`, what libvirt or QEMU would refuse beyond the allowed values, given the value and the
 * disk's bus (a sentence of what is expected, or undefined when the value is fine).
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

type Options = typeof DISK_OPTIONS;
/** The model key of a disk option (camelCase). */
export type DiskOptionKey = keyof Options;
/** The value of option `K` in the model: one of the table's values, a number, or a string. */
type OptionValue<O> = O extends { values: infer V } ? keyof V & string : O extends { number: true } ? number : string;

/** A disk's options in the model (src/domain/model.ts `DomainDisk` has them). */
export type DomainDiskOptions = { -readonly [K in DiskOptionKey]?: OptionValue<Options[K]> };

/** What a check may look at beside the value: the disk's bus. */
export interface DiskContext {
  readonly bus?: string;
}

/** One option's description, whatever its kind. */
interface AnyOption {
  readonly attribute: string;
  readonly element: string;
  readonly xml?: string;
  readonly values?: { readonly [value: string]: string };
  readonly number?: true;
  readonly check?: (value: never, disk: DiskContext) => string | undefined;
}

/** The options as [model key, description] pairs, in table order. */
export const DISK_OPTION_ENTRIES = Object.entries(DISK_OPTIONS) as [DiskOptionKey, AnyOption][];

/** Writes the options `disk` has into its `<disk>` element `element` (creating `<driver>`/`<target>` children as needed). */
export function renderDiskOptions(disk: DomainDiskOptions, element: XmlNode): void {
  for (const [key, o] of DISK_OPTION_ENTRIES) {
    const value = disk[key];
    if (value === undefined) continue;
    if (o.xml === undefined) element[o.element] = String(value);
    else element[o.element] = { ...((element[o.element] as XmlNode | undefined) ?? {}), [`${ATTR}${o.xml}`]: String(value) };
  }
}

/**
 * The options of a parsed `<disk>` (`where`: its XPath, for errors). Throws DomainXmlParseError for a value the
 * table does not allow or a number that is not one.
 */
export function readDiskOptions(disk: XmlNode, where: string): DomainDiskOptions {
  const out: Record<string, string | number> = {};
  for (const [key, o] of DISK_OPTION_ENTRIES) {
    const node = child(disk, o.element);
    const raw = o.xml === undefined ? text(node) || undefined : attr(node, o.xml);
    if (raw === undefined) continue;
    const at = `${where}/${o.element}${o.xml === undefined ? '' : `/@${o.xml}`}`;
    if (o.values && !(raw in o.values))
      throw new DomainXmlParseError(at, `unsupported ${o.attribute} '${raw}' (expected ${Object.keys(o.values).join(', ')})`);
    if (o.number && !/^\d+$/.test(raw)) throw new DomainXmlParseError(at, `${o.attribute} '${raw}' is not a whole number`);
    out[key] = o.number ? Number(raw) : raw;
  }
  return out as DomainDiskOptions;
}

/** The checks of a disk's options (`path`: the disk's attribute path): allowed values, ranges and how they combine. */
export function validateDiskOptions(disk: DomainDiskOptions & DiskContext, path: AttributePath, out: Diagnostic[]): void {
  for (const [key, o] of DISK_OPTION_ENTRIES) {
    const value: unknown = disk[key];
    if (value === undefined) continue;
    const at = [...path, key];
    const quoted = (v: unknown) => JSON.stringify(v);
    if (o.values && (typeof value !== 'string' || !(value in o.values))) {
      const allowed = Object.keys(o.values).map((v) => `'${v}'`);
      out.push(error(at, `Invalid ${o.attribute}`, `Got ${quoted(value)}; expected one of ${allowed.join(', ')}.`));
    } else if (o.number && (typeof value !== 'number' || !Number.isInteger(value))) {
      out.push(error(at, `Invalid ${o.attribute}`, `Got ${quoted(value)}; expected a whole number.`));
    } else if (!o.values && !o.number && typeof value !== 'string') {
      out.push(error(at, `Invalid ${o.attribute}`, `Got ${quoted(value)}; expected a string.`));
    } else {
      const expected = o.check?.(value as never, disk);
      if (expected !== undefined) out.push(error(at, `Invalid ${o.attribute}`, `Got ${quoted(value)}; expected ${expected}.`));
    }
  }
  if (disk.io === 'native' && disk.cache !== 'none' && disk.cache !== 'directsync')
    out.push(
      error(
        [...path, 'io'],
        'Native I/O needs direct access',
        `QEMU's native AIO works only with O_DIRECT: set cache to 'none' or 'directsync' (got ${disk.cache === undefined ? 'the default' : `'${disk.cache}'`}), or use io 'threads' or 'io_uring'.`,
      ),
    );
}
