/**
 * The field tables (src/fields) against the vocabulary's own rules: every attribute a config sets says what
 * changing it does (or follows its block's rule), defaults sit on optional + computed attributes and are allowed
 * values, conditions name attributes of their own table, and the constructs' enums spell the table's values.
 */
import { Firmware } from '../../constructs/src/firmware';
import { SnapshotBefore } from '../../constructs/src/snapshot-before';
import { WaitFor } from '../../constructs/src/wait-for';
import { Reprovision } from '../../src/domain';
import {
  CLOUDINIT_SEED_FIELDS,
  DOMAIN_FIELDS,
  hasChangeRule,
  IGNITION_FIELDS,
  isBlock,
  isConditionalDefault,
  isDerivedDefault,
  NETWORK_FIELDS,
  replacesAlways,
  SNAPSHOT_FIELDS,
  VOLUME_FIELDS,
  type Condition,
  type ConditionalImpact,
  type Field,
  type FieldTable,
  type Impact,
  type ResourceFields,
} from '../../src/fields';

const TABLES: [string, ResourceFields][] = [
  ['virtseed_domain', DOMAIN_FIELDS],
  ['virtseed_volume', VOLUME_FIELDS],
  ['virtseed_cloudinit_seed', CLOUDINIT_SEED_FIELDS],
  ['virtseed_ignition', IGNITION_FIELDS],
  ['virtseed_network', NETWORK_FIELDS],
  ['virtseed_snapshot', SNAPSHOT_FIELDS],
];

/** Every field of a table with its path and the block it sits in. */
function walk(table: FieldTable, at: string[] = [], block?: Field): { path: string; field: Field; block?: Field; table: FieldTable }[] {
  return Object.entries(table).flatMap(([name, field]) => [
    { path: [...at, name].join('.'), field, block, table },
    ...(isBlock(field) ? walk(field.fields, [...at, name], hasChangeRule(field) ? field : block) : []),
  ]);
}

function conditionsOf(rule: Impact | ConditionalImpact | undefined): Condition[] {
  return rule === undefined || typeof rule === 'string' ? [] : [rule.if, ...conditionsOf(rule.else)];
}

describe.each(TABLES)('%s field table', (_type, resource) => {
  const fields = walk(resource.fields);

  test('GIVEN every attribute a config sets WHEN read THEN it states its change rule, or its block does', () => {
    const silent = fields
      .filter(({ field }) => isBlock(field) || field.required === true || field.optional === true)
      .filter(({ field, block }) => !hasChangeRule(field) && !(block && hasChangeRule(block)))
      .map(({ path }) => path);
    expect(silent).toEqual([]);
  });

  test('GIVEN a field that always replaces WHEN read THEN it states no impact besides (the replacement is its impact)', () => {
    expect(fields.filter(({ field }) => replacesAlways(field.replace) && field.impact !== undefined).map(({ path }) => path)).toEqual([]);
  });

  test('GIVEN a default WHEN read THEN it sits on an optional + computed attribute and is an allowed value', () => {
    const wrong = fields.flatMap(({ path, field }) => {
      if (isBlock(field) || field.default === undefined) return [];
      if (!(field.optional && field.computed)) return [`${path}: not optional + computed`];
      const d = field.default;
      const constants = isDerivedDefault(d) ? [] : isConditionalDefault(d) ? [d.then, d.else] : [d];
      return constants.filter((c) => field.values && !(String(c) in field.values)).map((c) => `${path}: ${String(c)} not allowed`);
    });
    expect(wrong).toEqual([]);
  });

  test('GIVEN a condition WHEN read THEN the attribute it reads is a field of the same table', () => {
    const dangling = fields.flatMap(({ path, field, table }) => {
      const conditions = [
        ...conditionsOf(field.impact),
        ...(typeof field.replace === 'object' && field.replace.if ? [field.replace.if] : []),
        ...(!isBlock(field) && field.default !== undefined && isConditionalDefault(field.default) ? [field.default.if] : []),
      ];
      // A block's rule reads its element's fields; any other rule the fields beside it.
      const scope = isBlock(field) ? field.fields : table;
      return conditions.filter((c) => !(c.attribute in scope)).map((c) => `${path}: ${c.attribute}`);
    });
    expect(dangling).toEqual([]);
  });
});

describe('construct enums', () => {
  test.each<[string, Record<string, string>, { readonly [v: string]: string }]>([
    ['Reprovision', Reprovision, DOMAIN_FIELDS.fields.reprovision.values],
    ['WaitFor', WaitFor, DOMAIN_FIELDS.fields.wait_for.values],
    ['Firmware', Firmware, DOMAIN_FIELDS.fields.firmware.values],
    ['SnapshotBefore', SnapshotBefore, DOMAIN_FIELDS.fields.snapshot_before.values],
  ])('GIVEN the %s enum WHEN compared with the field table THEN it spells exactly the allowed values', (_name, enumeration, values) => {
    expect(Object.values(enumeration).sort()).toEqual(Object.keys(values).sort());
  });
});
