/** YAML helpers shared by the seed renderers: one stable output style, and parsing with positioned errors. */
import type * as YamlLib from 'yaml';

/** The yaml library, loaded on first use rather than at start-up (issue #15). */
let yamlLib: typeof YamlLib | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load, for start-up time (issue #15)
const yaml = (): typeof YamlLib => (yamlLib ??= require('yaml') as typeof YamlLib);
import { isBase64Text } from './base64';

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
  return stableYamlPieces(value).join('');
}

/**
 * The text of {@link stableYaml} in pieces, `[text, blob, text, blob, …, text]`: every odd piece is a long base64
 * string (ASCII only) written as the content of a single-quoted scalar, so that callers can encode it to bytes
 * without scanning it again. Joined, the pieces are exactly `stableYaml(value)`.
 */
export function stableYamlPieces(value: unknown): string[] {
  const blobs: string[] = [];
  const text = yaml11(withBlobTokens(value, blobs));
  if (blobs.length === 0) return [text];
  // Long base64 strings (file payloads) are written as single-quoted scalars directly: the yaml library scans such
  // strings character by character (seconds for tens of MiB), while their characters never need escaping and a
  // single-quoted scalar is always a string. Falls back to the library when a token is not found exactly once.
  const parts = text.split(BLOB_TOKEN_RE);
  if (parts.length !== blobs.length * 2 + 1 || parts.some((p, i) => i % 2 === 1 && Number(p) !== (i - 1) / 2)) return [yaml11(value)];
  const pieces: string[] = [];
  parts.forEach((p, i) => {
    if (i % 2 === 0) pieces.push(`${i > 0 ? "'" : ''}${p}${i < parts.length - 1 ? "'" : ''}`);
    else pieces.push(blobs[Number(p)]);
  });
  return pieces;
}

function yaml11(value: unknown): string {
  return yaml().stringify(value, { version: '1.1', sortMapEntries: true, aliasDuplicateObjects: false, lineWidth: 0, indentSeq: true });
}

/** Strings at least this long made only of base64 characters are written without the yaml library's scan. */
const BLOB_MIN_LENGTH = 4096;
const BLOB_TOKEN_RE = /virtseed-blob-token-(\d+)-end/;

/** A copy of `value` with long base64 strings replaced by plain-safe tokens (their text pushed onto `blobs`). */
function withBlobTokens(value: unknown, blobs: string[]): unknown {
  if (typeof value === 'string') {
    if (value.length < BLOB_MIN_LENGTH || !isBase64Text(value)) return value;
    blobs.push(value);
    return `virtseed-blob-token-${blobs.length - 1}-end`;
  }
  if (Array.isArray(value)) return value.map((v) => withBlobTokens(v, blobs));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = withBlobTokens(v, blobs);
    return out;
  }
  return value;
}

/** Parses one YAML document with YAML 1.1 rules, as cloud-init's PyYAML does (`yes` is a boolean). Returns the JS
 *  value, or the syntax problems (never throws). */
export function parseYaml(text: string): { value?: unknown; problems: YamlProblem[] } {
  const doc = yaml().parseDocument(text, { version: '1.1', prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) return { problems: doc.errors.map(problemOf) };
  return { value: doc.toJS({ maxAliasCount: 100 }), problems: [] };
}

/** A parse error of the yaml library as a YamlProblem: its own 1-based position, the message without the
 *  position suffix and the source excerpt that `prettyErrors` appends. */
function problemOf(e: YamlLib.YAMLError): YamlProblem {
  const first = (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, '');
  return { message: first, line: e.linePos?.[0]?.line ?? 1, col: e.linePos?.[0]?.col ?? 1 };
}

/** True for a plain object (a YAML/JSON map). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
