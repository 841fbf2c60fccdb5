import { NO_WRITABLE_DISK, snapshotKind, type SnapshotSubject } from '../../src/snapshot';

const root = { target: 'vda', format: 'qcow2', readonly: false, device: 'disk' as const };
const seed = { target: 'sda', format: 'raw', readonly: true, device: 'cdrom' as const };
const subject = (over: Partial<SnapshotSubject> = {}): SnapshotSubject => ({
  running: true,
  firmware: 'bios',
  disks: [root, seed],
  ...over,
});

describe('snapshotKind (libvirt 9.0, internal snapshots)', () => {
  it.each([true, false])(
    'GIVEN only read-only disks and the seed cdrom (running: %s) WHEN asked THEN it is refused: nothing selected for snapshot',
    (running) => {
      expect(snapshotKind(subject({ running, disks: [{ ...root, readonly: true }, seed] }))).toBe(NO_WRITABLE_DISK);
    },
  );

  it('GIVEN a running BIOS guest on qcow2 with a raw seed cdrom WHEN asked THEN it takes memory and disks', () => {
    expect(snapshotKind(subject())).toEqual({ ok: true, kind: 'memory' });
  });

  it('GIVEN a shut-off UEFI guest WHEN asked THEN it takes the disks', () => {
    expect(snapshotKind(subject({ running: false, firmware: 'efi' }))).toEqual({ ok: true, kind: 'disk' });
  });

  it('GIVEN a running UEFI guest WHEN asked THEN it is refused naming pflash and the shut-off alternative', () => {
    const d = snapshotKind(subject({ firmware: 'efi' }));
    expect(d).toMatchObject({ ok: false, problem: expect.stringContaining('pflash'), fix: expect.stringContaining('running = false') });
  });

  it('GIVEN a writable raw data disk WHEN asked THEN it is refused naming the disk and its format', () => {
    const d = snapshotKind(subject({ disks: [root, { target: 'vdb', format: 'raw', readonly: false, device: 'disk' }] }));
    expect(d).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^disk vdb is raw/),
      fix: expect.stringContaining('readonly = true'),
    });
  });

  it('GIVEN a running BIOS guest with a virtiofs share WHEN asked THEN it is refused naming vhost-user-fs and the shut-off alternative', () => {
    expect(snapshotKind(subject({ virtiofs: true }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('vhost-user-fs'),
      fix: expect.stringContaining('running = false'),
    });
  });

  it('GIVEN a shut-off guest with a virtiofs share WHEN asked THEN it takes the disks', () => {
    expect(snapshotKind(subject({ running: false, virtiofs: true }))).toEqual({ ok: true, kind: 'disk' });
  });

  it('GIVEN a read-only raw data disk WHEN asked THEN it is left out and the snapshot is allowed', () => {
    expect(snapshotKind(subject({ disks: [root, { target: 'vdb', format: 'raw', readonly: true, device: 'disk' }] }))).toEqual({
      ok: true,
      kind: 'memory',
    });
  });

  it('GIVEN memory = false on a running guest WHEN asked THEN it is refused as an external snapshot', () => {
    expect(snapshotKind(subject(), false)).toMatchObject({ ok: false, problem: expect.stringContaining('external') });
  });

  it('GIVEN memory = true on a shut-off guest WHEN asked THEN it is refused naming the fix', () => {
    expect(snapshotKind(subject({ running: false }), true)).toMatchObject({ ok: false, fix: expect.stringContaining('running = true') });
  });
});
