/**
 * virtseed_domain's re-provision decision (provider/src/resources/private/reprovision.ts, and whether it replaces
 * the domain: provider/src/resources/private/domain-changes.ts) as a table of prior and planned values: the
 * recorded action and previous instance-id, whether the domain is replaced, and the warning.
 */
import { UNKNOWN } from '../../../provider/src/plugin/cty';
import type { DomainState } from '../../../provider/src/resources/private/model';
import { decideDomainChange } from '../../../provider/src/resources/private/domain-changes';
import { decideReprovision } from '../../../provider/src/resources/private/reprovision';
import { createdDomainState } from '../fixtures/domain';

const state = createdDomainState;

describe('decideReprovision', () => {
  test.each<[string, Partial<DomainState>, Partial<DomainState>, { action: unknown; previous: unknown; replace: boolean; warns: boolean }]>(
    [
      ['reboot: the id changes', {}, { instance_id: 'iid-2' }, { action: 'reboot', previous: 'iid-1', replace: false, warns: true }],
      [
        'recreate: the id changes',
        { reprovision: 'recreate' },
        { reprovision: 'recreate', instance_id: 'iid-2' },
        { action: 'recreate', previous: 'iid-1', replace: true, warns: true },
      ],
      [
        'next-boot: the id changes',
        { reprovision: 'next-boot' },
        { reprovision: 'next-boot', instance_id: 'iid-2' },
        { action: 'next-boot', previous: 'iid-1', replace: false, warns: true },
      ],
      [
        'recreate: the id is unknown',
        { reprovision: 'recreate' },
        { reprovision: 'recreate', instance_id: UNKNOWN },
        { action: UNKNOWN, previous: 'iid-1', replace: true, warns: false },
      ],
      ['reboot: the id is unknown', {}, { instance_id: UNKNOWN }, { action: UNKNOWN, previous: 'iid-1', replace: false, warns: false }],
      [
        'a first id (none before)',
        { instance_id: null },
        { instance_id: 'iid-1' },
        { action: 'reboot', previous: null, replace: false, warns: true },
      ],
      ['the id is removed', {}, { instance_id: null }, { action: 'none', previous: null, replace: false, warns: false }],
      [
        'memory changes after a past reboot',
        { reprovision_action: 'reboot', previous_instance_id: 'iid-0' },
        { memory: 1024, reprovision_action: 'reboot', previous_instance_id: 'iid-0' },
        { action: 'none', previous: null, replace: false, warns: false },
      ],
      [
        'nothing changes after a past reboot',
        { reprovision_action: 'reboot', previous_instance_id: 'iid-0' },
        { reprovision_action: 'reboot', previous_instance_id: 'iid-0' },
        { action: 'reboot', previous: 'iid-0', replace: false, warns: false },
      ],
      [
        'only the addresses differ after a past reboot',
        { reprovision_action: 'reboot', previous_instance_id: 'iid-0', addresses: ['10.0.0.2'], ip_address: '10.0.0.2' },
        { reprovision_action: 'reboot', previous_instance_id: 'iid-0', addresses: [], ip_address: null },
        { action: 'reboot', previous: 'iid-0', replace: false, warns: false },
      ],
    ],
  )('GIVEN %s WHEN planned THEN the decision is as expected', (_, priorOver, plannedOver, expected) => {
    const d = decideReprovision(state(priorOver), state(plannedOver));
    const replace = decideDomainChange(state(priorOver), state(plannedOver)).replace.length > 0;
    expect({ action: d.action, previous: d.previousInstanceId, replace, warns: d.diagnostics.length > 0 }).toEqual(expected);
  });

  test('GIVEN a changed id WHEN planned THEN the warning names the guest, the policy and both ids', () => {
    const d = decideReprovision(state({ reprovision: 'next-boot' }), state({ reprovision: 'next-boot', instance_id: 'iid-2' }));
    expect(d.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: ['instance_id'],
        summary: 'Guest vstest-unit will be re-provisioned (next-boot)',
        detail: expect.stringContaining('iid-1 → iid-2'),
      }),
    ]);
  });
});
