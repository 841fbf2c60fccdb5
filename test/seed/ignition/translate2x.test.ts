import { parseDataUrl, renderIgnition, translateV2 } from '../../../src/seed/ignition';
import { KUBEVIRT_2_2_0, V2_WITH_NETWORKD } from './cases';

describe('translateV2', () => {
  test("GIVEN KubeVirt's 2.2.0 example WHEN rendered THEN a 3.3.0 config with the user", () => {
    expect(JSON.parse(renderIgnition(KUBEVIRT_2_2_0).json)).toEqual({
      ignition: { version: '3.3.0' },
      passwd: { users: [{ name: 'core', sshAuthorizedKeys: ['ssh-rsa AAAAB3NzaC1yc2E test@example'] }] },
    });
  });

  test('GIVEN root-filesystem nodes WHEN translated THEN paths, modes, overwrite and link targets carry over', () => {
    const { config } = translateV2(V2_WITH_NETWORKD, '3.3.0');
    expect(config!.storage!.files![0]).toEqual({ path: '/etc/motd', overwrite: true, mode: 420, contents: { source: 'data:,hello' } });
    expect(config!.storage!.directories).toEqual([{ path: '/opt/app', mode: 493 }]);
    expect(config!.storage!.links).toEqual([{ path: '/usr/local/bin/app', target: '/opt/app/run' }]);
  });

  test('GIVEN networkd units WHEN translated THEN they become files in /etc/systemd/network', () => {
    const { config } = translateV2(V2_WITH_NETWORKD, '3.3.0');
    const file = config!.storage!.files![1];
    expect(file).toMatchObject({ path: '/etc/systemd/network/10-eth0.network', overwrite: true, mode: 420 });
    expect(Buffer.from(parseDataUrl(file.contents!.source!).data).toString()).toBe('[Match]\nName=eth0\n\n[Network]\nDHCP=yes\n');
  });

  test('GIVEN the deprecated unit "enable" WHEN translated THEN it becomes "enabled"', () => {
    expect(translateV2(V2_WITH_NETWORKD, '3.3.0').config!.systemd!.units![0]).toEqual({
      name: 'app.service',
      enabled: true,
      contents: '[Service]\nExecStart=/opt/app/run\n\n[Install]\nWantedBy=multi-user.target\n',
    });
  });

  test('GIVEN a file on a non-root filesystem WHEN translated THEN an error says how to fix', () => {
    const r = translateV2({ ignition: { version: '2.2.0' }, storage: { files: [{ filesystem: 'var', path: '/x' }] } }, '3.3.0');
    expect(r.config).toBeUndefined();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: ['storage', 'files', 0, 'filesystem'],
        detail: expect.stringMatching(/ign-converter|butane/),
      }),
    ]);
  });

  test('GIVEN append: true WHEN translated THEN an error at append', () => {
    const r = translateV2(
      { ignition: { version: '2.2.0' }, storage: { files: [{ filesystem: 'root', path: '/x', append: true }] } },
      '3.3.0',
    );
    expect(r.diagnostics.map((d) => d.path)).toEqual([['storage', 'files', 0, 'append']]);
  });

  test('GIVEN 2.x filesystems WHEN translated THEN an error at storage.filesystems', () => {
    const r = translateV2(
      { ignition: { version: '2.1.0' }, storage: { filesystems: [{ name: 'var', mount: { device: '/dev/vdb', format: 'xfs' } }] } },
      '3.3.0',
    );
    expect(r.diagnostics.map((d) => d.path)).toEqual([['storage', 'filesystems']]);
  });

  test('GIVEN a 2.x file with a source and no overwrite WHEN translated THEN overwrite is true (2.x default)', () => {
    const r = translateV2(
      { ignition: { version: '2.2.0' }, storage: { files: [{ filesystem: 'root', path: '/x', contents: { source: 'data:,a' } }] } },
      '3.3.0',
    );
    expect(r.config!.storage!.files![0].overwrite).toBe(true);
  });

  test('GIVEN config.append WHEN translated THEN merge plus a warning', () => {
    const r = translateV2({ ignition: { version: '2.2.0', config: { append: [{ source: 'https://x/y.ign' }] } } }, '3.3.0');
    expect(r.config!.ignition.config).toEqual({ merge: [{ source: 'https://x/y.ign' }] });
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'warning' })]);
  });

  test('GIVEN an untranslatable 2.x config WHEN rendered THEN ValidationError', () => {
    expect(() => renderIgnition({ ignition: { version: '2.2.0' }, storage: { files: [{ filesystem: 'oem', path: '/x' }] } })).toThrow(
      /non-root filesystem/,
    );
  });

  test('GIVEN version 2.4.0 WHEN translated THEN an error at ignition.version', () => {
    expect(translateV2({ ignition: { version: '2.4.0' } }, '3.3.0').diagnostics[0].path).toEqual(['ignition', 'version']);
  });
});
