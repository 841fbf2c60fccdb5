/** readTypedParam: `remote_typed_param` as the daemon sends a job's statistics (virDomainGetJobStats). */
import { readTypedParam, XdrError, XdrReader, XdrWriter } from '../../src/libvirt';

describe('readTypedParam', () => {
  it('GIVEN each value type WHEN read THEN the field and its JS value, in order', () => {
    const d = Buffer.alloc(8);
    d.writeDoubleBE(1.5);
    const w = new XdrWriter()
      .string('operation')
      .int(1)
      .int(9)
      .string('time_elapsed')
      .int(4)
      .uhyper(5123)
      .string('data_total')
      .int(3)
      .uhyper(1n << 40n)
      .string('ratio')
      .int(5)
      .fixedOpaque(d, 8)
      .string('success')
      .int(6)
      .int(1)
      .string('errmsg')
      .int(7)
      .string('no space left');
    const r = new XdrReader(w.finish());
    expect([readTypedParam(r), readTypedParam(r), readTypedParam(r), readTypedParam(r), readTypedParam(r), readTypedParam(r)]).toEqual([
      { field: 'operation', value: 9 },
      { field: 'time_elapsed', value: 5123 },
      { field: 'data_total', value: 2 ** 40 },
      { field: 'ratio', value: 1.5 },
      { field: 'success', value: true },
      { field: 'errmsg', value: 'no space left' },
    ]);
    r.end();
  });

  it('GIVEN an unknown type WHEN read THEN XdrError names the field and the type', () => {
    const r = new XdrReader(new XdrWriter().string('x').int(99).finish());
    expect(() => readTypedParam(r)).toThrow(XdrError);
    expect(() => readTypedParam(new XdrReader(new XdrWriter().string('x').int(99).finish()))).toThrow('typed parameter x: unknown type 99');
  });
});
