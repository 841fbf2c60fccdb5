import { fieldAt, isComputedOnly, mostDisruptive, parseImpactValue, reaches, reprovisionImpact } from '../../../cli/plan-summary/impact';
import { DOMAIN_FIELDS, NETWORK_FIELDS } from '../../../src/fields';

describe('mostDisruptive', () => {
  test('GIVEN live and restart WHEN combined THEN restart', () => {
    expect(mostDisruptive(['live', 'restart', 'none'])).toBe('restart');
  });

  test('GIVEN nothing WHEN combined THEN none', () => {
    expect(mostDisruptive([])).toBe('none');
  });

  test('GIVEN an undeclared impact beside a live one WHEN combined THEN unknown (it may restart)', () => {
    expect(mostDisruptive(['live', 'unknown'])).toBe('unknown');
  });

  test('GIVEN an undeclared impact beside a replacement WHEN combined THEN replace', () => {
    expect(mostDisruptive(['unknown', 'replace'])).toBe('replace');
  });
});

describe('reaches (--fail-on)', () => {
  test.each([
    ['restart', 'restart', true],
    ['live', 'restart', false],
    ['unknown', 'restart', true],
    ['unknown', 'replace', false],
    ['delete', 'replace', true],
    ['restart', 'replace', false],
  ] as const)('GIVEN %s WHEN the threshold is %s THEN %s', (impact, threshold, expected) => {
    expect(reaches(impact, threshold)).toBe(expected);
  });
});

describe('parseImpactValue (change_impacts values)', () => {
  test('GIVEN an impact with a reason WHEN parsed THEN both parts come back', () => {
    expect(parseImpactValue('restart: above max_vcpu 2')).toEqual({ impact: 'restart', reason: 'above max_vcpu 2' });
  });

  test('GIVEN a bare impact WHEN parsed THEN no reason', () => {
    expect(parseImpactValue('live')).toEqual({ impact: 'live' });
  });

  test('GIVEN a word that is no impact WHEN parsed THEN unknown, with the value as the reason', () => {
    expect(parseImpactValue('reboot-ish')).toEqual({ impact: 'unknown', reason: 'reboot-ish' });
  });
});

describe('reprovisionImpact', () => {
  test.each([
    ['none', 'none'],
    ['reboot', 'restart'],
    ['recreate', 'replace'],
    ['next-boot', 'next-boot'],
    ['unknown', 'unknown'],
  ] as const)('GIVEN reprovision_action %s WHEN mapped THEN %s', (action, impact) => {
    expect(reprovisionImpact(action)).toBe(impact);
  });
});

describe('fieldAt', () => {
  test('GIVEN a path into a nested block element WHEN looked up THEN the attribute of the block', () => {
    expect(fieldAt(NETWORK_FIELDS.fields, ['dns_host', 0, 'hostnames'])).toBe(NETWORK_FIELDS.fields.dns_host.fields.hostnames);
  });

  test('GIVEN a path below an attribute (a list element) WHEN looked up THEN the attribute', () => {
    expect(fieldAt(DOMAIN_FIELDS.fields, ['addresses', 0])).toBe(DOMAIN_FIELDS.fields.addresses);
  });

  test('GIVEN a name not in the table WHEN looked up THEN undefined', () => {
    expect(fieldAt(DOMAIN_FIELDS.fields, ['no_such_attribute'])).toBeUndefined();
  });
});

describe('isComputedOnly', () => {
  test('GIVEN an attribute only the provider sets WHEN asked THEN true', () => {
    expect(isComputedOnly(DOMAIN_FIELDS.fields.addresses)).toBe(true);
  });

  test('GIVEN an optional and computed attribute WHEN asked THEN false', () => {
    expect(isComputedOnly(DOMAIN_FIELDS.fields.vcpu)).toBe(false);
  });
});
