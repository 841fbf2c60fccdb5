/**
 * The escape hatch's device half (issue 22): libvirt device elements the typed model does not cover, given as XML
 * text (`DomainSpec.extraDevices`), appended at the end of `<devices>`; their checks; and how a read finds them
 * again in what libvirt returns, so they show no drift and are not taken for typed devices. Also the digest that
 * tells a read whether a definition is still the one an apply left (../escape-hatch docs: docs/devices.md).
 * The XSLT half is ./xslt.ts. Pure.
 */
import { createHash } from 'node:crypto';
import type * as FastXml from 'fast-xml-parser';
import { error, type AttributePath, type Diagnostic } from '../diagnostics';
import { ATTR, TEXT, newBuilder, newParser, type XmlNode } from '../xml';
import { wellFormedProblem } from './well-formed';

/**
 * Keys of virtseed's `<metadata>` entries (../model.ts `DomainSpec.metadata`) that record a domain's escape hatch:
 * its extra devices and stylesheet verbatim (so a read and an import know them), and the definition digest an
 * apply left (`definitionDigest` of the inactive XML, taken after the apply; a read that finds the same digest
 * knows nothing changed the definition since).
 */
export const ESCAPE_HATCH_KEYS = { devices: 'xml-devices', xslt: 'xml-xslt', digest: 'xml-digest' } as const;

/**
 * The elements libvirt 9.0 accepts inside `<devices>` (domaincommon.rng "devices"). Others are refused at plan
 * (they would be rejected by libvirt's schema anyway, with a less precise message).
 */
const LIBVIRT_DEVICE_ELEMENTS: readonly string[] = [
  'disk',
  'controller',
  'lease',
  'filesystem',
  'interface',
  'input',
  'sound',
  'audio',
  'hostdev',
  'graphics',
  'video',
  'console',
  'serial',
  'parallel',
  'channel',
  'smartcard',
  'hub',
  'redirdev',
  'redirfilter',
  'rng',
  'tpm',
  'shmem',
  'memory',
  'iommu',
  'watchdog',
  'memballoon',
  'nvram',
  'panic',
  'vsock',
  'crypto',
];

/**
 * `xml` (a domain XML as ../render.ts writes it) with `extra` inserted before the closing `</devices>`.
 * @throws Error when `xml` has no `</devices>` (not a rendered domain).
 */
export function insertExtraDevices(xml: string, extra: string): string {
  const at = xml.lastIndexOf('</devices>');
  if (at < 0) throw new Error('insertExtraDevices: the domain XML has no </devices>');
  const indented = extra
    .trim()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  const lineStart = xml.lastIndexOf('\n', at) + 1;
  return `${xml.slice(0, lineStart)}${indented}\n${xml.slice(lineStart)}`;
}

/** The extra elements parsed inside a `<devices>` wrapper, or the reason they cannot be. */
function parseFragment(extra: string): { devices: XmlNode } | { problem: string } {
  // Checked as written (several top-level elements are fine), so the positions and names are the user's.
  const problem = extra.trim() === '' ? undefined : wellFormedProblem(extra);
  if (problem !== undefined) return { problem: `Not well-formed XML: ${problem}` };
  const wrapped = `<devices>${extra}</devices>`;
  const devices = (newParser().parse(wrapped, true) as XmlNode).devices;
  return { devices: devices !== null && typeof devices === 'object' ? (devices as XmlNode) : {} };
}

/** The element names of a parsed node (attributes, text and comments left out). */
function elementNames(node: XmlNode): string[] {
  return Object.keys(node).filter((k) => !k.startsWith(ATTR) && k !== TEXT && !k.startsWith('#'));
}

/**
 * The problems of an `extraDevices` value, on `path`: not well-formed, text outside elements, an element that is
 * not a libvirt device, or nothing at all. Whether the devices are valid is libvirt's schema's to say (at plan,
 * when the host has it) and libvirtd's (at apply).
 */
export function extraDevicesDiagnostics(extra: string, path: AttributePath): Diagnostic[] {
  const parsed = parseFragment(extra);
  if ('problem' in parsed)
    return [
      error(
        path,
        'Invalid device XML',
        `${parsed.problem}. Fix the XML and give one or more libvirt device elements, e.g. <sound model="ich9"/>.`,
      ),
    ];
  const out: Diagnostic[] = [];
  const text = parsed.devices[TEXT];
  if (typeof text === 'string' && text.trim() !== '')
    out.push(
      error(path, 'Invalid device XML', `Text outside elements (${JSON.stringify(text.trim().slice(0, 40))}); give device elements only.`),
    );
  const names = elementNames(parsed.devices);
  if (!names.length)
    out.push(error(path, 'Invalid device XML', 'No element found; give one or more libvirt device elements, e.g. <sound model="ich9"/>.'));
  for (const name of names)
    if (!LIBVIRT_DEVICE_ELEMENTS.includes(name))
      out.push(
        error(
          path,
          'Not a libvirt device element',
          `<${name}> cannot go inside <devices>; expected one of ${LIBVIRT_DEVICE_ELEMENTS.map((n) => `<${n}>`).join(', ')}. Change other parts of the domain with the XSLT transform.`,
        ),
      );
  return out;
}

