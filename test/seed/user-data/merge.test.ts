import { mergeCloudConfigs } from '../../../src/seed/user-data/merge';

describe('mergeCloudConfigs (Virtlet merge rules)', () => {
  it('GIVEN two sources with lists WHEN merged THEN lists append in source order', () => {
    expect(mergeCloudConfigs([{ runcmd: ['a'] }, { runcmd: ['b'] }])).toEqual({ runcmd: ['a', 'b'] });
  });

  it('GIVEN two sources with maps WHEN merged THEN maps merge recursively', () => {
    const merged = mergeCloudConfigs([
      { chpasswd: { expire: true, users: [{ name: 'a', password: 'x' }] } },
      { chpasswd: { users: [{ name: 'b', password: 'y' }] } },
    ]);
    expect(merged).toEqual({
      chpasswd: {
        expire: true,
        users: [
          { name: 'a', password: 'x' },
          { name: 'b', password: 'y' },
        ],
      },
    });
  });

  it('GIVEN a scalar in both sources WHEN merged THEN the later one wins', () => {
    expect(mergeCloudConfigs([{ timezone: 'UTC' }, { timezone: 'Europe/Berlin' }])).toEqual({ timezone: 'Europe/Berlin' });
  });

  it('GIVEN overwrite WHEN merged THEN a later top-level key replaces the earlier one wholesale', () => {
    expect(mergeCloudConfigs([{ runcmd: ['a'], packages: ['p'] }, { runcmd: ['b'] }], { overwrite: true })).toEqual({
      runcmd: ['b'],
      packages: ['p'],
    });
  });

  it('GIVEN inputs WHEN merged THEN the inputs are not modified', () => {
    const first = { runcmd: ['a'] };
    mergeCloudConfigs([first, { runcmd: ['b'] }]);
    expect(first).toEqual({ runcmd: ['a'] });
  });
});
