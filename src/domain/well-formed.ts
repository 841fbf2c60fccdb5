/**
 * Why an XML text the user wrote (an escape hatch's device elements or stylesheet) is not well-formed, worded with
 * the user's own lines and columns and without fast-xml-parser's trailing period: one sentence fragment, for a
 * diagnostic that adds the fix. Pure.
 */
import type * as FastXml from 'fast-xml-parser';

/** fast-xml-parser, loaded on first use (start-up time, issue #15). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, for start-up time (issue #15)
const fxp = (): typeof FastXml => require('fast-xml-parser') as typeof FastXml;

/** Line and column (1-based) just past the end of `text`. */
function endOf(text: string): string {
  const lines = text.split('\n');
  return `line ${lines.length}, column ${lines[lines.length - 1].length + 1}`;
}

/**
 * The problem of `text` as XML, or undefined when it is well-formed. Several top-level elements are allowed (a
 * fragment); `singleRoot` names the document (e.g. 'a stylesheet') when exactly one root element is required.
 * Positions are those of `text` itself (line, column; 1-based).
 */
export function wellFormedProblem(text: string, singleRoot?: string): string | undefined {
  const validation = fxp().XMLValidator.validate(text);
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    const bare = msg.replace(/\.$/, '');
    const unclosed = /^Unclosed tag '([^']+)'$/.exec(bare);
    if (unclosed) return `<${unclosed[1]}> opened at line ${line}, column ${col} is never closed (the text ends at ${endOf(text)})`;
    const mismatch = /^Expected closing tag '([^']+)' \(opened in line (\d+), col (\d+)\) instead of closing tag '([^']+)'$/.exec(bare);
    if (mismatch)
      return `</${mismatch[4]}> at line ${line}, column ${col} closes <${mismatch[1]}>, opened at line ${mismatch[2]}, column ${mismatch[3]}`;
    if (validation.err.code === 'InvalidXml' && text.trim() === '') return 'the text is empty';
    return `${bare} (line ${line}${col !== undefined ? `, column ${col}` : ''})`;
  }
  if (singleRoot === undefined) return undefined;
  const roots = topLevelElements(text);
  if (roots.length > 1) return `${singleRoot} has one root element; found ${roots.length}: ${roots.map((r) => `<${r}>`).join(', ')}`;
  return undefined;
}

/** The names of the top-level elements of a well-formed `text`, in order. */
function topLevelElements(text: string): string[] {
  const parser = new (fxp().XMLParser)({ preserveOrder: true, ignoreAttributes: true, ignoreDeclaration: true, ignorePiTags: true });
  const nodes = parser.parse(text) as Record<string, unknown>[];
  return nodes.flatMap((node) => Object.keys(node).filter((k) => !k.startsWith('#') && k !== ':@'));
}
