/**
 * What a change means from a field table alone (src/fields/changes.ts, src/fields/rules.ts), on a small table that
 * uses every kind of rule: unconditional and conditional replace, conditional impacts (`equals`, `at-most`),
 * block elements added, removed and changed, inherited block rules, constant defaults for null priors, and
 * values not known yet.
 */
import { fieldChanges, mostDisruptive, verdictOf, type ResourceFields } from '../../src/fields';

const UNKNOWN = Symbol('unknown');

const THING = {
  version: 0,
  description: 'A thing.',
  object: 'thing',
  whenUnknown: 'wait',
  fields: {
    id: { type: 'string', computed: true, description: 'Id.' },
    name: { type: 'string', required: true, replace: true, description: 'Name.' },
    size: {
      type: 'number',
      required: true,
      impact: { if: { rule: 'at-most', attribute: 'max_size' }, then: 'live', else: 'restart' },
      description: 'Size.',
    },
    max_size: { type: 'number', optional: true, computed: true, impact: 'restart', description: 'Largest size.' },
    policy: {
      type: 'string',
      optional: true,
      computed: true,
      default: 'soft',
      impact: 'none',
      values: { soft: '', hard: '' },
      description: 'Policy.',
    },
    token: {
      type: 'string',
      optional: true,
      replace: { if: { rule: 'equals', attribute: 'policy', value: 'hard' }, whenUnknown: 'replace' },
      impact: 'next-boot',
      description: 'Token.',
    },
    digest: { type: 'string', optional: true, replace: true, caseInsensitive: true, description: 'Digest.' },
    port: {
      nesting: 'list',
      impact: { if: { rule: 'equals', attribute: 'hot', value: true }, then: 'live', else: 'restart' },
      description: 'A port.',
      fields: {
        hot: { type: 'bool', optional: true, description: 'Hot-pluggable.' },
        speed: { type: 'number', optional: true, impact: 'live', description: 'Speed.' },
      },
    },
    zone: {
      nesting: 'list',
      replace: true,
      description: 'A zone.',
      fields: { cidr: { type: 'string', required: true, description: 'CIDR.' } },
    },
  },
} as const satisfies ResourceFields;

const prior = {
  id: 'x',
  name: 'a',
  size: 1,
  max_size: 4,
  policy: 'soft',
  token: 't1',
  digest: 'ab',
  port: [{ hot: true, speed: 10 }],
  zone: [{ cidr: '10.0.0.0/24' }],
};

type Row = { name: string; impact: string; reason?: string; forcesReplace: boolean };

function changes(over: Record<string, unknown>, from: Record<string, unknown> = prior): Row[] {
  return fieldChanges(THING, from, { ...prior, ...over }).map(({ name, impact, reason, forcesReplace }) => ({
    name,
    impact,
    ...(reason !== undefined ? { reason } : {}),
    forcesReplace,
  }));
}

describe('fieldChanges', () => {
  test.each<[string, Record<string, unknown>, Row[]]>([
    ['nothing changes', {}, []],
    ['a computed-only attribute changes', { id: 'y' }, []],
    ['the name changes', { name: 'b' }, [{ name: 'name', impact: 'replace', forcesReplace: true }]],
    ['the name is not known yet (the table waits)', { name: UNKNOWN }, [{ name: 'name', impact: 'replace', forcesReplace: false }]],
    ['size grows within max_size', { size: 3 }, [{ name: 'size', impact: 'live', reason: 'within max_size 4', forcesReplace: false }]],
    ['size grows above max_size', { size: 8 }, [{ name: 'size', impact: 'restart', reason: 'above max_size 4', forcesReplace: false }]],
    [
      'size and max_size grow together (the running guest still has the old maximum)',
      { size: 8, max_size: 8 },
      [
        { name: 'size', impact: 'restart', reason: 'above max_size 4', forcesReplace: false },
        { name: 'max_size', impact: 'restart', forcesReplace: false },
      ],
    ],
    [
      'size grows within a raised max_size that was already there',
      { size: 4 },
      [{ name: 'size', impact: 'live', reason: 'within max_size 4', forcesReplace: false }],
    ],
    [
      'size is not known yet',
      { size: UNKNOWN },
      [{ name: 'size', impact: 'restart', reason: 'max_size not known yet', forcesReplace: false }],
    ],
    ['the token changes under policy soft', { token: 't2' }, [{ name: 'token', impact: 'next-boot', forcesReplace: false }]],
    [
      'the token changes under policy hard',
      { policy: 'hard', token: 't2' },
      [
        { name: 'policy', impact: 'none', forcesReplace: false },
        { name: 'token', impact: 'replace', reason: 'policy = "hard"', forcesReplace: true },
      ],
    ],
    [
      'the token is unknown under policy hard (it replaces even while unknown)',
      { policy: 'hard', token: UNKNOWN },
      [
        { name: 'policy', impact: 'none', forcesReplace: false },
        { name: 'token', impact: 'replace', reason: 'policy = "hard"', forcesReplace: true },
      ],
    ],
    ['the digest changes letter case only', { digest: 'AB' }, []],
    ['the digest changes', { digest: 'cd' }, [{ name: 'digest', impact: 'replace', forcesReplace: true }]],
    [
      'a hot port is added',
      { port: [...prior.port, { hot: true, speed: 1 }] },
      [{ name: 'port[1]', impact: 'live', reason: 'hot = true', forcesReplace: false }],
    ],
    [
      'a cold port is added',
      { port: [...prior.port, { hot: false, speed: 1 }] },
      [{ name: 'port[1]', impact: 'restart', reason: 'hot = false', forcesReplace: false }],
    ],
    ['a port is removed', { port: [] }, [{ name: 'port[0]', impact: 'live', reason: 'hot = true', forcesReplace: false }]],
    [
      'a port changes speed (its own rule)',
      { port: [{ hot: true, speed: 100 }] },
      [{ name: 'port[0].speed', impact: 'live', forcesReplace: false }],
    ],
    [
      'a port changes hot (the block rule, for the new element)',
      { port: [{ hot: false, speed: 10 }] },
      [{ name: 'port[0].hot', impact: 'restart', reason: 'hot = false', forcesReplace: false }],
    ],
    [
      'the ports are not known yet',
      { port: UNKNOWN },
      [{ name: 'port', impact: 'restart', reason: 'hot not known yet', forcesReplace: false }],
    ],
    ['a zone changes', { zone: [{ cidr: '10.0.1.0/24' }] }, [{ name: 'zone', impact: 'replace', forcesReplace: true }]],
  ])('GIVEN %s WHEN compared THEN the changes and their impacts are as the table says', (_, over, expected) => {
    expect(changes(over)).toEqual(expected);
  });

  test('GIVEN a prior without policy (state from before the attribute) WHEN planned with its default THEN no change', () => {
    expect(changes({}, { ...prior, policy: null })).toEqual([]);
  });
});

describe('verdictOf', () => {
  test('GIVEN a field without rules WHEN judged THEN none', () => {
    expect(verdictOf(THING.fields.port.fields.hot, { values: {}, value: true })).toEqual({ impact: 'none' });
  });
});

describe('mostDisruptive', () => {
  test.each<[string[], string]>([
    [[], 'none'],
    [['next-boot', 'none'], 'next-boot'],
    [['live', 'next-boot'], 'live'],
    [['live', 'restart', 'none'], 'restart'],
    [['restart', 'replace', 'live'], 'replace'],
  ])('GIVEN %j WHEN combined THEN %s', (impacts, expected) => {
    expect(mostDisruptive(impacts as never)).toBe(expected);
  });
});
