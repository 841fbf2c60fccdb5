import { t } from '../../../provider/src/plugin/cty';
import { toAttributePath, toProtoDiagnostic } from '../../../provider/src/plugin/diagnostics';

const type = t.object({
  disk: t.list(t.object({ size_gb: t.number })),
  labels: t.map(t.string),
  tags: t.set(t.object({ k: t.string })),
});

describe('toAttributePath', () => {
  it('GIVEN a path through a list WHEN converted THEN it has attribute, int key, attribute steps', () => {
    expect(toAttributePath(['disk', 0, 'size_gb'], type).steps).toEqual([
      { attribute_name: 'disk' },
      { element_key_int: 0 },
      { attribute_name: 'size_gb' },
    ]);
  });

  it('GIVEN a map key WHEN converted THEN it is an element_key_string step', () => {
    expect(toAttributePath(['labels', 'env'], type).steps).toEqual([{ attribute_name: 'labels' }, { element_key_string: 'env' }]);
  });

  it('GIVEN a path into a set WHEN converted THEN it stops at the set', () => {
    expect(toAttributePath(['tags', 2, 'k'], type).steps).toEqual([{ attribute_name: 'tags' }]);
  });

  it('GIVEN no type WHEN converted THEN strings are attributes and numbers indexes', () => {
    expect(toAttributePath(['a', 1]).steps).toEqual([{ attribute_name: 'a' }, { element_key_int: 1 }]);
  });
});

describe('toProtoDiagnostic', () => {
  it('GIVEN a warning with an empty path WHEN converted THEN severity is WARNING and no attribute is set', () => {
    const d = toProtoDiagnostic({ severity: 'warning', summary: 's', detail: 'd', path: [] });
    expect(d).toEqual({ severity: 'WARNING', summary: 's', detail: 'd' });
  });

  it('GIVEN an error with a path WHEN converted THEN severity is ERROR and the attribute path is set', () => {
    const d = toProtoDiagnostic({ severity: 'error', summary: 's', detail: 'd', path: ['labels', 'x'] }, type);
    expect(d.severity).toBe('ERROR');
    expect(d.attribute?.steps).toHaveLength(2);
  });
});
