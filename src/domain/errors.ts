/** Thrown by `parseDomainXml` when the XML is not a domain, or uses a construct the model cannot represent. */
export class DomainXmlParseError extends Error {
  /** Where in the document, e.g. `domain/devices/disk[1]`. */
  readonly location: string;

  constructor(location: string, message: string) {
    super(`${location}: ${message}`);
    this.name = 'DomainXmlParseError';
    this.location = location;
  }
}
