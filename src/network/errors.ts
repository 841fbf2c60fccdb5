/** Thrown by `parseNetworkXml` for XML the network model cannot represent. */
export class NetworkXmlParseError extends Error {
  /** Where in the document, e.g. `network/ip[0]/@address`. */
  readonly at: string;

  constructor(at: string, problem: string) {
    super(`network XML ${at}: ${problem}`);
    this.name = 'NetworkXmlParseError';
    this.at = at;
  }
}
