import { showValue } from '../../../cli/plan-summary/markdown';

describe('showValue in a table cell', () => {
  test('GIVEN a value with a pipe and a line break WHEN shown THEN the cell stays one cell on one line', () => {
    expect(showValue({ kind: 'value', value: 'a|b\nc' })).toBe('`a\\|b⏎c`');
  });

  test('GIVEN a value with a backtick WHEN shown THEN a longer fence holds it', () => {
    expect(showValue({ kind: 'value', value: 'echo `x`' })).toBe('`` echo `x` ``');
  });

  test('GIVEN a value longer than 80 characters WHEN shown THEN it is cut with an ellipsis', () => {
    expect(showValue({ kind: 'value', value: 'x'.repeat(200) })).toBe(`\`${'x'.repeat(79)}…\``);
  });

  test('GIVEN a sensitive value WHEN shown THEN only the marker', () => {
    expect(showValue({ kind: 'sensitive' })).toBe('*(sensitive value)*');
  });
});
