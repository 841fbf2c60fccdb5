import { UNKNOWN } from '../../../../provider/src/plugin/cty';
import { notFinished, notFinishedDiagnostic } from '../../../../provider/src/resources/private/not-finished';

describe('a create that did not finish', () => {
  it('GIVEN a storage pool defined when the connection was lost WHEN reported THEN title and detail name the kind whole', () => {
    const d = notFinishedDiagnostic('storage pool', 'images', 'defined', new Error('libvirt connection lost: read ECONNRESET'));
    expect(d.severity).toBe('error');
    expect(d.summary).toBe('Storage pool images was defined but not finished');
    expect(d.detail).toBe(
      'libvirt connection lost: read ECONNRESET. The storage pool is recorded as tainted; the next terraform apply replaces it.',
    );
  });

  it('GIVEN a planned state with unknown computed values WHEN returned partial THEN what is known is kept and the rest is null', () => {
    const planned: Record<string, unknown> = { id: UNKNOWN, name: 'a.qcow2', path: UNKNOWN, capacity: 1024, format: UNKNOWN };
    const r = notFinished(planned, { id: 'key-1' }, 'volume', 'p/a.qcow2', 'created', new Error('gone'));
    expect(r.newState).toEqual({ id: 'key-1', name: 'a.qcow2', path: null, capacity: 1024, format: null });
    expect(r.diagnostics.map((x) => x.summary)).toEqual(['Volume p/a.qcow2 was created but not finished']);
  });
});
