/**
 * JSON text with positioned syntax errors, as YAML's (./yaml): `JSON.parse` reads it; when that fails, jsonc-parser
 * (strict: no comments, no trailing commas) finds the first problem's 1-based line and column, which V8's messages
 * give only as a character offset, and often not at all ("Unexpected token ']', … is not valid JSON").
 */
import type * as JsoncLib from 'jsonc-parser';
import type { YamlProblem } from './yaml';

/** jsonc-parser, loaded only when a text does not parse (start-up stays lean). */
let jsoncLib: typeof JsoncLib | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not at start-up
const jsonc = (): typeof JsoncLib => (jsoncLib ??= require('jsonc-parser') as typeof JsoncLib);

/** A JSON syntax problem at a 1-based line and column (columns count UTF-16 code units, as editors do). */
export type JsonProblem = YamlProblem;

/** What each of jsonc-parser's error codes means, in words for someone fixing the text. */
const MEANING: Readonly<Record<string, string>> = {
  InvalidSymbol: 'not a JSON value (strings need double quotes; true, false and null are lowercase)',
  InvalidNumberFormat: 'not a valid number',
  PropertyNameExpected: 'expected a property name in double quotes (JSON allows no comma before a closing brace)',
  ValueExpected: 'expected a value (JSON allows no comma before a closing bracket or brace)',
  ColonExpected: 'expected a colon after the property name',
  CommaExpected: 'expected a comma between the elements',
  CloseBraceExpected: 'expected a comma or the closing brace }',
  CloseBracketExpected: 'expected a comma or the closing bracket ]',
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'the string is not closed (a line break inside a string must be written \\n)',
  UnexpectedEndOfNumber: 'the number ends too early',
  InvalidUnicode: 'invalid \\u escape (four hex digits expected)',
  InvalidEscapeCharacter: 'invalid escape in a string (allowed: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)',
  InvalidCharacter: 'a control character inside a string (escape it, e.g. \\t)',
};

/** The meaning of any error at the end of the text. */
const ENDS_EARLY = 'the text ends before the JSON value is complete';

/** Parses JSON text; returns the value, or the first syntax problem with its position (never throws). */
export function parseJsonText(text: string): { value: unknown; problem?: undefined } | { value?: undefined; problem: JsonProblem } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { problem: locate(text, err instanceof Error ? err.message : String(err)) };
  }
}

function locate(text: string, v8Message: string): JsonProblem {
  const lib = jsonc();
  let first: JsonProblem | undefined;
  const end = text.trimEnd().length;
  lib.visit(
    text,
    {
      onError(code, offset, _length, line, character) {
        const name = lib.printParseErrorCode(code);
        const message = offset >= end && name !== 'EndOfFileExpected' ? ENDS_EARLY : (MEANING[name] ?? name);
        first ??= { message, line: line + 1, col: character + 1 };
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  if (first) return first;
  // jsonc-parser accepted what V8 did not (e.g. a leading zero): V8's words, at its offset when it gives one.
  const offset = Number(/ at position (\d+)/.exec(v8Message)?.[1] ?? 0);
  const before = text.slice(0, offset).split('\n');
  return { message: v8Message.replace(/ in JSON at position \d+.*$/s, ''), line: before.length, col: (before.at(-1)?.length ?? 0) + 1 };
}
