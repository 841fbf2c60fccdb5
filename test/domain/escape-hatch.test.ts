/**
 * The escape hatch in the domain model: extra device elements found again in what libvirt returns (and kept out
 * of the typed devices), the definition digest, and the XSLT transform (src/domain/escape-hatch.ts, xslt.ts).
 */
import {
  definitionDigest,
  extraDeviceElements,
  extraDevicesDiagnostics,
  matchExtraDevices,
  parseDomainXml,
  renderDomainXml,
  stylesheetDiagnostics,
  transformDomainXml,
  XsltError,
  type DomainSpec,
} from '../../src/domain';
import { newParser, type XmlNode } from '../../src/xml';

const BASE: DomainSpec = { name: 'vstest-devices-hatch', type: 'qemu', memoryMiB: 256, vcpu: 1, disks: [], interfaces: [] };

/** `<devices>` as libvirt 9.0 returns it for a domain defined with `<sound model='ich9'/>` and an extra rng. */
const LIBVIRT_DEVICES = `<devices>
  <sound model='ich9'><address type='pci' domain='0x0000' bus='0x00' slot='0x04' function='0x0'/></sound>
  <audio id='1' type='none'/>
  <rng model='virtio'><backend model='random'>/dev/urandom</backend><address type='pci' domain='0x0000' bus='0x00' slot='0x05' function='0x0'/></rng>
</devices>`;

const devicesNode = (xml: string) => (newParser().parse(xml, true) as { devices: XmlNode }).devices;

describe('extra devices found again', () => {
  test('GIVEN elements libvirt returned with addresses added WHEN matched THEN all are found and kept out of the rest', () => {
    const extra = "<sound model='ich9'/><rng model='virtio'><backend model='random'>/dev/urandom</backend></rng>";
    const match = matchExtraDevices(devicesNode(LIBVIRT_DEVICES), extra);
    expect({ found: match.found, rest: Object.keys(match.rest).filter((k) => !k.startsWith('#')) }).toEqual({
      found: extra,
      rest: ['audio'],
    });
  });

  test('GIVEN one element removed outside Terraform WHEN matched THEN only the others are found', () => {
    const match = matchExtraDevices(devicesNode(LIBVIRT_DEVICES), '<sound model="ich9"/><panic model="isa"/>');
    expect(match.found).toBe('<sound model="ich9"/>');
  });

  test('GIVEN an extra rng WHEN the domain is parsed with it THEN it is not read as the typed rng', () => {
    const spec: DomainSpec = { ...BASE, extraDevices: '<rng model="virtio"><backend model="random">/dev/hwrng</backend></rng>' };
    expect(parseDomainXml(renderDomainXml(spec), { extraDevices: spec.extraDevices })).toStrictEqual(spec);
  });

  test('GIVEN an extra rng WHEN the domain is parsed without knowing it THEN it is the typed rng (the escape hatch must be told)', () => {
    const xml = renderDomainXml({ ...BASE, extraDevices: '<rng model="virtio"><backend model="random">/dev/hwrng</backend></rng>' });
    expect(parseDomainXml(xml).rng).toEqual({ source: '/dev/hwrng' });
  });
});

describe('definition digest', () => {
  const xml = (metadata: string, memory: number) =>
    `<domain type='qemu'>\n  <name>x</name>\n  <metadata>\n    <virtseed:instance xmlns:virtseed="https://virtseed.dev/xmlns/domain/1">${metadata}</virtseed:instance>\n  </metadata>\n  <memory unit='KiB'>${memory}</memory>\n</domain>\n`;

  test('GIVEN two definitions that differ only in <metadata> WHEN digested THEN the digests are equal', () => {
    expect(definitionDigest(xml('a', 1024))).toBe(definitionDigest(xml('b', 1024)));
  });

  test('GIVEN two definitions that differ outside <metadata> WHEN digested THEN the digests differ', () => {
    expect(definitionDigest(xml('a', 1024))).not.toBe(definitionDigest(xml('a', 2048)));
  });
});

