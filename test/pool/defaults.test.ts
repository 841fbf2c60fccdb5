/** withLibvirtDefaults (src/pool/defaults.ts): what libvirt fills in at define. */
import { withLibvirtDefaults, type PoolSpec } from '../../src/pool';

const DIR: PoolSpec = { name: 'web-images', type: 'dir', path: '/var/lib/libvirt/images/web-images' };

describe('withLibvirtDefaults', () => {
  it('GIVEN a logical pool without volume group and path WHEN completed THEN both follow the pool name, format lvm2', () => {
    expect(withLibvirtDefaults({ name: 'vg1', type: 'logical', source: { devices: ['/dev/sdb'] } })).toEqual({
      name: 'vg1',
      type: 'logical',
      path: '/dev/vg1',
      source: { devices: ['/dev/sdb'], name: 'vg1', format: 'lvm2' },
    });
  });

  it('GIVEN a netfs pool without format WHEN completed THEN the format is auto', () => {
    expect(withLibvirtDefaults({ name: 'n', type: 'netfs', path: '/m', source: { host: 'h', dir: '/d' } }).source?.format).toBe('auto');
  });

  it('GIVEN a dir pool WHEN completed THEN it is unchanged', () => {
    expect(withLibvirtDefaults(DIR)).toBe(DIR);
  });
});
