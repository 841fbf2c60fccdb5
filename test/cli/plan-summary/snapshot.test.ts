import { snapshotInputs, snapshotVerdict } from '../../../cli/plan-summary/snapshot';

describe('the snapshot hook (until stream snap decides it)', () => {
  test('GIVEN a planned domain without snapshot_before WHEN asked THEN not known, saying why', () => {
    const verdict = snapshotVerdict({
      type: 'virtseed_domain',
      action: 'update',
      before: { running: true },
      after: { running: true },
      impact: 'restart',
    });
    expect(verdict).toEqual({ taken: null, note: 'the planned state has no snapshot_before' });
  });

  test('GIVEN a planned domain with snapshot_before WHEN the inputs are gathered THEN the policy, the prior running state and the firmware', () => {
    const input = {
      type: 'virtseed_domain',
      action: 'update',
      before: { running: false, firmware: 'bios' },
      after: { running: true, firmware: 'efi', snapshot_before: 'disruptive' },
      impact: 'restart' as const,
    };
    expect(snapshotInputs(input)).toEqual({
      policy: 'disruptive',
      action: 'update',
      impact: 'restart',
      runningBefore: false,
      firmware: 'efi',
    });
    expect(snapshotVerdict(input)).toMatchObject({ taken: null, policy: 'disruptive' });
  });
});