function asNodes(value: unknown): XmlNode[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((v) =>
    v !== null && typeof v === 'object' ? (v as XmlNode) : { [TEXT]: String(v ?? '') },
  );
}

/** True when `actual` has every attribute, text and (recursively) child element of `wanted`. */
function covers(actual: XmlNode, wanted: XmlNode): boolean {
  for (const key of Object.keys(wanted)) {
    if (key.startsWith(ATTR)) {
      if (actual[key] !== wanted[key]) return false;
    } else if (key === TEXT) {
      const text = String(wanted[key]).trim();
      if (text !== '' && String(actual[TEXT] ?? '').trim() !== text) return false;
    } else if (!key.startsWith('#')) {
      const pool = asNodes(actual[key]);
      const used = new Set<number>();
      for (const w of asNodes(wanted[key])) {
        const i = pool.findIndex((p, j) => !used.has(j) && covers(p, w));
        if (i < 0) return false;
        used.add(i);
      }
    }
  }
  return true;
}

/** One top-level element of an `extraDevices` value, for telling which of them a schema refuses. */
export interface ExtraDeviceElement {
  /** The element's name, e.g. `panic`. */
  readonly name: string;
  /** The element as XML (attributes in double quotes). */
  readonly xml: string;
  /** Each of its own attributes with the element's XML without that attribute. */
  readonly attributes: readonly { readonly name: string; readonly value: string; readonly xmlWithout: string }[];
}

/** The top-level elements of `extra` in order (comments and text left out); empty when it is not well-formed. */
export function extraDeviceElements(extra: string): ExtraDeviceElement[] {
  if (wellFormedProblem(extra) !== undefined) return [];
  const options = { preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: ATTR, trimValues: false, parseTagValue: false };
  const nodes = new (fxp().XMLParser)({ ...options, parseAttributeValue: false }).parse(extra) as XmlNode[];
  const builder = new (fxp().XMLBuilder)({ ...options, suppressEmptyNode: true });
  const build = (node: XmlNode): string => builder.build([node]) as string;
  return nodes.flatMap((node) => {
    const name = Object.keys(node).find((k) => !k.startsWith('#') && k !== ':@');
    if (name === undefined) return [];
    const attrs = (node[':@'] ?? {}) as Record<string, string>;
    return [
      {
        name,
        xml: build(node),
        attributes: Object.keys(attrs).map((key) => {
          const rest = Object.fromEntries(Object.entries(attrs).filter(([k]) => k !== key));
          return { name: key.slice(ATTR.length), value: attrs[key], xmlWithout: build({ [name]: node[name], ':@': rest }) };
        }),
      },
    ];
  });
}

/** fast-xml-parser, loaded on first use (start-up time, issue #15). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, for start-up time (issue #15)
const fxp = (): typeof FastXml => require('fast-xml-parser') as typeof FastXml;

/** Where a read found the extra device elements. */
export interface ExtraDevicesMatch {
  /** `devices` without the elements that stand for extra devices (what the typed parse reads). */
  readonly rest: XmlNode;
  /** `extra` itself when every element was found; else the XML of those found (or undefined when none was). */
  readonly found: string | undefined;
}

/**
 * Finds the extra device elements in `devices` (a parsed `<devices>` as libvirt returns it): each one is matched
 * to a distinct element of its name that has all its attributes, text and child elements (libvirt adds addresses,
 * aliases and defaults). `extra` that is not well-formed is found nowhere.
 */
export function matchExtraDevices(devices: XmlNode | undefined, extra: string): ExtraDevicesMatch {
  const parsed = parseFragment(extra);
  const rest: XmlNode = { ...(devices ?? {}) };
  if ('problem' in parsed) return { rest, found: undefined };
  const found: XmlNode = {};
  let all = true;
  for (const name of elementNames(parsed.devices)) {
    const pool = asNodes(rest[name]);
    for (const wanted of asNodes(parsed.devices[name])) {
      const i = pool.findIndex((p) => covers(p, wanted));
      if (i < 0) {
        all = false;
        continue;
      }
      pool.splice(i, 1);
      found[name] = [...asNodes(found[name]), wanted];
    }
    if (pool.length) rest[name] = pool;
    else delete rest[name];
  }
  if (all) return { rest, found: extra };
  return { rest, found: elementNames(found).length ? (newBuilder().build(found) as string).trim() : undefined };
}

/**
 * A digest of a domain definition as libvirt returns it, without its `<metadata>` element (where virtseed keeps
 * the digest itself): sha256, hex. Equal digests mean the same definition, byte for byte.
 */
export function definitionDigest(xml: string): string {
  const withoutMetadata = xml.replace(/^ {2}<metadata\/>\n|^ {2}<metadata>\n[\s\S]*?^ {2}<\/metadata>\n/m, '');
  return createHash('sha256').update(withoutMetadata).digest('hex');
}
