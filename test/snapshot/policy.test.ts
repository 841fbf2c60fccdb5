import { plannedSnapshot, type SnapshotPlanInput } from '../../src/snapshot';

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

  it('GIVEN always WHEN a running BIOS guest with a virtiofs share gets a live change THEN no snapshot is taken, naming virtiofs', () => {
    expect(plannedSnapshot(update({ policy: 'always', impact: 'live', virtiofs: true }))).toMatchObject({
      taken: false,
      reason: expect.stringContaining('virtiofs'),
    });
  });

  it('GIVEN disruptive WHEN a guest with a virtiofs share restarts THEN its disks are snapshotted while it is down', () => {
    expect(plannedSnapshot(update({ virtiofs: true }))).toMatchObject({ taken: true, kind: 'disk' });
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
