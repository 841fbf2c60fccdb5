/**
 * The shared plan decisions: requires-replace paths from a field table's `replace` rules
 * (provider/src/resources/private/fields.ts) and the computed attributes an update keeps or a create/replacement
 * makes unknown (provider/src/resources/private/plan.ts), as tables of prior/planned cases.
 */
import { UNKNOWN } from '../../../provider/src/plugin/cty';
import { replacePaths } from '../../../provider/src/resources/private/fields';
import { settleComputed } from '../../../provider/src/resources/private/plan';
import type { ResourceFields, WhenUnknown } from '../../../src/fields';

interface S {
  id: string | null | typeof UNKNOWN;
  pool: string | null | typeof UNKNOWN;
  name: string | null | typeof UNKNOWN;
  tags: string[] | null | typeof UNKNOWN;
}

const prior: S = { id: 'key-1', pool: 'default', name: 'a', tags: ['x'] };

describe('replacePaths', () => {
  test.each<[string, Partial<S>, WhenUnknown, (string | number)[][]]>([
    ['nothing changes', {}, 'replace', []],
    ['the name changes', { name: 'b' }, 'wait', [['name']]],
    ['pool and name change', { pool: 'other', name: 'b' }, 'wait', [['pool'], ['name']]],
    ['the name is unknown, unknown replaces', { name: UNKNOWN }, 'replace', [['name']]],
    ['the name is unknown, unknown waits', { name: UNKNOWN }, 'wait', []],
    ['a list changes', { tags: ['y'] }, 'wait', [['tags']]],
    ['an equal list', { tags: ['x'] }, 'wait', []],
    ['the name is removed', { name: null }, 'wait', [['name']]],
  ])('GIVEN %s WHEN compared THEN the paths are as expected', (_, change, whenUnknown, expected) => {
    const table: ResourceFields = {
      version: 0,
      description: 'A thing.',
      object: 'thing',
      whenUnknown,
      fields: {
        id: { type: 'string', computed: true, description: 'Id.' },
        pool: { type: 'string', required: true, replace: true, description: 'Pool.' },
        name: { type: 'string', required: true, replace: true, description: 'Name.' },
        tags: { type: 'list(string)', optional: true, replace: true, description: 'Tags.' },
      },
    };
    expect(replacePaths(table, prior, { ...prior, ...change })).toEqual(expected);
  });
});

describe('settleComputed', () => {
  const planned: S = { id: null, pool: 'default', name: 'a', tags: null };
  test.each<[string, S | null, boolean, Partial<S>]>([
    ['a create', null, true, { id: UNKNOWN }],
    ['an update in place', prior, false, { id: 'key-1' }],
    ['a replacement', prior, true, { id: UNKNOWN }],
  ])('GIVEN %s WHEN settled THEN the computed id is as expected and the rest is untouched', (_, p, replacing, expected) => {
    const out = settleComputed(planned, p, replacing, ['id']);
    expect(out).toEqual({ ...planned, ...expected });
    expect(planned.id).toBeNull(); // a copy: the input is not changed
  });
});