describe('XSLT', () => {
  const identityPlus = (inner: string) => `<?xml version="1.0"?>
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output omit-xml-declaration="yes" indent="yes"/>
  <xsl:template match="node()|@*"><xsl:copy><xsl:apply-templates select="node()|@*"/></xsl:copy></xsl:template>
  ${inner}
</xsl:stylesheet>`;

  test('GIVEN a stylesheet that adds a device (as libvirt provider 0.8 users write them) WHEN applied THEN the device is in <devices> and the rest is kept', async () => {
    const xslt = identityPlus(
      '<xsl:template match="/domain/devices"><xsl:copy><xsl:apply-templates select="node()|@*"/><sound model="ich9"/></xsl:copy></xsl:template>',
    );
    const spec: DomainSpec = { ...BASE, metadata: { 'instance-id': 'i-1' } };
    const parsed = parseDomainXml(await transformDomainXml(renderDomainXml(spec), xslt), { extraDevices: '<sound model="ich9"/>' });
    expect(parsed).toStrictEqual({ ...spec, extraDevices: '<sound model="ich9"/>' });
  });

  test('GIVEN a stylesheet that changes an attribute WHEN applied THEN the attribute has the new value', async () => {
    const xslt = identityPlus('<xsl:template match="/domain/on_crash/text()">preserve</xsl:template>');
    expect(parseDomainXml(await transformDomainXml(renderDomainXml(BASE), xslt)).onCrash).toBe('preserve');
  });

  test('GIVEN the same input twice WHEN transformed THEN the output is the same (deterministic)', async () => {
    const xslt = identityPlus('<xsl:template match="/domain/title"/>');
    const xml = renderDomainXml({ ...BASE, title: 't' });
    expect(await transformDomainXml(xml, xslt)).toBe(await transformDomainXml(xml, xslt));
  });

  test('GIVEN a stylesheet that reads another file WHEN checked THEN an error says it is not supported', () => {
    expect(stylesheetDiagnostics(identityPlus('<xsl:include href="other.xsl"/>'), ['xml', 'xslt'])).toEqual([
      expect.objectContaining({ severity: 'error', path: ['xml', 'xslt'], summary: 'Stylesheet loads other files' }),
    ]);
  });

  test('GIVEN a document that is no stylesheet WHEN checked THEN an error names the namespace it needs', () => {
    expect(stylesheetDiagnostics('<domain/>', ['xml', 'xslt'])).toEqual([
      expect.objectContaining({ severity: 'error', detail: expect.stringContaining('http://www.w3.org/1999/XSL/Transform') }),
    ]);
  });

  test('GIVEN a stylesheet that is not well-formed WHEN checked THEN the error gives the line', () => {
    expect(
      stylesheetDiagnostics(
        '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">\n<xsl:template></xsl:stylesheet>',
        ['x'],
      ),
    ).toEqual([expect.objectContaining({ detail: expect.stringMatching(/line 2/) })]);
  });

  test('GIVEN a stylesheet that outputs only text WHEN applied THEN it fails saying a <domain> is needed', async () => {
    const xslt =
      '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/">text</xsl:template></xsl:stylesheet>';
    await expect(transformDomainXml(renderDomainXml(BASE), xslt)).rejects.toThrow(XsltError);
  });
});

describe('escape-hatch messages name what the user wrote', () => {
  const XSL = 'xmlns:xsl="http://www.w3.org/1999/XSL/Transform"';

  test('GIVEN extra devices with an unclosed element WHEN checked THEN the message names that element at its own line and column, once punctuated, and no wrapper', () => {
    const [d] = extraDevicesDiagnostics('<sound model="ich9"/>\n<panic model="isa">', ['xml', 'devices']);
    expect(d.detail).toBe(
      'Not well-formed XML: <panic> opened at line 2, column 1 is never closed (the text ends at line 2, column 20). ' +
        'Fix the XML and give one or more libvirt device elements, e.g. <sound model="ich9"/>.',
    );
  });

  test('GIVEN extra devices with a mismatched closing tag WHEN checked THEN the message names both elements and no <devices>', () => {
    const [d] = extraDevicesDiagnostics('<rng model="virtio"><backend model="random">/dev/urandom</rng>', ['xml', 'devices']);
    expect(d.detail).toMatch(/^Not well-formed XML: <\/rng> at line 1, column 57 closes <backend>, opened at line 1, column 21\. Fix/);
    expect(d.detail).not.toMatch(/devices'|\.\./);
  });

  test('GIVEN a stylesheet that is never closed WHEN checked THEN the message says so and where the text ends, not position 1:1 alone', () => {
    const [d] = stylesheetDiagnostics(`<xsl:stylesheet version="1.0" ${XSL}>\n<xsl:template match="/"/>\n`, ['xml', 'xslt']);
    expect(d.detail).toMatch(
      /^Not well-formed XML: <xsl:stylesheet> opened at line 1, column 1 is never closed \(the text ends at line 3, column 1\)\. Fix/,
    );
    expect(d.detail).not.toMatch(/\.\./);
  });

  test('GIVEN a stylesheet followed by a second root element WHEN checked THEN it is refused naming both roots', () => {
    const [d] = stylesheetDiagnostics(`<xsl:stylesheet version="1.0" ${XSL}/><extra/>`, ['xml', 'xslt']);
    expect(d.detail).toMatch(/a stylesheet has one root element; found 2: <xsl:stylesheet>, <extra>/);
  });

  test('GIVEN extra devices WHEN split into elements THEN each element, and each attribute left out in turn, is given', () => {
    expect(extraDeviceElements("<sound model='ich9'/>\n<!-- c --><panic model='bogus'/>")).toEqual([
      { name: 'sound', xml: '<sound model="ich9"/>', attributes: [{ name: 'model', value: 'ich9', xmlWithout: '<sound/>' }] },
      { name: 'panic', xml: '<panic model="bogus"/>', attributes: [{ name: 'model', value: 'bogus', xmlWithout: '<panic/>' }] },
    ]);
  });
});
