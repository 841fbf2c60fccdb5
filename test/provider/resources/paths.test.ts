import { mapDiagnostic } from '../../../provider/src/resources/private/paths';

describe('mapDiagnostic', () => {
  const mapping = { rename: { files: 'file', interfaces: 'interface' }, opaque: ['cloud_config'] };

  test('GIVEN a seed path WHEN mapped THEN keys and the detail text use the Terraform names', () => {
    const d = mapDiagnostic(
      { severity: 'error', summary: 'Duplicate path', detail: '/etc/a is already written by files[0].path', path: ['files', 1, 'path'] },
      mapping,
    );
    expect(d.path).toEqual(['file', 1, 'path']);
    expect(d.detail).toBe('/etc/a is already written by file[0].path');
  });

  test('GIVEN a path inside a string attribute WHEN mapped THEN it stops at the attribute and names the inner path', () => {
    const d = mapDiagnostic(
      { severity: 'error', summary: 'Invalid type', detail: 'must be a list', path: ['cloud_config', 'users', 0] },
      mapping,
    );
    expect(d.path).toEqual(['cloud_config']);
    expect(d.detail).toBe('At cloud_config.users[0]: must be a list');
  });
});
