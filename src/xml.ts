/**
 * fast-xml-parser settings and accessors for the tree it produces, shared by the libvirt XML of domains (src/domain)
 * and networks (src/network), both ways.
 * Attributes are keys prefixed `@_`, text is `#text`; all values stay strings.
 */
import type { XMLBuilder, XMLParser } from 'fast-xml-parser';
import type * as FastXml from 'fast-xml-parser';

/** fast-xml-parser, loaded on first use rather than at provider start-up (issue #15). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, for start-up time (issue #15)
const fxp = (): typeof FastXml => require('fast-xml-parser') as typeof FastXml;

export const ATTR = '@_';
export const TEXT = '#text';

/** A parsed element: attributes (`@_name`), text (`#text`) and child elements (one object or an array). */
export type XmlNode = { [key: string]: unknown };

export function newBuilder(): XMLBuilder {
  return new (fxp().XMLBuilder)({
    ignoreAttributes: false,
    attributeNamePrefix: ATTR,
    textNodeName: TEXT,
    format: true,
    indentBy: '  ',
    suppressEmptyNode: true,
  });
}

/**
 * Entities a parse decodes: XML's five named ones and numeric character references (libxml2 writes `&#13;`,
 * `&#10;` in attributes), which are all libvirt's XML (libxml2) ever has. fast-xml-parser decodes numeric references
 * only with `htmlEntities`; given as an object, its named entities are that object's (none here) instead of HTML's
 * 250, whose decoder it would otherwise build at every parse (about half of a domain definition's parse, issue 38).
 * test/xml.test.ts holds what is decoded.
 */
const NO_HTML_NAMED_ENTITIES = {} as unknown as boolean; // typed boolean, the object form is read (OrderedObjParser)

export function newParser(): XMLParser {
  return new (fxp().XMLParser)({
    ignoreAttributes: false,
    attributeNamePrefix: ATTR,
    textNodeName: TEXT,
    // Keep whitespace: kernel command lines and metadata values are taken verbatim.
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    htmlEntities: NO_HTML_NAMED_ENTITIES,
    alwaysCreateTextNode: false,
    // No callbacks here: the parser need not build each element's path as a string for them.
    jPath: false,
  });
}

/** Child elements named `name` (none, one or many), as an array of nodes; text-only children become `{#text}`. */
export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(asNode);
}

/** The first child element named `name`, if any. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return children(node, name)[0];
}

/** An attribute's value. */
export function attr(node: XmlNode | undefined, name: string): string | undefined {
  const value = node?.[ATTR + name];
  return typeof value === 'string' ? value : undefined;
}

/** The element's text, verbatim. */
export function rawText(node: XmlNode | undefined): string | undefined {
  const value = node?.[TEXT];
  return typeof value === 'string' ? value : node ? '' : undefined;
}

/** The element's text with surrounding whitespace removed. */
export function text(node: XmlNode | undefined): string | undefined {
  return rawText(node)?.trim();
}

function asNode(value: unknown): XmlNode {
  if (value !== null && typeof value === 'object') return value as XmlNode;
  return { [TEXT]: value === undefined || value === null ? '' : String(value) };
}
