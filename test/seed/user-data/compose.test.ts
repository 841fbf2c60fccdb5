import { gunzipSync } from 'node:zlib';
import { parse } from 'yaml';
import { composeUserData } from '../../../src/seed/user-data/compose';
import type { SeedSpec } from '../../../src/seed';

const text = (spec: SeedSpec) => Buffer.from(composeUserData(spec).bytes).toString('utf8');
const body = (spec: SeedSpec) => parse(text(spec).replace(/^#cloud-config\n/, ''), { version: '1.1' });

describe('composeUserData', () => {
  it('GIVEN no inputs WHEN composed THEN user-data is an empty cloud-config', () => {
    expect(text({})).toBe('#cloud-config\n{}\n');
  });

  it('GIVEN generated parts, cloud_config and cloud-config user_data WHEN composed THEN they merge in that order', () => {
    const spec: SeedSpec = {
      mounts: [{ device: 'vdb', mount_point: '/data' }],
      cloud_config: { runcmd: ['from-cloud-config'] },
      user_data: '#cloud-config\nruncmd:\n  - from-user-data\n',
    };
    expect(body(spec).runcmd).toEqual([['/bin/sh', '/etc/cloud/virtseed-mounts.sh'], 'from-cloud-config', 'from-user-data']);
  });

  it('GIVEN merge_overwrite WHEN user_data sets runcmd THEN it replaces earlier runcmd', () => {
    const spec: SeedSpec = { merge_overwrite: true, cloud_config: { runcmd: ['a'] }, user_data: '#cloud-config\nruncmd: [b]\n' };
    expect(body(spec).runcmd).toEqual(['b']);
  });

  describe('merge_overwrite and the generated inputs', () => {
    const USER_FILE = '#cloud-config\nwrite_files:\n  - path: /etc/mine\n    content: mine\n';
    const generated: SeedSpec = {
      merge_overwrite: true,
      environment: { A: '1' },
      files: [{ path: '/etc/app.conf', content: 'x' }],
      mounts: [{ device: 'vdb', mount_point: '/data' }],
    };

    it('GIVEN the user sets write_files WHEN composed THEN no generated runcmd refers to a file that is not written', () => {
      const b = body({ ...generated, user_data: USER_FILE });
      const written = (b.write_files as { path: string }[]).map((w) => w.path);
      const referred = ((b.runcmd ?? []) as unknown[])
        .flat()
        .filter((w): w is string => typeof w === 'string' && w.startsWith('/etc/cloud/'));
      expect(referred.filter((p) => !written.includes(p))).toEqual([]);
    });

    it('GIVEN the user sets write_files WHEN composed THEN the generated inputs are dropped whole and one warning names each', () => {
      const composed = composeUserData({ ...generated, user_data: USER_FILE });
      expect(body({ ...generated, user_data: USER_FILE })).toEqual({ write_files: [{ path: '/etc/mine', content: 'mine' }] });
      expect(composed.diagnostics).toEqual([
        expect.objectContaining({ severity: 'warning', path: ['merge_overwrite'], summary: 'Generated inputs dropped by merge_overwrite' }),
      ]);
      const detail = composed.diagnostics[0].detail;
      expect(detail).toContain('environment (/etc/cloud/environment): user_data sets write_files');
      expect(detail).toContain('files (/etc/app.conf): user_data sets write_files');
      expect(detail).toContain(
        'mounts (fstab entries for /data, /etc/cloud/virtseed-mounts.sh and the runcmd that runs it): user_data sets write_files',
      );
    });

    it('GIVEN the user sets only runcmd WHEN composed THEN mounts is dropped whole and environment and files stay', () => {
      const b = body({ ...generated, cloud_config: { runcmd: ['mine'] } });
      expect(b).toEqual({
        runcmd: ['mine'],
        write_files: [
          { path: '/etc/cloud/environment', content: 'A=1\n', permissions: '0644' },
          { path: '/etc/app.conf', content: 'x' },
        ],
      });
    });

    it('GIVEN environment and files and no user write_files WHEN composed THEN both generated files are written (generated parts merge among themselves)', () => {
      const b = body({ merge_overwrite: true, environment: { A: '1' }, files: [{ path: '/etc/app.conf', content: 'x' }] });
      expect((b.write_files as { path: string }[]).map((w) => w.path)).toEqual(['/etc/cloud/environment', '/etc/app.conf']);
    });

    it('GIVEN the user sets fqdn WHEN composed THEN it replaces the generated fqdn without a warning (a merge would too)', () => {
      const composed = composeUserData({ merge_overwrite: true, fqdn: 'a.example', cloud_config: { fqdn: 'b.example' } });
      expect([body({ merge_overwrite: true, fqdn: 'a.example', cloud_config: { fqdn: 'b.example' } }).fqdn, composed.diagnostics]).toEqual([
        'b.example',
        [],
      ]);
    });
  });

  it('GIVEN keys in any order WHEN composed THEN keys are sorted', () => {
    expect(text({ cloud_config: { timezone: 'UTC', packages: ['a'] } })).toBe('#cloud-config\npackages:\n  - a\ntimezone: UTC\n');
  });

  it('GIVEN environment WHEN composed THEN /etc/cloud/environment has sorted KEY=value lines', () => {
    expect(body({ environment: { B: '2', A: 'x y' } }).write_files).toEqual([
      { path: '/etc/cloud/environment', content: 'A=x y\nB=2\n', permissions: '0644' },
    ]);
  });

  it('GIVEN a binary file WHEN composed THEN it is written with encoding b64', () => {
    const b64 = Buffer.from([0xff, 0xfe, 0x00]).toString('base64');
    expect(body({ files: [{ path: '/bin/blob', content_base64: b64 }] }).write_files).toEqual([
      { path: '/bin/blob', content: b64, encoding: 'b64' },
    ]);
  });

  it('GIVEN base64 of UTF-8 text WHEN composed THEN it is written as plain content', () => {
    const b64 = Buffer.from('héllo\n').toString('base64');
    expect(
      body({ files: [{ path: '/etc/t', content_base64: b64, owner: 'root:root', permissions: '0600', defer: true, append: true }] })
        .write_files,
    ).toEqual([{ path: '/etc/t', content: 'héllo\n', owner: 'root:root', permissions: '0600', defer: true, append: true }]);
  });

  it('GIVEN a mount WHEN composed THEN an fstab entry with defaults is generated', () => {
    expect(body({ mounts: [{ device: '/dev/vdc', mount_point: '/srv', fs_type: 'xfs', options: 'noatime' }] }).mounts).toEqual([
      ['/dev/vdc', '/srv', 'xfs', 'noatime', '0', '2'],
    ]);
    expect(body({ mounts: [{ device: 'vdb', mount_point: '/data' }] }).mounts).toEqual([
      ['/dev/vdb', '/data', 'auto', 'defaults,nofail', '0', '2'],
    ]);
  });

  it('GIVEN fqdn WHEN composed THEN cloud-config carries fqdn', () => {
    expect(body({ fqdn: 'vm.example.com' }).fqdn).toBe('vm.example.com');
  });

  it('GIVEN a #! user_data and generated parts WHEN composed THEN the script replaces everything and a warning names the dropped inputs', () => {
    const result = composeUserData({ environment: { A: '1' }, cloud_config: { runcmd: ['x'] }, user_data: '#!/bin/sh\necho hi\n' });
    expect(Buffer.from(result.bytes).toString()).toBe('#!/bin/sh\necho hi\n');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', path: ['user_data'], detail: expect.stringContaining('environment, cloud_config') }),
    ]);
  });

  it('GIVEN MIME user_data WHEN composed THEN it passes through unchanged', () => {
    const mime =
      'Content-Type: multipart/mixed; boundary="b"\nMIME-Version: 1.0\n\n--b\nContent-Type: text/x-shellscript\n\n#!/bin/sh\n--b--\n';
    expect(text({ user_data: mime })).toBe(mime);
  });

  it('GIVEN user_data_parts WHEN composed THEN user-data is multipart with the cloud-config part first', () => {
    const out = text({
      cloud_config: { runcmd: ['a'] },
      user_data_parts: [{ content: '#!/bin/sh\necho\n', content_type: 'text/x-shellscript', merge_type: 'list(append)' }],
    });
    expect(out).toMatch(/^Content-Type: multipart\/mixed; boundary="==VIRTSEED-[0-9a-f]{24}=="\nMIME-Version: 1.0\n/);
    expect(out.indexOf('text/cloud-config')).toBeLessThan(out.indexOf('text/x-shellscript'));
    expect(out).toContain('filename="part-001"');
    expect(out).toContain('Merge-Type: list(append)');
  });

  it('GIVEN the same parts twice WHEN composed THEN the bytes (and boundary) are identical', () => {
    const spec: SeedSpec = { user_data_parts: [{ content: 'x', content_type: 'text/x-shellscript' }] };
    expect(text(spec)).toBe(text(spec));
  });

  it('GIVEN different parts WHEN composed THEN the boundary differs', () => {
    const boundary = (s: string) => /boundary="([^"]+)"/.exec(s)?.[1];
    expect(boundary(text({ user_data_parts: [{ content: 'x' }] }))).not.toBe(boundary(text({ user_data_parts: [{ content: 'y' }] })));
  });

  it('GIVEN user_data_gzip WHEN composed THEN the bytes are deterministic gzip with mtime 0', () => {
    const a = composeUserData({ cloud_config: { runcmd: ['a'] }, user_data_gzip: true }).bytes;
    expect([a[0], a[1], a[4], a[5], a[6], a[7]]).toEqual([0x1f, 0x8b, 0, 0, 0, 0]);
    expect(gunzipSync(a).toString()).toBe('#cloud-config\nruncmd:\n  - a\n');
    expect(Buffer.from(composeUserData({ cloud_config: { runcmd: ['a'] }, user_data_gzip: true }).bytes).equals(Buffer.from(a))).toBe(true);
  });
});
