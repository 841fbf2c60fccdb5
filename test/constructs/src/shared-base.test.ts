import { baseImageKey, defaultBaseVolumeName } from '../../../constructs/src/shared-base';

const KEY = '0123456789abcdef'.repeat(4);

describe('defaultBaseVolumeName', () => {
  it.each([
    ['/var/lib/images/debian-12-genericcloud-amd64.qcow2', 'debian-12-genericcloud-amd64-0123456789ab'],
    ['https://cloud.example.org/images/Fedora Cloud.raw?token=secret#x', 'Fedora-Cloud-0123456789ab'],
    ['https://example.org/', 'example.org-0123456789ab'],
    ['/images/__.qcow2', 'base-0123456789ab'],
    [`/images/${'a'.repeat(80)}.img`, `${'a'.repeat(50)}-0123456789ab`],
  ])('GIVEN %s WHEN named THEN %s', (source, name) => {
    expect(defaultBaseVolumeName(source, KEY)).toBe(name);
  });
});

describe('baseImageKey', () => {
  const image = { pool: 'default', source: '/i.qcow2', format: 'qcow2' as const };
  it('GIVEN the same image WHEN keyed twice THEN the keys agree; a sha256 in another case is the same image', () => {
    expect(baseImageKey('s', image)).toBe(baseImageKey('s', image));
    expect(baseImageKey('s', { ...image, sha256: 'AB'.repeat(32) })).toBe(baseImageKey('s', { ...image, sha256: 'ab'.repeat(32) }));
  });

  it('GIVEN another stack, pool, format or sha256 WHEN keyed THEN the key differs', () => {
    const k = baseImageKey('s', image);
    expect(
      new Set([
        k,
        baseImageKey('t', image),
        baseImageKey('s', { ...image, pool: 'p' }),
        baseImageKey('s', { ...image, format: 'raw' }),
        baseImageKey('s', { ...image, sha256: 'ab'.repeat(32) }),
      ]).size,
    ).toBe(5);
  });
});
