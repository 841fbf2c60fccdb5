/** virtseed_backup_policy's plan-time checks (pure: no host is reached). */
import { backupPolicy } from '../../../provider/src/resources/backup-policy';
import type { BackupPolicyState } from '../../../provider/src/resources/private/model';
import { handlerContext } from '../fixtures/context';

function config(over: Partial<BackupPolicyState>): BackupPolicyState {
  return {
    id: null,
    host: null,
    domain: 'web1',
    dir: '/srv/backups',
    keep: 14,
    max_age: null,
    latest: null,
    latest_taken_at: null,
    backups: null,
    ...over,
  };
}

describe('virtseed_backup_policy checks', () => {
  it('GIVEN a valid policy WHEN validated THEN no diagnostic', () => {
    expect(backupPolicy.validate!(config({}), handlerContext())).toEqual([]);
  });

  it.each([
    [{ keep: 0 }, ['keep'], 'keep is 0; expected a whole number of backups, at least 1.'],
    [{ keep: 1.5 }, ['keep'], 'keep is 1.5; expected a whole number of backups, at least 1.'],
    [{ max_age: 30 }, ['max_age'], 'max_age is 30; expected a whole number of seconds, at least 60 (86400: daily).'],
    [{ dir: 'backups' }, ['dir'], 'dir is "backups"; expected an absolute path on the domain\'s host (e.g. /srv/backups).'],
  ] as const)('GIVEN %j WHEN validated THEN an error on the attribute names what was given and what is expected', (over, path, detail) => {
    expect(backupPolicy.validate!(config(over), handlerContext())).toEqual([expect.objectContaining({ severity: 'error', path, detail })]);
  });

  it('GIVEN a policy whose latest backup is within max_age WHEN planned THEN nothing is due and the state is kept', async () => {
    const prior = config({
      id: '/srv/backups/web1',
      max_age: 86400,
      latest: '0002-incremental',
      latest_taken_at: new Date(Date.now() - 3_600_000).toISOString(),
      backups: ['0001-full', '0002-incremental'],
    });
    const r = await backupPolicy.plan({ prior, proposed: prior, config: config({}), priorPrivate: undefined }, handlerContext());
    expect({ planned: r.planned, diagnostics: r.diagnostics, replace: r.requiresReplace }).toEqual({
      planned: prior,
      diagnostics: [],
      replace: [],
    });
  });

  it('GIVEN a policy whose latest backup is older than max_age WHEN planned THEN a warning says a backup is due and latest is unknown', async () => {
    const prior = config({
      id: '/srv/backups/web1',
      max_age: 3600,
      latest: '0001-full',
      latest_taken_at: '2026-01-01T00:00:00.000Z',
      backups: ['0001-full'],
    });
    const r = await backupPolicy.plan(
      { prior, proposed: prior, config: config({ max_age: 3600 }), priorPrivate: undefined },
      handlerContext(),
    );
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', summary: 'Backup of web1 due' })]);
    expect(r.diagnostics[0].detail).toContain('0001-full, was taken 2026-01-01T00:00:00.000Z');
    expect(typeof r.planned!.latest).not.toBe('string');
  });

  it.each([
    [2, ['0001-full', '0002-incremental'], 'kept'],
    [1, ['0001-full', '0002-incremental'], 'unknown'],
    [20, ['0001-full', '0002-incremental'], 'kept'],
  ] as const)(
    'GIVEN keep changed to %d with backups %j WHEN planned THEN backups is %s (unknown: the apply prunes)',
    async (keep, backups, want) => {
      const prior = config({
        id: '/srv/backups/web1',
        keep: 3,
        max_age: 86400,
        latest: backups.at(-1)!,
        latest_taken_at: new Date(Date.now() - 3_600_000).toISOString(),
        backups: [...backups],
      });
      const proposed = { ...prior, keep };
      const r = await backupPolicy.plan({ prior, proposed, config: config({ keep }), priorPrivate: undefined }, handlerContext());
      expect(r.planned!.keep).toBe(keep);
      expect(Array.isArray(r.planned!.backups) ? 'kept' : 'unknown').toBe(want);
    },
  );

  it.each(['backups/web1', 'web1', '/srv/backups/'])('GIVEN import id %j WHEN imported THEN it fails saying what an id is', async (id) => {
    await expect(backupPolicy.importState!(id, handlerContext())).rejects.toThrow(/expected <dir>\/<domain>, an absolute path/);
  });
});
