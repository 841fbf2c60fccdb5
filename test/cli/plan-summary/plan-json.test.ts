import { parsePlanJson, PlanJsonError } from '../../../cli/plan-summary/plan-json';

describe('parsePlanJson refusals', () => {
  test('GIVEN text that is not JSON WHEN parsed THEN the error says what is expected', () => {
    const parse = () => parsePlanJson('Terraform will perform the following actions:');
    expect(parse).toThrow(PlanJsonError);
    expect(parse).toThrow('expected the output of `terraform show -json PLANFILE`');
  });

  test('GIVEN a format_version 2.0 WHEN parsed THEN it is refused naming the version', () => {
    expect(() => parsePlanJson('{"format_version":"2.0","planned_values":{}}')).toThrow('format_version 2.0 is not supported');
  });

  test('GIVEN an entry without change.actions WHEN parsed THEN the error names the entry', () => {
    const text = JSON.stringify({
      format_version: '1.2',
      planned_values: {},
      resource_changes: [{ address: 'a.b', type: 'a', change: {} }],
    });
    expect(() => parsePlanJson(text)).toThrow('resource_changes[0] (a.b): change.actions: expected a list of strings');
  });
});
