/** Generated mount config: raw-device symlinks (Virtlet parity) next to fstab mounts. */
import { MOUNT_SCRIPT_PATH } from '../../../src/seed';
import { mountsConfig } from '../../../src/seed/user-data/generated';

const script = (config: ReturnType<typeof mountsConfig>) =>
  (config.write_files ?? []).find((w) => w.path === MOUNT_SCRIPT_PATH)?.content ?? '';

test('GIVEN a mount with a symlink WHEN rendered THEN the script creates the directory and links the device', () => {
  const config = mountsConfig([{ device: 'vdb', symlink: '/dev/disk/virtseed/data', mount_point: '/data' }]);
  expect(script(config)).toContain("mkdir -p '/dev/disk/virtseed' && ln -sfn '/dev/vdb' '/dev/disk/virtseed/data' || status=1\n");
});

test('GIVEN a symlink-only mount WHEN rendered THEN there is no fstab entry and no mount line', () => {
  const config = mountsConfig([{ device: '/dev/vdc', symlink: '/dev/disk/virtseed/raw' }]);
  expect(config.mounts).toBeUndefined();
  expect(script(config)).not.toMatch(/^mount_one /m);
});

test('GIVEN a mount without a symlink WHEN rendered THEN the script has no ln line', () => {
  const config = mountsConfig([{ device: 'vdb', mount_point: '/data' }]);
  expect(script(config)).not.toContain('ln -sfn');
  expect(config.mounts).toEqual([['/dev/vdb', '/data', 'auto', 'defaults,nofail', '0', '2']]);
});
