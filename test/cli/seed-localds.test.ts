/** The pure parts of the cloud-localds form (cli/commands/seed-localds.ts). */
import { LocaldsError, localdsMetaData, localdsWarnings, resolveFormats, vfatSize } from '../../cli/commands/seed-localds';

describe('localdsMetaData', () => {
  it("GIVEN no options WHEN written THEN it is cloud-localds's JSON with its instance-id only", () => {
    expect(localdsMetaData({})).toBe('{\n"instance-id": "iid-local01"\n}\n');
  });

  it("GIVEN hostname, interfaces and dsmode WHEN written THEN they follow in cloud-localds's order, interfaces joined by \\n", () => {
    expect(localdsMetaData({ dsmode: 'local', hostname: 'web1', interfaces: 'auto eth0\niface eth0 inet dhcp\n\n' })).toBe(
      '{\n"instance-id": "iid-local01",\n"local-hostname": "web1",\n"interfaces": "auto eth0\\niface eth0 inet dhcp\\n",\n"dsmode": "local"\n}\n',
    );
  });

  it('GIVEN a value with a quote WHEN written THEN it is escaped (valid JSON, unlike cloud-localds)', () => {
    expect(JSON.parse(localdsMetaData({ interfaces: 'a "b" \\ c' }))).toEqual({ 'instance-id': 'iid-local01', interfaces: 'a "b" \\ c' });
  });
});

describe('resolveFormats', () => {
  it.each([
    [undefined, undefined, { filesystem: 'iso9660', diskFormat: 'raw' }],
    ['raw', 'iso', { filesystem: 'iso9660', diskFormat: 'raw' }],
    ['qcow2', 'iso9660', { filesystem: 'iso9660', diskFormat: 'qcow2' }],
    ['tar-seed-local', undefined, { filesystem: 'tar-seed-local', diskFormat: 'tar-seed-local' }],
    ['tar', 'tar', { filesystem: 'tar', diskFormat: 'tar' }],
    ['qcow2', 'vfat', { filesystem: 'vfat', diskFormat: 'qcow2' }],
  ])('GIVEN -d %s -f %s WHEN resolved THEN %j', (d, f, want) => {
    expect(resolveFormats(d, f)).toEqual(want);
  });

  it.each([
    ['tar', 'iso', /-d tar writes a tar archive and takes no -f/],
    ['tarx', undefined, /the tar formats are/],
    ['raw', 'configdrive', /--format configdrive/],
    ['raw', 'ext4', /unknown file system; expected iso, iso9660 or vfat/],
    ['../x', undefined, /expected raw, a qemu-img format/],
  ])('GIVEN -d %s -f %s WHEN resolved THEN a LocaldsError says %s', (d, f, message) => {
    expect(() => resolveFormats(d, f)).toThrow(LocaldsError);
    expect(() => resolveFormats(d, f)).toThrow(message);
  });
});

describe('localdsWarnings', () => {
  const file = (path: string, text: string) => ({ path, content: new TextEncoder().encode(text) });

  it('GIVEN a bad cloud-config, network-config and vendor-data WHEN checked THEN each finding is a warning naming its file', () => {
    const files = [
      file('user-data', '#cloud-config\nusers: 3\n'),
      file('meta-data', 'instance-id: x\n'),
      file('network-config', 'version: 2\nethernets: 3\n'),
      file('vendor-data', '#cloud-config\nfoo: 1\n'),
    ];
    expect(localdsWarnings(files, { userData: 'ud.yaml', networkConfig: 'nc.yaml', vendorData: 'vd' })).toEqual([
      expect.stringMatching(/^warning: USER-DATA ud\.yaml: users: Invalid cloud-config: /),
      expect.stringMatching(/^warning: -V vd: foo: Unknown cloud-config key: /),
      expect.stringMatching(/^warning: -N nc\.yaml: ethernets: Invalid network-config v2: /),
    ]);
  });

  it('GIVEN a script or binary user-data read from stdin WHEN checked THEN there is nothing to say', () => {
    expect(localdsWarnings([file('user-data', '#!/bin/sh\necho hi\n'), file('meta-data', '{}')], { userData: '-' })).toEqual([]);
    expect(localdsWarnings([{ path: 'user-data', content: new Uint8Array([0xff, 0xfe, 0]) }], { userData: '-' })).toEqual([]);
  });
});

describe('vfatSize', () => {
  it("GIVEN small files WHEN sized THEN cloud-localds's 128 KiB; GIVEN 4 MiB THEN a 64 KiB multiple with room to spare", () => {
    expect(vfatSize([{ path: 'user-data', content: new Uint8Array(1000) }])).toBe(131072);
    const big = vfatSize([{ path: 'user-data', content: new Uint8Array(4 << 20) }]);
    expect(big % 65536).toBe(0);
    expect(big).toBeGreaterThan((4 << 20) + 64 * 1024);
  });
});
