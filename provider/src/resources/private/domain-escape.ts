/**
 * `virtseed_domain`'s escape hatch at apply and read (the `xml` block; pure parts in src/domain escape-hatch.ts
 * and xslt.ts): the final XML (typed render, extra devices, then the stylesheet), the digest of the definition an
 * apply leaves (kept in virtseed's `<metadata>` through virDomainSetMetadata, so no second define is needed), and
 * what a read finds of it. Design and limits: docs/devices.md "The escape hatch".
 */
import {
  ESCAPE_HATCH_KEYS,
  readNamespacedEntries,
  VIRTSEED_XML_NAMESPACE,
  XsltError,
  definitionDigest,
  extraDeviceElements,
  parseDomainXml,
  renderDomainXml,
  transformDomainXml,
  type DomainSpec,
} from '../../../../src/domain';
import {
  VIR_DOMAIN_AFFECT_CONFIG,
  VIR_DOMAIN_METADATA_ELEMENT,
  VIR_DOMAIN_XML_INACTIVE,
  type DomRef,
  type LibvirtClient,
} from '../../../../src/libvirt';
import { error, warning, type Diagnostic } from '../../../../src/diagnostics';
import { child, newParser, type XmlNode } from '../../../../src/xml';
import { usesEscapeHatch, xsltOf } from './domain-devices';
import { checkDomainSchema, libvirtSchemaDir } from './domain-schema';
import { toDomainSpec } from './domain-state';
import type { DomainState } from './model';
import { deepEqual, isWhollyKnown } from './values';

/**
 * The flags every read of a domain's definition uses: the persistent definition. Not VIR_DOMAIN_XML_SECURE:
 * libvirtd 9.0 takes about 0.5 ms more per call with it (measured: 300 defined domains read in 472 ms with it,
 * 404 ms without), so display passwords are not read back; a read keeps the state's (./domain-read.ts).
 */
export const DEFINITION_XML_FLAGS = VIR_DOMAIN_XML_INACTIVE;

/** What a domain's metadata says of its escape hatch. */
export interface RecordedEscapeHatch {
  readonly devices?: string;
  readonly xslt?: string;
  readonly digest?: string;
}

/** virtseed's metadata entries of a domain XML (any form libvirt returns), without parsing the domain model. */
export function virtseedEntries(xml: string): Record<string, string> {
  const domain = child(newParser().parse(xml, true) as XmlNode, 'domain');
  return readNamespacedEntries(child(domain, 'metadata'), VIRTSEED_XML_NAMESPACE, 'instance') ?? {};
}

/** The escape hatch a domain's XML records, or undefined when it has none (a cheap text check first). */
export function recordedEscapeHatch(xml: string): RecordedEscapeHatch | undefined {
  if (!xml.includes(`key="${ESCAPE_HATCH_KEYS.devices}"`) && !xml.includes(`key="${ESCAPE_HATCH_KEYS.xslt}"`)) return undefined;
  const entries = virtseedEntries(xml);
  const devices = entries[ESCAPE_HATCH_KEYS.devices];
  const xslt = entries[ESCAPE_HATCH_KEYS.xslt];
  const digest = entries[ESCAPE_HATCH_KEYS.digest];
  if (devices === undefined && xslt === undefined) return undefined;
  return {
    ...(devices !== undefined ? { devices } : {}),
    ...(xslt !== undefined ? { xslt } : {}),
    ...(digest !== undefined ? { digest } : {}),
  };
}

/**
 * The XML to define for `spec` (its `extraDevices` included) and the stylesheet `xslt`: the escape hatch is
 * recorded in the metadata, the stylesheet applied last.
 * @throws XsltError when the stylesheet fails, or its result loses the domain's name or virtseed's metadata.
 */
