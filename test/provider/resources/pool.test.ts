/**
 * virtseed_pool's config checks and plan decisions (no host: the context has no URI, so plan-time host checks are
 * skipped): defaults from the field table, libvirt's own completions planned as known values, replacement of
 * definition attributes, in-place autostart/active.
 */
import { pool } from '../../../provider/src/resources/pool';
import type { PoolState } from '../../../provider/src/resources/private/model';
import { UNKNOWN } from '../../../provider/src/resources/private/values';

/** A context without a configured host: plan-time host checks are skipped. */
const NO_HOST = { uri: '', notes: new Set<string>() } as never;

const config = (c: Partial<PoolState>): PoolState => ({
  id: null,
  uuid: null,
  name: 'vstest-surface-unit',
  host: null,
  type: null,
  path: null,
  source_host: null,
  source_dir: null,
  source_format: null,
  source_name: null,
  source_devices: null,
  autostart: null,
  active: null,
  capacity: null,
  allocation: null,
  available: null,
  ...c,
});

const created = (c: PoolState): PoolState => ({
  ...c,
  id: '0926e3cd-f429-48a0-826b-d2afc8813ee1',
  uuid: '0926e3cd-f429-48a0-826b-d2afc8813ee1',
  type: c.type ?? 'dir',
  autostart: c.autostart ?? true,
  active: c.active ?? true,
  source_format: c.source_format ?? null,
  source_name: c.source_name ?? null,
  capacity: 100,
  allocation: 10,
  available: 90,
});

describe('virtseed_pool validate', () => {
  it('GIVEN type iscsi WHEN validated THEN the error is on type and lists dir, logical, netfs', () => {
    const d = pool.validate!(config({ type: 'iscsi' as never, path: '/x' }), NO_HOST);
    expect(d).toEqual([expect.objectContaining({ path: ['type'], summary: 'Invalid type' })]);
    expect(d[0]!.detail).toBe("Got \"iscsi\"; expected 'dir', 'logical' or 'netfs'.");
  });

  it('GIVEN a dir pool (the default type) without path WHEN validated THEN path is missing', () => {
    expect(pool.validate!(config({}), NO_HOST)).toEqual([expect.objectContaining({ path: ['path'], summary: 'Missing path' })]);
  });

  it('GIVEN a logical pool with a relative device WHEN validated THEN the error is on source_devices[0]', () => {
    expect(pool.validate!(config({ type: 'logical', source_devices: ['sdb'] }), NO_HOST)).toEqual([
      expect.objectContaining({ path: ['source_devices', 0], summary: 'Invalid device' }),
    ]);
  });

  it('GIVEN a netfs pool without source_host WHEN validated THEN the error is on source_host', () => {
    expect(pool.validate!(config({ type: 'netfs', path: '/mnt/n', source_dir: '/srv' }), NO_HOST)).toEqual([
      expect.objectContaining({ path: ['source_host'] }),
    ]);
  });

  it('GIVEN an unknown path WHEN validated THEN nothing is reported yet', () => {
    expect(pool.validate!(config({ path: UNKNOWN }), NO_HOST)).toEqual([]);
  });
});

describe('virtseed_pool plan', () => {
  it('GIVEN a new dir pool WHEN planned THEN type dir, autostart and active true, no source, ids and sizes unknown', async () => {
    const c = config({ path: '/var/lib/libvirt/images/vstest-surface-unit' });
    const { planned, requiresReplace, diagnostics } = await pool.plan({ prior: null, proposed: c, config: c }, NO_HOST);
    expect(diagnostics).toEqual([]);
    expect(requiresReplace).toEqual([]);
    expect(planned).toMatchObject({
      type: 'dir',
      autostart: true,
      active: true,
      source_format: null,
      source_name: null,
      id: UNKNOWN,
      uuid: UNKNOWN,
      capacity: UNKNOWN,
    });
  });

  it('GIVEN a new logical pool without volume group WHEN planned THEN its volume group, format and /dev path are known', async () => {
    const c = config({ name: 'vstest-surface-vg', type: 'logical', source_devices: ['/dev/sdb'] });
    const { planned } = await pool.plan({ prior: null, proposed: c, config: c }, NO_HOST);
    expect(planned).toMatchObject({ source_name: 'vstest-surface-vg', source_format: 'lvm2', path: '/dev/vstest-surface-vg' });
  });

  it('GIVEN a new netfs pool without format WHEN planned THEN the format is auto', async () => {
    const c = config({ type: 'netfs', path: '/mnt/n', source_host: 'nfs.example.net', source_dir: '/srv' });
    expect((await pool.plan({ prior: null, proposed: c, config: c }, NO_HOST)).planned).toMatchObject({ source_format: 'auto' });
  });

  it('GIVEN a new pool whose name is unknown WHEN planned THEN the completed definition attributes are unknown', async () => {
    const c = config({ name: UNKNOWN, type: 'logical' });
    expect((await pool.plan({ prior: null, proposed: c, config: c }, NO_HOST)).planned).toMatchObject({
      path: UNKNOWN,
      source_name: UNKNOWN,
    });
  });

  it('GIVEN another path WHEN planned THEN path forces a replacement', async () => {
    const prior = created(config({ path: '/a' }));
    const c = config({ path: '/b' });
    const { requiresReplace } = await pool.plan({ prior, proposed: { ...c, id: prior.id, uuid: prior.uuid }, config: c }, NO_HOST);
    expect(requiresReplace).toEqual([['path']]);
  });

  it('GIVEN autostart false WHEN planned THEN it changes in place and the sizes stay', async () => {
    const prior = created(config({ path: '/a' }));
    const c = config({ path: '/a', autostart: false });
    const proposed = { ...prior, autostart: false };
    const { planned, requiresReplace } = await pool.plan({ prior, proposed, config: c }, NO_HOST);
    expect(requiresReplace).toEqual([]);
    expect(planned).toMatchObject({ autostart: false, active: true, id: prior.id, capacity: 100 });
  });

  it('GIVEN a pool stopped outside Terraform and active left to its default WHEN planned THEN active goes back to true in place', async () => {
    const prior = { ...created(config({ path: '/a' })), active: false };
    const c = config({ path: '/a' });
    const { planned, requiresReplace } = await pool.plan({ prior, proposed: { ...prior }, config: c }, NO_HOST);
    expect(requiresReplace).toEqual([]);
    expect(planned).toMatchObject({ active: true, capacity: UNKNOWN });
  });

  it('GIVEN a destroy WHEN planned THEN nothing is planned', async () => {
    const prior = created(config({ path: '/a' }));
    expect(await pool.plan({ prior, proposed: null, config: null }, NO_HOST)).toEqual({
      planned: null,
      requiresReplace: [],
      diagnostics: [],
    });
  });
});
