import {
  autoSnapshotNumber,
  autoSnapshotsToPrune,
  nextAutoSnapshotName,
  notePlannedDisks,
  plannedWritableDisk,
  snapshotPlanDiagnostics,
  snapshotPlanOf,
} from '../../../provider/src/resources/private/domain-snapshots';
import { decideDomainChange } from '../../../provider/src/resources/private/domain-changes';
import type { DomainState } from '../../../provider/src/resources/private/model';
import { handlerContext } from '../fixtures/context';
import { createdDomainState, diskState } from '../fixtures/domain';

/** A running BIOS guest with a seed, snapshot_before = "disruptive". */
const before = (over: Partial<DomainState> = {}): DomainState =>
  createdDomainState({ name: 'vm', snapshot_before: 'disruptive', snapshot_keep: 1, ...over });

describe('automatic snapshot names', () => {
  it('GIVEN virtseed-auto-7 WHEN read THEN its number is 7', () => {
    expect(autoSnapshotNumber('virtseed-auto-7')).toBe(7);
  });

  it('GIVEN a user snapshot name WHEN read THEN it is no automatic snapshot', () => {
    expect([autoSnapshotNumber('before-upgrade'), autoSnapshotNumber('virtseed-auto-01'), autoSnapshotNumber('virtseed-auto-')]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('GIVEN snapshots 2 and 9 and a user one WHEN the next is named THEN it is virtseed-auto-10', () => {
    expect(nextAutoSnapshotName(['virtseed-auto-2', 'mine', 'virtseed-auto-9'])).toBe('virtseed-auto-10');
  });

  it('GIVEN no automatic snapshot WHEN the next is named THEN it is virtseed-auto-1', () => {
    expect(nextAutoSnapshotName(['mine'])).toBe('virtseed-auto-1');
  });

  it('GIVEN three automatic snapshots and keep 1 WHEN pruned THEN the two oldest go and user snapshots stay', () => {
    expect(autoSnapshotsToPrune(['virtseed-auto-10', 'mine', 'virtseed-auto-2', 'virtseed-auto-9'], 1)).toEqual([
      'virtseed-auto-2',
      'virtseed-auto-9',
    ]);
  });

  it('GIVEN keep 0 WHEN pruned THEN every automatic snapshot goes', () => {
    expect(autoSnapshotsToPrune(['virtseed-auto-1', 'virtseed-auto-2'], 0)).toEqual(['virtseed-auto-1', 'virtseed-auto-2']);
  });
});

describe('snapshot_before at plan', () => {
  it('GIVEN disruptive and a new instance-id under reboot WHEN decided THEN a disk snapshot is taken and the warning names the revert', () => {
    const prior = before({ instance_id: 'iid-a', wait_for: 'cloud-init' });
    const planned = before({ instance_id: 'iid-b', wait_for: 'cloud-init' });
    const decision = decideDomainChange(prior, planned);
    const plan = snapshotPlanOf(prior, planned, decision);
    expect(plan).toMatchObject({ taken: true, kind: 'disk' });
    expect(snapshotPlanDiagnostics(planned, plan, decision)).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: ['snapshot_before'],
        summary: 'A snapshot of vm is taken before this apply',
        detail: expect.stringContaining('If wait_for = "cloud-init" then fails, the guest is reverted to it'),
      }),
    ]);
  });

  it('GIVEN disruptive and wait_for none WHEN a restart is planned THEN the warning says nothing reverts automatically', () => {
    const prior = before({ memory: 512 });
    const planned = before({ memory: 1024 });
    const decision = decideDomainChange(prior, planned);
    expect(snapshotPlanDiagnostics(planned, snapshotPlanOf(prior, planned, decision), decision)[0].detail).toContain(
      'nothing reverts to it automatically',
    );
  });

  it('GIVEN disruptive WHEN only wait_timeout changes THEN no snapshot and no warning', () => {
    const prior = before();
    const planned = before({ wait_timeout: 30 });
    const decision = decideDomainChange(prior, planned);
    expect([
      snapshotPlanOf(prior, planned, decision).taken,
      snapshotPlanDiagnostics(planned, snapshotPlanOf(prior, planned, decision), decision),
    ]).toEqual([false, []]);
  });

  it('GIVEN always and a virtiofs share (driver by the table default) WHEN a live change is planned THEN no snapshot, and the warning names virtiofs', () => {
    const share = { source: '/srv', target: 's', driver: null, access_mode: null, readonly: null };
    const prior = before({ snapshot_before: 'always', filesystem: [share] });
    const planned = before({ snapshot_before: 'always', filesystem: [share], title: 'new title' });
    const decision = decideDomainChange(prior, planned);
    const plan = snapshotPlanOf(prior, planned, decision);
    expect([plan.taken, snapshotPlanDiagnostics(planned, plan, decision)]).toEqual([
      false,
      [
        expect.objectContaining({
          severity: 'warning',
          summary: 'No snapshot of vm before this apply',
          detail: expect.stringContaining('virtiofs'),
        }),
      ],
    ]);
  });

  it('GIVEN none WHEN a restart is planned THEN no snapshot and no warning', () => {
    const prior = before({ snapshot_before: 'none', memory: 512 });
    const planned = before({ snapshot_before: 'none', memory: 1024 });
    const decision = decideDomainChange(prior, planned);
    expect(snapshotPlanOf(prior, planned, decision).taken).toBe(false);
    expect(snapshotPlanDiagnostics(planned, snapshotPlanOf(prior, planned, decision), decision)).toEqual([]);
  });

  it('GIVEN disruptive WHEN instance_id changes under recreate THEN no snapshot (the domain is replaced)', () => {
    const prior = before({ instance_id: 'iid-a', reprovision: 'recreate' });
    const planned = before({ instance_id: 'iid-b', reprovision: 'recreate' });
    const decision = decideDomainChange(prior, planned);
    expect(snapshotPlanOf(prior, planned, decision)).toMatchObject({ taken: false, reason: expect.stringContaining('replaced') });
  });
});

describe('planned disks for the snapshot plans that follow', () => {
  it('GIVEN a domain planned with read-only disks only, then planned again with a writable one WHEN asked THEN false, then true; unplanned: unknown', () => {
    const ctx = handlerContext();
    const ro = diskState({ file: '/srv/a.img', readonly: true });
    notePlannedDisks(ctx as never, createdDomainState({ name: 'vm', disk: [ro] }));
    expect(plannedWritableDisk(ctx as never, 'vm')).toBe(false);
    notePlannedDisks(ctx as never, createdDomainState({ name: 'vm', disk: [ro, diskState({ file: '/srv/b.img', readonly: false })] }));
    expect(plannedWritableDisk(ctx as never, 'vm')).toBe(true);
    expect(plannedWritableDisk(ctx as never, 'other')).toBeUndefined();
  });
});