export async function finalDomainXml(spec: DomainSpec, xslt: string | undefined): Promise<string> {
  const recorded: Record<string, string> = { ...spec.metadata };
  if (spec.extraDevices !== undefined) recorded[ESCAPE_HATCH_KEYS.devices] = spec.extraDevices;
  if (xslt !== undefined) recorded[ESCAPE_HATCH_KEYS.xslt] = xslt;
  const withRecord: DomainSpec = spec.extraDevices !== undefined || xslt !== undefined ? { ...spec, metadata: recorded } : spec;
  const xml = renderDomainXml(withRecord);
  if (xslt === undefined) return xml;
  const out = await transformDomainXml(xml, xslt);
  let name: string | undefined;
  try {
    name = parseDomainXml(out, { extraDevices: spec.extraDevices }).name;
  } catch {
    // A form the typed model does not read is fine (the stylesheet's business); the name and metadata are not.
    name = /<name>([^<]*)<\/name>/.exec(out)?.[1];
  }
  if (name !== spec.name) throw new XsltError(`the result must keep <name>${spec.name}</name>`);
  if (!deepEqual(virtseedEntries(out), recorded))
    throw new XsltError(`the result must keep <metadata>'s virtseed element (namespace ${VIRTSEED_XML_NAMESPACE}) as it is`);
  return out;
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Records the digest of the domain's definition as libvirt holds it now (after the apply's define and start),
 * beside virtseed's other metadata entries: virDomainSetMetadata on the persistent definition only.
 */
export async function recordDefinitionDigest(client: LibvirtClient, dom: DomRef): Promise<void> {
  const xml = await client.domainGetXmlDesc(dom, DEFINITION_XML_FLAGS);
  const entries: Record<string, string> = { ...virtseedEntries(xml), [ESCAPE_HATCH_KEYS.digest]: definitionDigest(xml) };
  await setVirtseedEntries(client, dom, entries, VIR_DOMAIN_AFFECT_CONFIG);
}

/**
 * Replaces virtseed's `<metadata>` element of the domain with `entries` (virDomainSetMetadata), on the live domain
 * and/or the persistent definition per `affect` (VIR_DOMAIN_AFFECT_LIVE, VIR_DOMAIN_AFFECT_CONFIG).
 */
export async function setVirtseedEntries(
  client: LibvirtClient,
  dom: DomRef,
  entries: Readonly<Record<string, string>>,
  affect: number,
): Promise<void> {
  const body = Object.keys(entries)
    .sort()
    .map((k) => `<entry key="${escapeText(k)}">${escapeText(entries[k])}</entry>`)
    .join('');
  await client.domainSetMetadata(
    dom,
    VIR_DOMAIN_METADATA_ELEMENT,
    `<instance>${body}</instance>`,
    'virtseed',
    VIRTSEED_XML_NAMESPACE,
    affect,
  );
}

/** True when `xml` is still the definition whose digest the escape hatch recorded. */
export function unchangedSinceApply(xml: string, recorded: RecordedEscapeHatch | undefined): boolean {
  return recorded?.digest !== undefined && definitionDigest(xml) === recorded.digest;
}

/** Whether this process warned already that the schema check is skipped (one warning per plan). */
const WARNED_NO_SCHEMA = 'warned-no-libvirt-schema';

/**
 * The plan's checks of a domain's escape hatch (when the plan defines something new: `changed`): the stylesheet
 * applied to the planned XML (placeholders stand for the volumes the apply looks up), its result kept the name
 * and metadata, and the whole XML valid against libvirt's schema (./domain-schema.ts). `notes` holds what this
 * provider process has warned about already.
 */
