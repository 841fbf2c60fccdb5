/**
 * Option tables: the flat options of a device (a disk's cache, a NIC's MTU, ...), each described once by where
 * libvirt keeps it in the device's XML element, its allowed values (the field table's `values`) or that it is a
 * whole number, and what libvirt or QEMU refuses beyond that. Render (`renderOptions`), parse (`readOptions`), the
 * checks (`validateOptions`), the provider's state ⇄ model mapping and the constructs' spec loop over a table;
 * the tables are ./disk-options.ts `DISK_OPTIONS`, ./nic-options.ts `NIC_OPTIONS` and ./device-options.ts (TPM,
 * watchdog, RNG, input). Pure.
 */
import { error, type AttributePath, type Diagnostic } from '../diagnostics';
import { ATTR, TEXT, attr, children, text, type XmlNode } from '../xml';
import { DomainXmlParseError } from './errors';

/**
 * One option: `attribute`, the block attribute of `virtseed_domain` (snake_case; its key in the table is the model's
 * and the constructs' camelCase name); `label`, how a diagnostic names it (default: `attribute`); `element`, the
 * child of the device element that holds it (`a/b`: `<a><b>`; absent: the device element itself), and `xml`, its
 * attribute there (absent: the element's text); `values`, the field table's allowed values (a string option), or
 * `number` (a whole number, in `min`–`max` when given); `default`, the value libvirt assumes without it (parse
 * leaves it out; the state shows it; `written`: render writes it when the model has none, as libvirt's own default
 * differs); `required`, the model always holds it (parse keeps it at its default, `default` is then what a new
 * device gets and `absent` what libvirt means when the XML lacks it; neither: the XML must have it); `check`, what
 * libvirt or QEMU refuses beyond that, given the value and the device (a sentence of what is expected, or undefined
 * when the value is fine).
 */
export interface OptionSpec<Device = never> {
  readonly attribute: string;
  readonly label?: string;
  readonly element?: string;
  readonly xml?: string;
  readonly values?: { readonly [value: string]: string };
  readonly number?: true;
  /** With `max`: the range of a number option. */
  readonly min?: number;
  readonly max?: number;
  readonly default?: string | number;
  readonly written?: true;
  readonly required?: true;
  readonly absent?: string;
  /** (Method syntax: an entry's check takes the value of its own kind.) */
  check?(value: string | number, device: Device): string | undefined;
}

/** A table of options, by model key. */
export type OptionTable<Device = never> = { readonly [key: string]: OptionSpec<Device> };

/** The value of an option in the model: one of the table's values, a number, or a string. */
export type OptionValue<O> = O extends { values: infer V } ? keyof V & string : O extends { number: true } ? number : string;

/** A device's options in the model: the `required` ones always there, the others optional. */
export type OptionsOf<T> = Flat<
  { -readonly [K in keyof T as T[K] extends { required: true } ? K : never]: OptionValue<T[K]> } & {
    -readonly [K in keyof T as T[K] extends { required: true } ? never : K]?: OptionValue<T[K]>;
  }
>;

/** An intersection as one object type (optional keys stay optional). */
type Flat<T> = { [K in keyof T]: T[K] };

/** A table's options as [model key, description] pairs, in table order. */
export function optionEntries<T extends OptionTable<D>, D>(table: T): [keyof T & string, OptionSpec<D>][] {
  return Object.keys(table).map((key) => [key, table[key]]);
}

/** Writes the options `values` has into the device element `element` (creating the children it needs). */
export function renderOptions<T extends OptionTable<D>, D>(table: T, values: OptionsOf<T>, element: XmlNode): void {
  const given = new Map<string, unknown>(Object.entries(values));
  for (const [key, o] of optionEntries<T, D>(table)) {
    const value: unknown = given.get(key) ?? (o.written ? o.default : undefined);
    if (value === undefined) continue;
    let holder = element;
    for (const step of stepsOf(o)) holder = childNode(holder, step);
    if (o.xml === undefined) holder[TEXT] = String(value);
    else holder[`${ATTR}${o.xml}`] = String(value);
  }
}

