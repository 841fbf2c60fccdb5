/** provider/src/resources/private/field-rules.ts: defaults, allowed values and replacement read from a field table. */
import type { ResourceFields } from '../../../../src/fields';
import { checkValues, replaceAttributes, withDefaults } from '../../../../provider/src/resources/private/field-rules';
import { UNKNOWN } from '../../../../provider/src/resources/private/values';

const TABLE = {
  version: 0,
  description: 'T.',
  fields: {
    name: { type: 'string', required: true, replace: true, description: 'N.' },
    kind: { type: 'string', optional: true, computed: true, default: 'dir', values: ['dir', 'logical'], replace: true, description: 'K.' },
    on: { type: 'bool', optional: true, computed: true, default: true, description: 'O.' },
  },
} as const satisfies ResourceFields;

describe('withDefaults', () => {
  it('GIVEN attributes null in config WHEN planned THEN they get their defaults; set ones keep the planned value', () => {
    expect(withDefaults(TABLE.fields, { name: 'a', kind: null, on: false }, { name: 'a', kind: null, on: false })).toEqual({
      name: 'a',
      kind: 'dir',
      on: false,
    });
  });

  it('GIVEN an unknown config value WHEN planned THEN it is not replaced by the default', () => {
    expect(withDefaults(TABLE.fields, { name: 'a', kind: UNKNOWN, on: null }, { name: 'a', kind: UNKNOWN, on: null })).toEqual({
      name: 'a',
      kind: UNKNOWN,
      on: true,
    });
  });
});

describe('replaceAttributes', () => {
  it('GIVEN a table WHEN asked THEN the attributes with replace, in table order', () => {
    expect(replaceAttributes(TABLE.fields)).toEqual(['name', 'kind']);
  });
});

describe('checkValues', () => {
  it('GIVEN a value outside values WHEN checked THEN the error is on the attribute and lists the allowed ones', () => {
    expect(checkValues(TABLE.fields, { name: 'a', kind: 'iscsi', on: null }, 'Pool a')).toEqual([
      {
        severity: 'error',
        summary: 'Invalid kind',
        detail: 'Pool a: kind is "iscsi"; expected one of "dir", "logical".',
        path: ['kind'],
      },
    ]);
  });

  it('GIVEN null and unknown values WHEN checked THEN nothing is reported', () => {
    expect(checkValues(TABLE.fields, { name: 'a', kind: UNKNOWN, on: null })).toEqual([]);
    expect(checkValues(TABLE.fields, { name: 'a', kind: null, on: null })).toEqual([]);
  });
});
