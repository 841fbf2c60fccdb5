/**
 * The plan rules a field table gives the provider (provider/src/resources/private/fields.ts): defaults filled where
 * the config leaves an attribute null (block elements and conditional defaults included), allowed values checked
 * with their attribute paths, and the schema descriptions generated from the rules.
 */
import { isValueOf, schemaOf, valueDiagnostics, withTableDefaults } from '../../../provider/src/resources/private/fields';
import { DOMAIN_FIELDS } from '../../../src/fields';

const NIC = { network: null, user: null, restrict: null, mac: null, model: null };

describe('withTableDefaults', () => {
  test('GIVEN a config leaving vcpu null and a proposed value from the prior WHEN filled THEN vcpu is the default again', () => {
    const out = withTableDefaults(
      DOMAIN_FIELDS,
      { vcpu: 4, running: null, disk: [], network_interface: [] },
      { vcpu: null, running: null },
    );
    expect(out).toMatchObject({ vcpu: 1, running: true });
  });

  test('GIVEN a config setting vcpu WHEN filled THEN the value stays', () => {
    expect(withTableDefaults(DOMAIN_FIELDS, { vcpu: 4 }, { vcpu: 4 })).toMatchObject({ vcpu: 4 });
  });

  test('GIVEN NICs with and without user WHEN filled THEN restrict follows its conditional default, model its constant', () => {
    const planned = {
      network_interface: [
        { ...NIC, user: true },
        { ...NIC, network: 'n' },
      ],
    };
    expect(withTableDefaults(DOMAIN_FIELDS, planned, null).network_interface).toEqual([
      { ...NIC, user: true, restrict: true, model: 'virtio', link_state: 'up' },
      { ...NIC, network: 'n', user: false, restrict: false, model: 'virtio', link_state: 'up' },
    ]);
  });

  test('GIVEN a derived default (type) WHEN filled THEN it stays null for the handler to derive', () => {
    expect(withTableDefaults(DOMAIN_FIELDS, { type: null }, { type: null })).toMatchObject({ type: null });
  });
});

describe('valueDiagnostics', () => {
  test('GIVEN values the table does not allow, at the top and in a block WHEN checked THEN one error each with its path', () => {
    const d = valueDiagnostics(DOMAIN_FIELDS, { reprovision: 'rebuild', disk: [{ bus: 'ide' }], network_interface: [] });
    expect(d.map((x) => [x.path, x.summary, x.detail])).toEqual([
      [['reprovision'], 'Invalid reprovision', `Got "rebuild"; expected 'reboot', 'recreate' or 'next-boot'.`],
      [['disk', 0, 'bus'], 'Invalid bus', `Got "ide"; expected 'virtio', 'sata' or 'scsi'.`],
    ]);
  });

  test('GIVEN allowed values and null WHEN checked THEN nothing', () => {
    expect(valueDiagnostics(DOMAIN_FIELDS, { reprovision: 'recreate', wait_for: null, disk: [{ bus: 'sata' }] })).toEqual([]);
  });
});

describe('isValueOf', () => {
  test.each<[unknown, boolean]>([
    ['efi', true],
    ['uefi', false],
    [null, false],
  ])('GIVEN %p WHEN checked against firmware THEN %p', (v, expected) => {
    expect(isValueOf(DOMAIN_FIELDS.fields.firmware, v)).toBe(expected);
  });
});

describe('schemaOf', () => {
  test('GIVEN the domain table WHEN its schema is built THEN memory and instance_id say what changing them does', () => {
    const schema = schemaOf(DOMAIN_FIELDS);
    expect(schema.attributes.memory.description).toMatch(
      /Changing it: live \(no restart\) up to `max_memory`, else restarts a running guest\.$/,
    );
    expect(schema.attributes.instance_id.description).toMatch(/Changing it: replaces the domain with `reprovision = "recreate"`, else /);
  });
});
