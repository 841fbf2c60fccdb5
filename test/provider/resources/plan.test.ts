/**
 * The shared plan decisions (provider/src/resources/private/plan.ts): requires-replace paths and the computed
 * attributes an update keeps or a create/replacement makes unknown, as tables of prior/planned cases.
 */
import { UNKNOWN } from '../../../provider/src/plugin/cty';
import { replacePaths, settleComputed, type WhenUnknown } from '../../../provider/src/resources/private/plan';

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
    expect(replacePaths(prior, { ...prior, ...change }, ['pool', 'name', 'tags'], whenUnknown)).toEqual(expected);
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
