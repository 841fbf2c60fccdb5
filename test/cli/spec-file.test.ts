/** What `virtseed seed build SPEC -o ISO` accepts as a spec (cli/spec-file.ts), on in-memory values. */
import { closest, notASpec, unknownSpecKeys } from '../../cli/spec-file';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('notASpec', () => {
  it.each([
    ['#cloud-config\npackages: [nginx]\n', 'cloud-init user-data (#cloud-config)'],
    ['#cloud-config-archive\n- type: text/x-shellscript\n', 'cloud-init user-data (#cloud-config-archive)'],
    ['#!/bin/sh\necho hi\n', 'a user-data script (#!)'],
    ['Content-Type: multipart/mixed; boundary="x"\n', 'MIME multipart user-data'],
    ['## template: jinja\n#cloud-config\n', 'a cloud-init jinja template (## template: jinja)'],
    ['#include\nhttp://example.com/ud\n', 'cloud-init user-data (#include)'],
    ['  \n\n', 'empty'],
  ])('GIVEN %j WHEN checked THEN it is named as %s', (text, what) => {
    expect(notASpec(bytes(text))).toBe(what);
  });

  it('GIVEN bytes with a NUL WHEN checked THEN it is a binary file', () => {
    expect(notASpec(new Uint8Array([0x43, 0x44, 0, 1]))).toMatch(/^a binary file/);
  });

  it.each(['hostname: web1\n', '# my seed\nhostname: web1\n', '{"hostname": "web1"}'])(
    'GIVEN the spec %j WHEN checked THEN it passes',
    (text) => {
      expect(notASpec(bytes(text))).toBeUndefined();
    },
  );
});

describe('unknownSpecKeys', () => {
  it('GIVEN only known fields at every level WHEN checked THEN there is no diagnostic', () => {
    expect(
      unknownSpecKeys({
        hostname: 'a',
        cloud_config: { anything: 1 },
        meta_data: { x: 1 },
        environment: { A: 'b' },
        files: [{ path: '/a', content: 'x', owner: 'root:root' }],
        mounts: [{ device: 'vdb', mount_point: '/d' }],
        user_data_parts: [{ content: 'x', filename: 'f' }],
        network: { version: 2, interfaces: [{ name: 'eth0', dhcp4: true }] },
      }),
    ).toEqual([]);
  });

  it('GIVEN unknown fields WHEN checked THEN each is an error at its path, with a suggestion when one is close', () => {
    const d = unknownSpecKeys({
      hostnme: 'a',
      zzz: 1,
      mounts: [{ device: 'vdb', mountpoint: '/d' }],
      user_data_parts: [{ content: 'x', type: 'y' }],
    });
    expect(d.map((x) => [x.severity, x.path])).toEqual([
      ['error', ['hostnme']],
      ['error', ['zzz']],
      ['error', ['mounts', 0, 'mountpoint']],
      ['error', ['user_data_parts', 0, 'type']],
    ]);
    expect(d[0]!.detail).toMatch(/^"hostnme" is not a field of a seed spec; did you mean "hostname"\? The fields are: format, /);
    expect(d[1]!.detail).toMatch(/^"zzz" is not a field of a seed spec\. The fields are: /);
    expect(d[2]!.detail).toContain('did you mean "mount_point"?');
  });

  it('GIVEN lists and blocks of the wrong shape WHEN checked THEN they are left to the seed validator', () => {
    expect(unknownSpecKeys({ files: 'x', network: [1], mounts: [null, 3] })).toEqual([]);
  });
});

describe('closest', () => {
  it('GIVEN a name within two edits WHEN looked up THEN the nearest is returned, else undefined', () => {
    expect(closest('publickeys', ['public_keys', 'hostname'])).toBe('public_keys');
    expect(closest('Hostname', ['public_keys', 'hostname'])).toBe('hostname');
    expect(closest('banana', ['public_keys', 'hostname'])).toBeUndefined();
  });
});
