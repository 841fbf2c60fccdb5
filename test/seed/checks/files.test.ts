/** Mount validation: mount_point and/or symlink. */
import { validateSeed } from '../../../src/seed';

const paths = (mounts: unknown[]) =>
  validateSeed({ mounts } as never)
    .filter((d) => d.severity === 'error')
    .map((d) => [d.summary, d.path]);

test('GIVEN a mount with only a symlink WHEN validated THEN there is no error', () => {
  expect(paths([{ device: 'vdb', symlink: '/dev/disk/virtseed/data' }])).toEqual([]);
});

test('GIVEN a mount with neither mount_point nor symlink WHEN validated THEN the mount itself is the error path', () => {
  expect(paths([{ device: 'vdb' }])).toEqual([['Mount without target', ['mounts', 0]]]);
});

test('GIVEN a relative or directory-like symlink WHEN validated THEN it is an invalid symlink path', () => {
  expect(
    paths([
      { device: 'vdb', symlink: 'dev/data' },
      { device: 'vdc', symlink: '/dev/disk/' },
    ]),
  ).toEqual([
    ['Invalid symlink path', ['mounts', 0, 'symlink']],
    ['Invalid symlink path', ['mounts', 1, 'symlink']],
  ]);
});

test('GIVEN two mounts with the same symlink WHEN validated THEN the second is a duplicate', () => {
  expect(
    paths([
      { device: 'vdb', symlink: '/dev/disk/d' },
      { device: 'vdc', symlink: '/dev/disk/d', mount_point: '/c' },
    ]),
  ).toEqual([['Duplicate symlink', ['mounts', 1, 'symlink']]]);
});
