import { writeTypedParam } from '../../src/libvirt/protocol';
import { XdrWriter } from '../../src/libvirt/xdr';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('remote_typed_param', () => {
  it('GIVEN a string parameter WHEN written THEN field, discriminant 7 (VIR_TYPED_PARAM_STRING) and the string follow', () => {
    const w = new XdrWriter();
    writeTypedParam(w, { field: 'destination_xml', type: 'string', value: '<d/>' });
    expect(hex(w.finish())).toBe(
      '0000000f' + Buffer.from('destination_xml').toString('hex') + '00' + '00000007' + '00000004' + Buffer.from('<d/>').toString('hex'),
    );
  });

  it.each([
    [{ field: 'a', type: 'int', value: -2 } as const, '00000001', 'fffffffe'],
    [{ field: 'a', type: 'uint', value: 7 } as const, '00000002', '00000007'],
    [{ field: 'a', type: 'ullong', value: 2n ** 33n } as const, '00000004', '0000000200000000'],
    [{ field: 'a', type: 'boolean', value: true } as const, '00000006', '00000001'],
  ])('GIVEN %j WHEN written THEN the discriminant is %s and the value %s', (param, discriminant, value) => {
    const w = new XdrWriter();
    writeTypedParam(w, param);
    expect(hex(w.finish())).toBe(`0000000161000000${discriminant}${value}`);
  });
});
