/**
 * The escape hatch's transform half (issue 22): an XSLT 1.0 stylesheet applied to the final domain XML, as the
 * libvirt Terraform provider 0.8 applied `xml { xslt }` with xsltproc, here in-process with the npm package
 * `xslt-processor` (no host tool needed). Deterministic: the output depends only on the XML and the stylesheet;
 * `xsl:import`/`xsl:include` and `document()` are refused (nothing is fetched). Pure.
 */
import { error, type AttributePath, type Diagnostic } from '../diagnostics';
import type * as XsltProcessor from 'xslt-processor';
import { wellFormedProblem } from './well-formed';

/** xslt-processor, loaded on first use (start-up time, issue #15). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, for start-up time (issue #15)
const xsltModule = (): typeof XsltProcessor => require('xslt-processor') as typeof XsltProcessor;

const XSL_NAMESPACE = 'http://www.w3.org/1999/XSL/Transform';

/** Thrown when a stylesheet cannot be applied; `message` says why, for a diagnostic. */
export class XsltError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XsltError';
  }
}

/**
 * The problems of a stylesheet that show without applying it, on `path`: not well-formed, not an
 * `xsl:stylesheet`/`xsl:transform` of XSLT's namespace, or one that would load other files.
 */
export function stylesheetDiagnostics(stylesheet: string, path: AttributePath): Diagnostic[] {
  const problem = wellFormedProblem(stylesheet, 'a stylesheet');
  if (problem !== undefined)
    return [
      error(
        path,
        'Invalid XSLT stylesheet',
        `Not well-formed XML: ${problem}. Fix the stylesheet's XML (line and column are the stylesheet's own).`,
      ),
    ];
  const root = /<([A-Za-z_][\w.-]*:)?(stylesheet|transform)\b[^>]*>/.exec(stylesheet);
  const prefix = root?.[1] ?? '';
  const declares =
    root &&
    new RegExp(`xmlns${prefix ? `:${prefix.slice(0, -1)}` : ''}\\s*=\\s*["']${XSL_NAMESPACE.replace(/[./]/g, '\\$&')}["']`).test(root[0]);
  if (!root || !declares)
    return [
      error(
        path,
        'Invalid XSLT stylesheet',
        `The root element must be xsl:stylesheet (or xsl:transform) in the namespace ${XSL_NAMESPACE}, as in <xsl:stylesheet version="1.0" xmlns:xsl="${XSL_NAMESPACE}">.`,
      ),
    ];
  if (new RegExp(`<${prefix}(import|include)\\b`).test(stylesheet) || /\bdocument\s*\(/.test(stylesheet))
    return [
      error(
        path,
        'Stylesheet loads other files',
        'xsl:import, xsl:include and document() are not supported: the transform must not depend on anything but the stylesheet itself. Inline what they load.',
      ),
    ];
  return [];
}

/**
 * Applies `stylesheet` to `xml` (XSLT 1.0; output method xml). Resolves with the transformed document (without an
 * XML declaration).
 * @throws XsltError when the stylesheet fails (e.g. an XPath error) or produces no element.
 */
export async function transformDomainXml(xml: string, stylesheet: string): Promise<string> {
  const { Xslt, XmlParser } = xsltModule();
  const refuse = (uri: string): never => {
    throw new XsltError(`the stylesheet tried to load ${uri}; only the stylesheet itself is used`);
  };
  const xslt = new Xslt({
    cData: true,
    escape: true,
    selfClosingTags: true,
    outputMethod: 'xml',
    fetchFunction: (uri) => Promise.reject(new XsltError(`the stylesheet tried to load ${uri}; only the stylesheet itself is used`)),
    documentLoader: refuse,
  });
  const parser = new XmlParser();
  let out: string;
  try {
    out = await xslt.xsltProcess(parser.xmlParse(xml), parser.xmlParse(stylesheet));
  } catch (err) {
    throw err instanceof XsltError ? err : new XsltError((err as Error).message);
  }
  const result = out.replace(/^<\?xml[^>]*\?>\s*/, '').trim();
  if (!result.startsWith('<')) throw new XsltError('the stylesheet produced no element (the result must be a <domain>)');
  return result;
}
