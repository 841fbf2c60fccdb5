/**
 * The generated sentences of a field's description (src/fields/describe.ts): values, default and "Changing it: …"
 * for every kind of rule, worded from the table alone.
 */
import { changeSentence, defaultSentence, describeField, valuesSentence, type Field } from '../../src/fields';

describe('changeSentence', () => {
  test.each<[string, Field, string]>([
    ['a replace attribute', { type: 'string', required: true, replace: true, description: 'N.' }, 'Changing it: replaces the thing.'],
    ['a live attribute', { type: 'bool', optional: true, impact: 'live', description: 'R.' }, 'Changing it: live (no restart).'],
    [
      'a conditional impact',
      {
        type: 'number',
        required: true,
        impact: { if: { rule: 'at-most', attribute: 'max_memory' }, then: 'live', else: 'restart' },
        description: 'M.',
      },
      'Changing it: live (no restart) up to `max_memory`, else restarts a running guest.',
    ],
    [
      'a conditional replace',
      {
        type: 'string',
        optional: true,
        replace: { if: { rule: 'equals', attribute: 'reprovision', value: 'recreate' } },
        impact: 'restart',
        description: 'I.',
      },
      'Changing it: replaces the thing with `reprovision = "recreate"`, else restarts a running guest.',
    ],
    ['an attribute without a rule', { type: 'string', optional: true, description: 'X.' }, ''],
    [
      'a block whose fields have rules of their own',
      {
        nesting: 'list',
        impact: 'restart',
        description: 'D.',
        fields: { f: { type: 'string', optional: true, impact: 'live', description: 'F.' } },
      },
      'Adding or removing one: restarts a running guest.',
    ],
    [
      'a block whose rule covers its fields',
      { nesting: 'list', impact: 'live', description: 'H.', fields: { f: { type: 'string', optional: true, description: 'F.' } } },
      'Adding, removing or changing one: live (no restart).',
    ],
    [
      'a block that replaces',
      { nesting: 'list', replace: true, description: 'Z.', fields: { f: { type: 'string', required: true, description: 'F.' } } },
      'Adding, removing or changing one: replaces the thing.',
    ],
  ])('GIVEN %s WHEN described THEN the sentence follows the rule', (_, field, expected) => {
    expect(changeSentence(field, 'thing')).toBe(expected);
  });
});

describe('defaultSentence and valuesSentence', () => {
  test.each<[string, string]>([
    [defaultSentence(1), 'Default: `1`.'],
    [defaultSentence(false), 'Default: `false`.'],
    [defaultSentence({ derived: "the source image's format" }), "Default: the source image's format."],
    [
      defaultSentence({ if: { rule: 'equals', attribute: 'user', value: true }, then: true, else: false }),
      'Default: `true` with `user = true`, else `false`.',
    ],
    [valuesSentence({ qcow2: '', raw: '' }), 'One of `qcow2`, `raw`.'],
    [valuesSentence({ kvm: 'hardware', qemu: '' }), 'One of `kvm` (hardware), `qemu`.'],
  ])('GIVEN a rule WHEN worded THEN %s', (sentence, expected) => {
    expect(sentence).toBe(expected);
  });

  test('GIVEN a field with values, a default and an impact WHEN described THEN the table text comes first, then values, default, change', () => {
    expect(
      describeField(
        { type: 'string', optional: true, computed: true, values: { a: '', b: '' }, default: 'a', impact: 'none', description: 'Mode.' },
        'thing',
      ),
    ).toBe('Mode. One of `a`, `b`. Default: `a`. Changing it: no effect on the guest.');
  });
});
