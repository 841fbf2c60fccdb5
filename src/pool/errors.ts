/** Thrown by `parsePoolXml` for XML the pool model cannot represent. */
export class PoolXmlParseError extends Error {
  /** Where in the document, e.g. `pool/@type`. */
  readonly at: string;

  constructor(at: string, problem: string) {
    super(`storage pool XML ${at}: ${problem}`);
    this.name = 'PoolXmlParseError';
    this.at = at;
  }
}
