import { plannedSnapshot, snapshotPlanInputOf, type SnapshotPlanInput } from '../../src/snapshot';

const update = (over: Partial<SnapshotPlanInput> = {}): SnapshotPlanInput => ({
  policy: 'disruptive',
  action: 'update',
  impact: 'restart',
  runningBefore: true,
  firmware: 'bios',
  ...over,
});

describe('plannedSnapshot', () => {
  it('GIVEN snapshot_before none WHEN a restart is planned THEN no snapshot is taken', () => {
    expect(plannedSnapshot(update({ policy: 'none' })).taken).toBe(false);
  });

  it('GIVEN no snapshot_before in the plan WHEN a restart is planned THEN no snapshot is taken', () => {
    expect(plannedSnapshot(update({ policy: null })).taken).toBe(false);
  });

  it('GIVEN disruptive WHEN the running guest restarts THEN its disks are snapshotted while it is down', () => {
    expect(plannedSnapshot(update())).toMatchObject({ taken: true, kind: 'disk', reason: expect.stringContaining('shut down') });
  });

  it('GIVEN disruptive WHEN a running UEFI guest restarts THEN a disk snapshot is taken too', () => {
    expect(plannedSnapshot(update({ firmware: 'efi' }))).toMatchObject({ taken: true, kind: 'disk' });
  });

  it('GIVEN disruptive WHEN the impact is unknown THEN it counts as a restart', () => {
    expect(plannedSnapshot(update({ impact: 'unknown' }))).toMatchObject({ taken: true, kind: 'disk' });
  });

  it('GIVEN disruptive WHEN a shut-off guest is re-provisioned THEN its disks are snapshotted first', () => {
    expect(plannedSnapshot(update({ runningBefore: false }))).toMatchObject({ taken: true, kind: 'disk' });
  });

  it('GIVEN disruptive WHEN only live changes are planned THEN no snapshot is taken', () => {
    expect(plannedSnapshot(update({ impact: 'live' }))).toMatchObject({ taken: false, reason: expect.stringContaining('live') });
  });

  it('GIVEN always WHEN a running BIOS guest gets a live change THEN its memory is snapshotted', () => {
    expect(plannedSnapshot(update({ policy: 'always', impact: 'live' }))).toMatchObject({ taken: true, kind: 'memory' });
  });

  it('GIVEN always WHEN a running UEFI guest gets a live change THEN no snapshot is taken and the reason names the shutdown', () => {
    expect(plannedSnapshot(update({ policy: 'always', impact: 'live', firmware: 'efi' }))).toMatchObject({
      taken: false,
      reason: expect.stringContaining('without shutting it down'),
    });
  });

  it('GIVEN always WHEN a shut-off guest gets a next-boot change THEN its disks are snapshotted', () => {
    expect(plannedSnapshot(update({ policy: 'always', impact: 'next-boot', runningBefore: false }))).toMatchObject({
      taken: true,
      kind: 'disk',
    });
  });

  it('GIVEN always WHEN nothing changes for the guest THEN no snapshot is taken', () => {
    expect(plannedSnapshot(update({ policy: 'always', impact: 'none' })).taken).toBe(false);
  });

  it('GIVEN always WHEN the domain is replaced THEN no snapshot is taken and the reason says why', () => {
    expect(plannedSnapshot(update({ policy: 'always', action: 'replace', impact: 'replace' }))).toMatchObject({
      taken: false,
      reason: expect.stringContaining('replacement does not keep'),
    });
  });

  it('GIVEN always WHEN the domain is created THEN no snapshot is taken', () => {
    expect(plannedSnapshot(update({ policy: 'always', action: 'create', impact: 'none' })).taken).toBe(false);
  });
});

describe('snapshotPlanInputOf (terraform show -json)', () => {
  it('GIVEN an update of a running BIOS domain with disruptive and change_impact restart WHEN read THEN a disk snapshot is planned', () => {
    const input = snapshotPlanInputOf({
      actions: ['update'],
      before: { running: true, snapshot_before: 'disruptive', change_impact: 'none' },
      after: { running: true, snapshot_before: 'disruptive', change_impact: 'restart', firmware: 'bios' },
    });
    expect(input).toEqual({ policy: 'disruptive', action: 'update', impact: 'restart', runningBefore: true, firmware: 'bios' });
    expect(plannedSnapshot(input)).toMatchObject({ taken: true, kind: 'disk' });
  });

  it('GIVEN a replacement (delete, create) WHEN read THEN the action is replace and no snapshot is planned', () => {
    const input = snapshotPlanInputOf({ actions: ['delete', 'create'], before: { running: true }, after: { snapshot_before: 'always' } });
    expect([input.action, plannedSnapshot(input).taken]).toEqual(['replace', false]);
  });

  it('GIVEN a planned state without change_impact WHEN read THEN the impact is unknown, which counts as a restart', () => {
    const input = snapshotPlanInputOf({ actions: ['update'], before: { running: true }, after: { snapshot_before: 'disruptive' } });
    expect([input.impact, plannedSnapshot(input).taken]).toEqual(['unknown', true]);
  });

  it('GIVEN an unknown snapshot_before (null in the plan JSON) WHEN read THEN the policy is null and nothing is planned', () => {
    const input = snapshotPlanInputOf({
      actions: ['update'],
      before: { running: true },
      after: { snapshot_before: null, change_impact: 'restart' },
    });
    expect(plannedSnapshot(input).taken).toBe(false);
  });
});