/** The child elements from the device element down to the one that holds the option. */
function stepsOf(o: OptionSpec<never>): string[] {
  return o.element === undefined ? [] : o.element.split('/');
}

/** `parent`'s child element `name` as an object, made when missing. */
function childNode(parent: XmlNode, name: string): XmlNode {
  const existing = parent[name];
  if (isNode(existing)) return existing;
  const made: XmlNode = {};
  parent[name] = made;
  return made;
}

function isNode(value: unknown): value is XmlNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The options of a parsed device element (`where`: its XPath, for errors), without those at their default. Throws
 * DomainXmlParseError for a value the table does not allow, a number that is not one, or an element the model holds
 * once that occurs more than once.
 */
export function readOptions<T extends OptionTable<D>, D>(table: T, node: XmlNode, where: string): OptionsOf<T> {
  const out: { [key: string]: string | number } = {};
  for (const [key, o] of optionEntries(table)) {
    let holder: XmlNode | undefined = node;
    let path = where;
    for (const step of stepsOf(o)) {
      const found = children(holder, step);
      path = `${path}/${step}`;
      if (found.length > 1) throw new DomainXmlParseError(path, `more than one <${step}> (the model holds one ${o.attribute})`);
      holder = found[0];
    }
    const raw = (o.xml === undefined ? text(holder) || undefined : attr(holder, o.xml)) ?? o.absent;
    const at = o.xml === undefined ? path : `${path}/@${o.xml}`;
    if (raw === undefined && o.required) throw new DomainXmlParseError(at, `missing ${o.label ?? o.attribute}`);
    if (raw === undefined || (o.default !== undefined && raw === String(o.default) && !o.required)) continue;
    if (o.values && !(raw in o.values))
      throw new DomainXmlParseError(at, `unsupported ${o.label ?? o.attribute} '${raw}' (expected ${Object.keys(o.values).join(', ')})`);
    if (o.number && !/^\d+$/.test(raw)) throw new DomainXmlParseError(at, `${o.label ?? o.attribute} '${raw}' is not a whole number`);
    out[key] = o.number ? Number(raw) : raw;
  }
  // Built key by key, each value checked against its entry.
  return out as OptionsOf<T>;
}

/**
 * The checks of a device's options (`path`: the device's attribute path, `device`: what a check may look at beside
 * the value): allowed values, whole numbers and their range, and each entry's `check`.
 */
export function validateOptions<T extends OptionTable<D>, D>(
  table: T,
  values: OptionsOf<T>,
  device: D,
  path: AttributePath,
  out: Diagnostic[],
): void {
  const given = new Map<string, unknown>(Object.entries(values));
  for (const [key, o] of optionEntries<T, D>(table)) {
    const value: unknown = given.get(key);
    if (value === undefined) continue;
    const invalid = (expected: string) =>
      out.push(error([...path, key], `Invalid ${o.label ?? o.attribute}`, `Got ${JSON.stringify(value)}; expected ${expected}.`));
    if (o.values) {
      if (typeof value !== 'string' || !(value in o.values))
        invalid(
          `one of ${Object.keys(o.values)
            .map((v) => `'${v}'`)
            .join(', ')}`,
        );
      else checked(o, value, device, invalid);
    } else if (o.number) {
      if (typeof value !== 'number' || !Number.isInteger(value)) invalid('a whole number');
      else if (o.min !== undefined && o.max !== undefined && (value < o.min || value > o.max))
        invalid(`a whole number from ${o.min} to ${o.max}`);
      else checked(o, value, device, invalid);
    } else if (typeof value !== 'string') invalid('a string');
    else checked(o, value, device, invalid);
  }
}

/** Runs the entry's own check on a value of its kind. */
function checked<D>(o: OptionSpec<D>, value: string | number, device: D, invalid: (expected: string) => void): void {
  const expected = o.check?.(value, device);
  if (expected !== undefined) invalid(expected);
}
