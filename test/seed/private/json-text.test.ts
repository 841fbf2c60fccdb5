import { parseJsonText } from '../../../src/seed/private/json-text';
import { parseIgnitionText } from '../../../src/seed/ignition';

describe('parseJsonText', () => {
  it('GIVEN valid JSON WHEN parsed THEN the value comes back', () => {
    expect(parseJsonText('{"a": [1, 2]}')).toEqual({ value: { a: [1, 2] } });
  });

  it.each([
    ['a trailing comma in an object', '{\n  "a": 1,\n}', 3, 1, /property name in double quotes/],
    ['a trailing comma in an array', '{\n  "a": [1, 2,]\n}', 2, 14, /expected a value/],
    ['a single-quoted string', "{\n  'a': 1\n}", 2, 3, /strings need double quotes/],
    ['a missing comma', '[1\n 2]', 2, 2, /expected a comma/],
    ['text after the value', '{}\n}', 2, 1, /after the end of the JSON value/],
    ['a comment', '{} // note', 1, 4, /comments are not allowed/],
    ['an unclosed object', '{"a": 1', 1, 8, /the text ends before the JSON value is complete/],
    ['an empty text', '', 1, 1, /the text ends before the JSON value is complete/],
  ])('GIVEN %s WHEN parsed THEN the problem is at its line and column', (_what, text, line, col, message) => {
    const { problem } = parseJsonText(text);
    expect(problem).toEqual({ line, col, message: expect.stringMatching(message) });
  });
});

describe('parseIgnitionText', () => {
  it('GIVEN a trailing comma WHEN parsed for an attribute THEN one error on that attribute names the line and column', () => {
    expect(parseIgnitionText('{\n  "ignition": { "version": "3.3.0" },\n}', ['content'])).toEqual({
      diagnostics: [
        {
          severity: 'error',
          path: ['content'],
          summary: 'Invalid Ignition JSON',
          detail: 'Line 3, column 1: expected a property name in double quotes (JSON allows no comma before a closing brace).',
        },
      ],
    });
  });
});
