import {
  backupId,
  checkpointName,
  compareFiles,
  ManifestError,
  parseBackupId,
  parseManifest,
  renderManifest,
  type BackupManifest,
} from '../../src/backup';

const sha = (c: string): string => c.repeat(64);

const manifest: BackupManifest = {
  format: 1,
  id: '0002-incremental',
  sequence: 2,
  kind: 'incremental',
  parent: '0001-full',
  base: '0001-full',
  checkpoint: 'virtseed-backup-0002',
  domain: { name: 'web-1', uuid: '5d3c2e0a-9b1f-4c65-8f35-0c1a3e6b2d11', instanceId: 'iid-web-1' },
  consistency: 'filesystem',
  takenAt: '2026-11-28T00:00:00.000Z',
  skipped: [{ target: 'vdb', reason: 'format raw: backups with checkpoints need qcow2' }],
  files: [
    { name: 'disk-vda.qcow2', role: 'disk', target: 'vda', bytes: 327680, sha256: sha('a') },
    { name: 'domain.xml', role: 'definition', bytes: 2048, sha256: sha('b') },
    { name: 'seed-sda.iso', role: 'seed', target: 'sda', bytes: 376832, sha256: sha('c') },
  ],
};

describe('backup ids', () => {
  it('GIVEN a sequence and kind WHEN named THEN four digits and the kind, read back the same', () => {
    expect(backupId(2, 'incremental')).toBe('0002-incremental');
    expect(parseBackupId('0002-incremental')).toEqual({ sequence: 2, kind: 'incremental' });
    // The key: the first 8 hex digits of sha256("/srv/backups/web-1") (`printf %s /srv/backups/web-1 | sha256sum`).
    expect(checkpointName(12, '/srv/backups/web-1')).toBe('virtseed-backup-686d4f24-0012');
  });

  it.each(['0000-full', '12-full', '0001-partial', 'restored.qcow2'])('GIVEN %s WHEN read as an id THEN null', (s) => {
    expect(parseBackupId(s)).toBeNull();
  });

  it('GIVEN sequence 0 WHEN named THEN it throws', () => {
    expect(() => backupId(0, 'full')).toThrow('backup sequence 0: expected 1 to 9999');
  });
});

describe('manifest JSON', () => {
  it('GIVEN a manifest WHEN rendered and parsed THEN the same manifest, and rendering is byte-stable', () => {
    const text = renderManifest(manifest);
    expect(parseManifest(text)).toEqual(manifest);
    expect(renderManifest(parseManifest(text))).toBe(text);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it.each([
    [{ consistency: 'maybe' }, 'manifest consistency: expected "filesystem" or "crash", got "maybe"'],
    [{ kind: 'full' }, 'manifest kind: expected incremental (from the id), got "full"'],
    [{ parent: null }, 'manifest parent: expected the id of the backup this one adds to, got null'],
    [{ files: [{ ...manifest.files[0], sha256: 'ABC' }] }, 'manifest files[0].sha256: expected 64 lower-case hex digits, got "ABC"'],
    [
      { files: [{ ...manifest.files[0], name: '../x' }] },
      'manifest files[0].name: expected a file name (letters, digits, . _ -), got "../x"',
    ],
  ])('GIVEN a manifest with %j WHEN parsed THEN ManifestError names the field', (change, message) => {
    const bad = JSON.stringify({ ...JSON.parse(renderManifest(manifest)), ...change });
    expect(() => parseManifest(bad)).toThrow(ManifestError);
    expect(() => parseManifest(bad)).toThrow(message);
  });
});

describe('compareFiles', () => {
  it('GIVEN measured files WHEN compared THEN a missing file, another size and another sha256 are each named', () => {
    const measured = new Map([
      ['disk-vda.qcow2', { bytes: 327680, sha256: sha('f') }],
      ['domain.xml', { bytes: 1, sha256: sha('b') }],
      ['seed-sda.iso', null],
    ]);
    expect(compareFiles(manifest, measured)).toEqual([
      { backup: '0002-incremental', name: 'disk-vda.qcow2', problem: 'sha256', expected: sha('a'), actual: sha('f') },
      { backup: '0002-incremental', name: 'domain.xml', problem: 'size', expected: '2048 bytes', actual: '1 bytes' },
      { backup: '0002-incremental', name: 'seed-sda.iso', problem: 'missing', expected: '376832 bytes', actual: 'no file' },
    ]);
  });

  it('GIVEN matching files WHEN compared THEN nothing', () => {
    expect(compareFiles(manifest, new Map(manifest.files.map((f) => [f.name, { bytes: f.bytes, sha256: f.sha256 }])))).toEqual([]);
  });
});
