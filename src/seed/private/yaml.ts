/** YAML helpers shared by the seed renderers: one stable output style, and parsing with positioned errors. */
import { parseDocument, stringify } from 'yaml';

/** A YAML syntax problem at a 1-based line and column. */
export interface YamlProblem {
  message: string;
  line: number;
  col: number;
}

/**
 * Stable YAML: map keys sorted at every level, no anchors/aliases, no line folding, `undefined` dropped.
 * Written with YAML 1.1 quoting rules because cloud-init reads it with PyYAML (YAML 1.1): strings such as
 * `52:54:00:12:34:56` (a base-60 integer in 1.1), `yes`, `on` or `0644` are quoted. The same value always gives
 * the same text.
 */
export function stableYaml(value: unknown): string {
  return stringify(value, { version: '1.1', sortMapEntries: true, aliasDuplicateObjects: false, lineWidth: 0, indentSeq: true });
}

/** Parses one YAML document with YAML 1.1 rules, as cloud-init's PyYAML does (`yes` is a boolean). Returns the JS
 *  value, or the syntax problems (never throws). */
export function parseYaml(text: string): { value?: unknown; problems: YamlProblem[] } {
  const doc = parseDocument(text, { version: '1.1', prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((e) => ({
        message: e.message.split('\n')[0] ?? e.message,
        line: e.linePos?.[0]?.line ?? 1,
        col: e.linePos?.[0]?.col ?? 1,
      })),
    };
  }
  return { value: doc.toJS({ maxAliasCount: 100 }), problems: [] };
}

/** True for a plain object (a YAML/JSON map). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
