/** schemaDiagnostics: ajv errors of alternatives (oneOf/anyOf) reported where the value really failed. */
import { schemaDiagnostics } from '../../../src/seed/checks/schema';

const check = (value: unknown) =>
  schemaDiagnostics('cloud-config', value, ['cloud_config'], 'Invalid cloud-config').map((d) => [d.path, d.detail]);

test('GIVEN a wrong type deep inside an alternative WHEN validating THEN only the innermost path is reported', () => {
  expect(check({ users: [{ name: 'alice', groups: 7 }] })).toEqual([
    [['cloud_config', 'users', 0, 'groups'], 'must be string, array or object; got 7'],
  ]);
});

test('GIVEN a value matching no alternative by type WHEN validating THEN one message lists the allowed types', () => {
  expect(check({ runcmd: [5] })).toEqual([[['cloud_config', 'runcmd', 0], 'must be string, array or null; got 5']]);
});

// Adapted for #9 (cloud-init's own schema): its write_files.permissions is any string (cloud-init falls back to 0644
// for a string it cannot decode: a warning of cloud-init-rules), so the same behaviour is shown on power_state.delay.
test('GIVEN a string failing its pattern where an integer is also allowed WHEN validating THEN the pattern error names the other type', () => {
  expect(check({ power_state: { mode: 'reboot', delay: 'soon' } })).toEqual([
    [['cloud_config', 'power_state', 'delay'], 'must match pattern "^\\+?[0-9]+$"; must be one of "now" (or be integer); got "soon"'],
  ]);
});

test('GIVEN a missing required key inside an alternative WHEN validating THEN the required key is reported, not the type', () => {
  const out = check({ write_files: [{ content: 'x' }] });
  expect(out).toEqual([[['cloud_config', 'write_files', 0, 'path'], 'is required']]);
});

test('GIVEN hostname: 42 WHEN validating THEN the message shows the value given', () => {
  expect(check({ hostname: 42 })).toEqual([[['cloud_config', 'hostname'], 'must be string; got 42']]);
});

test('GIVEN a long value of a wrong type WHEN validating THEN the value shown is cut to 60 characters', () => {
  const [[, detail]] = check({ packages: 'x'.repeat(300) });
  expect(detail).toBe(`must be array; got "${'x'.repeat(58)}…`);
});
