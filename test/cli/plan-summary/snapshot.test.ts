import { snapshotInputs, snapshotVerdict } from '../../../cli/plan-summary/snapshot';

describe('the snapshot verdict (src/snapshot plannedSnapshot on the plan JSON)', () => {
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
      virtiofs: false,
    });
  });

  test('GIVEN always and a live change of a running guest with a virtiofs share WHEN asked THEN no snapshot, naming virtiofs', () => {
    const verdict = snapshotVerdict({
      type: 'virtseed_domain',
      action: 'update',
      before: { running: true, firmware: 'bios', filesystem: [{ source: '/srv', target: 's', driver: 'virtiofs' }] },
      after: { running: true, firmware: 'bios', snapshot_before: 'always' },
      impact: 'live',
    });
    expect(verdict).toMatchObject({ taken: false, policy: 'always', note: expect.stringContaining('virtiofs') });
  });

  test('GIVEN always and a live change of a running guest with a 9p share WHEN asked THEN its memory is snapshotted', () => {
    const verdict = snapshotVerdict({
      type: 'virtseed_domain',
      action: 'update',
      before: { running: true, firmware: 'bios', filesystem: [{ source: '/srv', target: 's', driver: '9p' }] },
      after: { running: true, firmware: 'bios', snapshot_before: 'always' },
      impact: 'live',
    });
    expect(verdict).toMatchObject({ taken: true, kind: 'memory' });
  });

  test('GIVEN disruptive and a restart of a running guest WHEN asked THEN a disk snapshot is taken, with the reason', () => {
    const verdict = snapshotVerdict({
      type: 'virtseed_domain',
      action: 'update',
      before: { running: true, firmware: 'efi' },
      after: { running: true, firmware: 'efi', snapshot_before: 'disruptive' },
      impact: 'restart',
    });
    expect(verdict).toEqual({
      taken: true,
      policy: 'disruptive',
      kind: 'disk',
      note: 'the apply restarts the guest: its disks are snapshotted while it is shut down',
    });
  });

  test('GIVEN always and a replacement WHEN asked THEN no snapshot, saying the replacement does not keep it', () => {
    const verdict = snapshotVerdict({
      type: 'virtseed_domain',
      action: 'replace',
      before: { running: true },
      after: { snapshot_before: 'always' },
      impact: 'replace',
    });
    expect(verdict).toMatchObject({ taken: false, policy: 'always', note: expect.stringContaining('replacement does not keep') });
  });
});