export async function escapeHatchPlanDiagnostics(planned: DomainState, notes: Set<string>, changed: boolean): Promise<Diagnostic[]> {
  if (!changed || !usesEscapeHatch(planned) || !isWhollyKnown(planned.xml)) return [];
  const spec = toDomainSpec(planned, { disks: [] }); // built once for the checks below
  let xml: string;
  try {
    xml = await finalDomainXml(spec, xsltOf(planned));
  } catch (err) {
    if (err instanceof XsltError)
      return [
        error(
          ['xml', 'xslt'],
          'The stylesheet failed',
          `Applying xml.xslt to the domain XML failed: ${err.message.replace(/\.$/, '')}. Fix the stylesheet (XSLT 1.0; the message names the XPath expression or instruction at fault).`,
        ),
      ];
    return []; // the typed attributes' own problems are reported by validate
  }
  const xslt = xsltOf(planned);
  // Without the stylesheet too, when there is one: then a problem it adds is told apart from one of the devices.
  const [check, before] = await Promise.all([
    checkDomainSchema(xml),
    xslt !== undefined ? checkDomainSchema(await finalDomainXml(spec, undefined)) : undefined,
  ]);
  if (!check.checked) {
    if (notes.has(WARNED_NO_SCHEMA)) return [];
    notes.add(WARNED_NO_SCHEMA);
    return [
      warning(
        ['xml'],
        "Escape hatch not checked against libvirt's schema",
        `${check.reason}; libvirtd checks it at apply (VIR_DOMAIN_DEFINE_VALIDATE). Install libvirt-clients and libxml2-utils where Terraform runs to check it at plan.`,
      ),
    ];
  }
  const devicesFail = before === undefined ? check.errors.length > 0 : before.checked && before.errors.length > 0;
  if (!check.errors.length && !devicesFail) return [];
  if (devicesFail && spec.extraDevices !== undefined) {
    const blamed = await blameExtraDevices(spec, spec.extraDevices);
    if (blamed.length) return blamed.map((detail) => error(['xml', 'devices'], "Not valid against libvirt's domain schema", detail));
  }
  const path = devicesFail ? ['xml', 'devices'] : ['xml', 'xslt'];
  const errors = devicesFail && before?.checked ? before.errors : check.errors;
  return [
    error(
      path,
      "Not valid against libvirt's domain schema",
      `The domain XML with ${devicesFail ? 'the extra devices' : "the stylesheet's result"} does not match libvirt's domain.rng (${libvirtSchemaDir()}); xmllint's words, with line numbers of the domain XML virtseed renders (\`virsh dumpxml\` after an apply shows it):\n${errors.join('\n')}\nFix ${devicesFail ? 'the device elements in xml.devices' : 'the stylesheet in xml.xslt'} against https://libvirt.org/formatdomain.html.`,
    ),
  ];
}

/**
 * Which of the extra device elements libvirt's schema refuses, each alone in the planned domain, and which of its
 * attributes (the element without it is accepted): one sentence per refused element naming the element, its place
 * in `xml.devices`, the attribute and value when one is to blame, and the fix. Empty when none is refused alone
 * (or the schema cannot be checked): then the caller reports xmllint's own words.
 */
async function blameExtraDevices(spec: DomainSpec, devices: string): Promise<string[]> {
  const elements = extraDeviceElements(devices);
  const xmlWith = (fragment: string): Promise<string> => finalDomainXml({ ...spec, extraDevices: fragment }, undefined);
  const alone = await Promise.all(elements.map(async (e) => checkDomainSchema(await xmlWith(e.xml))));
  const out: string[] = [];
  for (const [i, element] of elements.entries()) {
    const result = alone[i];
    if (!result.checked || !result.errors.length) continue;
    const without = await Promise.all(element.attributes.map(async (a) => checkDomainSchema(await xmlWith(a.xmlWithout))));
    const culprits = element.attributes.filter(
      (_, j) => without[j].checked && !(without[j] as { errors: readonly string[] }).errors.length,
    );
    const where = `${element.xml} (element ${i + 1} of xml.devices)`;
    out.push(
      culprits.length
        ? `${where}: libvirt's schema does not accept ${culprits.map((a) => `${a.name}=${JSON.stringify(a.value)}`).join(' or ')} on <${element.name}>. Give a value libvirt documents for <${element.name}> (https://libvirt.org/formatdomain.html) or leave the attribute out.`
        : `${where}: libvirt's schema does not accept this <${element.name}> element (its attributes together, or a child element). Check it against https://libvirt.org/formatdomain.html.`,
    );
  }
  return out;
}
