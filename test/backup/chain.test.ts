import {
  BrokenChainError,
  checkpointName,
  chainImageSpec,
  latestBackup,
  nextBackup,
  pruneSelection,
  restoreChain,
  type BackupManifest,
} from '../../src/backup';

function m(id: string, parent: string | null, base: string, disks: string[] = ['vda']): BackupManifest {
  const sequence = Number(id.slice(0, 4));
  return {
    format: 1,
    id,
    sequence,
    kind: id.endsWith('full') ? 'full' : 'incremental',
    parent,
    base,
    checkpoint: `virtseed-backup-${id.slice(0, 4)}`,
    domain: { name: 'web-1', uuid: 'u', instanceId: 'iid' },
    consistency: 'crash',
    takenAt: '2026-11-28T00:00:00.000Z',
    skipped: [],
    files: disks.map((t) => ({ name: `disk-${t}.qcow2`, role: 'disk' as const, target: t, bytes: 1, sha256: '0'.repeat(64) })),
  };
}

const chain = [
  m('0001-full', null, '0001-full'),
  m('0002-incremental', '0001-full', '0001-full'),
  m('0003-incremental', '0002-incremental', '0001-full'),
];

describe('nextBackup', () => {
  const present = { forceFull: false, latestCheckpointPresent: true, disks: ['vda'], folder: '/srv/backups/web-1' };
  const key = checkpointName(1, '/srv/backups/web-1').slice('virtseed-backup-'.length, -'-0001'.length);

  it('GIVEN no backup WHEN asked THEN 0001-full with its checkpoint', () => {
    expect(nextBackup([], present)).toMatchObject({
      id: '0001-full',
      kind: 'full',
      parent: null,
      base: '0001-full',
      checkpoint: `virtseed-backup-${key}-0001`,
      since: null,
    });
  });

  it('GIVEN a chain whose latest checkpoint is on the domain WHEN asked THEN an incremental since that checkpoint', () => {
    expect(nextBackup([...chain].reverse(), present)).toMatchObject({
      id: '0004-incremental',
      parent: '0003-incremental',
      base: '0001-full',
      checkpoint: `virtseed-backup-${key}-0004`,
      since: 'virtseed-backup-0003',
    });
  });

  it('GIVEN two folders of one domain WHEN each takes its first backup THEN their checkpoints differ (one namespace per domain)', () => {
    const a = nextBackup([], present);
    const b = nextBackup([], { ...present, folder: '/mnt/offsite/web-1' });
    expect(a.checkpoint).not.toBe(b.checkpoint);
    expect([a.checkpoint, b.checkpoint]).toEqual([
      expect.stringMatching(/^virtseed-backup-[0-9a-f]{8}-0001$/),
      expect.stringMatching(/-0001$/),
    ]);
  });

  it.each([
    [{ ...present, forceFull: true }, /asked for/],
    [{ ...present, latestCheckpointPresent: false }, /no longer has checkpoint virtseed-backup-0003 of backup 0003-incremental/],
    [{ ...present, disks: ['vda', 'vdb'] }, /disks changed since backup 0003-incremental \(vda then, vda, vdb now\)/],
  ])('GIVEN %j WHEN asked THEN a full backup that says why', (options, reason) => {
    const next = nextBackup(chain, options);
    expect(next).toMatchObject({ id: '0004-full', kind: 'full', parent: null, base: '0004-full' });
    expect(next.reason).toMatch(reason);
  });
});

describe('restoreChain', () => {
  it('GIVEN an incremental WHEN its chain is asked THEN the full backup first, then each incremental up to it', () => {
    expect(restoreChain(chain, '0003-incremental').map((x) => x.id)).toEqual(['0001-full', '0002-incremental', '0003-incremental']);
    expect(restoreChain(chain, '0001-full').map((x) => x.id)).toEqual(['0001-full']);
  });

  it('GIVEN a missing middle backup WHEN the chain is asked THEN BrokenChainError names it', () => {
    const err = (() => {
      try {
        restoreChain([chain[0], chain[2]], '0003-incremental');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(BrokenChainError);
    expect(err).toMatchObject({
      missing: '0002-incremental',
      message: 'backup 0003-incremental needs 0002-incremental, which is not there (pruned or deleted by hand)',
    });
    expect(() => restoreChain(chain, '0009-full')).toThrow('there is no backup 0009-full');
  });
});

describe('pruneSelection', () => {
  const two = [...chain, m('0004-full', null, '0004-full'), m('0005-incremental', '0004-full', '0004-full')];

  it('GIVEN two chains WHEN keeping 1 THEN the latest incremental and its full backup stay, the older chain goes', () => {
    expect(pruneSelection(two, 1)).toEqual({
      keep: ['0004-full', '0005-incremental'],
      remove: ['0001-full', '0002-incremental', '0003-incremental'],
    });
  });

  it('GIVEN keep 3 reaching into the older chain WHEN pruned THEN that chain stays whole from its full backup', () => {
    expect(pruneSelection(two, 3).remove).toEqual([]);
  });

  it('GIVEN keep 0 WHEN pruned THEN it throws', () => {
    expect(() => pruneSelection(two, 0)).toThrow('keep 0: expected a whole number of at least 1');
  });

  it('GIVEN backups in any order WHEN the latest is asked THEN the highest sequence', () => {
    expect(latestBackup([...two].reverse())?.id).toBe('0005-incremental');
    expect(latestBackup([])).toBeNull();
  });
});

describe('chainImageSpec', () => {
  it('GIVEN a full and an incremental file WHEN named THEN a json: qcow2 image backed by the full one, and no further backing', () => {
    const spec = chainImageSpec(['/b/0001-full/disk-vda.qcow2', '/b/0002-incremental/disk-vda.qcow2']);
    expect(spec.startsWith('json:')).toBe(true);
    expect(JSON.parse(spec.slice(5))).toEqual({
      driver: 'qcow2',
      file: { driver: 'file', filename: '/b/0002-incremental/disk-vda.qcow2' },
      backing: { driver: 'qcow2', file: { driver: 'file', filename: '/b/0001-full/disk-vda.qcow2' }, backing: null },
    });
    expect(() => chainImageSpec([])).toThrow('an empty chain');
  });
});
