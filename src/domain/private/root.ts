/** The root `<domain>` element of a domain's XML, shared by parse.ts (full read) and summary.ts (tolerant read). */
import { DomainXmlParseError } from '../errors';
import { child, newParser, text, type XmlNode } from '../../xml';

/**
 * The `<domain>` element of `xml` (formatdomain).
 * @throws DomainXmlParseError at `(document)` when `xml` is not well-formed or its root is not `<domain>`.
 */
export function domainRoot(xml: string): XmlNode {
  let document: XmlNode;
  try {
    document = newParser().parse(xml, true) as XmlNode;
  } catch (err) {
    throw new DomainXmlParseError('(document)', `not well-formed XML: ${(err as Error).message}`);
  }
  const domain = child(document, 'domain');
  if (!domain) throw new DomainXmlParseError('(document)', 'the root element is not <domain>');
  return domain;
}

/**
 * The text of `<domain><name>`.
 * @throws DomainXmlParseError at `domain/name` when it is missing or empty.
 */
export function domainName(domain: XmlNode): string {
  const name = text(child(domain, 'name'));
  if (!name) throw new DomainXmlParseError('domain/name', 'missing');
  return name;
}
