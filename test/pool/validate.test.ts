/** validatePoolSpec (src/pool/validate.ts): the rules libvirt would reject, with paths in the spec's keys. */
import { isAbsolutePath, validatePoolSpec, type PoolSpec } from '../../src/pool';

const paths = (spec: PoolSpec) => validatePoolSpec(spec).map((d) => d.path.join('.'));

describe('validatePoolSpec', () => {
  it('GIVEN a dir pool with a name and an absolute path WHEN validated THEN there is no problem', () => {
    expect(validatePoolSpec({ name: 'web-images', type: 'dir', path: '/var/lib/libvirt/images/web' })).toEqual([]);
  });

  it('GIVEN a dir pool without path WHEN validated THEN path is missing', () => {
    expect(validatePoolSpec({ name: 'a', type: 'dir' })).toEqual([expect.objectContaining({ path: ['path'], summary: 'Missing path' })]);
  });

  it.each(['relative/dir', '/var/lib/../etc', '/var//lib', '/var/lib/', '/var/./lib'])(
    'GIVEN the path %s WHEN validated THEN it is invalid (libvirt would store another spelling)',
    (path) => {
      expect(paths({ name: 'a', type: 'dir', path })).toEqual(['path']);
    },
  );

  it('GIVEN a name with a slash WHEN validated THEN the name is invalid', () => {
    expect(validatePoolSpec({ name: 'a/b', type: 'dir', path: '/x' })[0]).toMatchObject({ path: ['name'], summary: 'Invalid pool name' });
  });

  it('GIVEN an unknown type WHEN validated THEN only the type is reported, naming the known ones', () => {
    const d = validatePoolSpec({ name: 'a', type: 'iscsi' as never });
    expect(d).toEqual([expect.objectContaining({ path: ['type'] })]);
    expect(d[0]!.detail).toContain('dir, logical, netfs');
  });

  it('GIVEN a netfs pool without host and dir WHEN validated THEN both are missing', () => {
    expect(paths({ name: 'n', type: 'netfs', path: '/mnt/n' })).toEqual(['source.host', 'source.dir']);
  });

  it('GIVEN an nfs export with a relative dir WHEN validated THEN the dir is invalid; a cifs share name is fine', () => {
    expect(paths({ name: 'n', type: 'netfs', path: '/mnt/n', source: { host: 'nfs.example.net', dir: 'srv', format: 'nfs' } })).toEqual([
      'source.dir',
    ]);
    expect(paths({ name: 'n', type: 'netfs', path: '/mnt/n', source: { host: '10.0.0.5', dir: 'images', format: 'cifs' } })).toEqual([]);
  });

  it('GIVEN a netfs format lvm2 WHEN validated THEN the format is invalid', () => {
    expect(paths({ name: 'n', type: 'netfs', path: '/mnt/n', source: { host: 'h', dir: '/s', format: 'lvm2' } })).toEqual([
      'source.format',
    ]);
  });

  it('GIVEN a logical pool with a device listed twice and a relative one WHEN validated THEN each is reported at its index', () => {
    const d = validatePoolSpec({ name: 'vg', type: 'logical', source: { devices: ['/dev/sdb', 'sdc', '/dev/sdb'] } });
    expect(d.map((x) => [x.path.join('.'), x.summary])).toEqual([
      ['source.devices.1', 'Invalid device'],
      ['source.devices.2', 'Duplicate device'],
    ]);
  });

  it('GIVEN a dir pool with a source host WHEN validated THEN the error says which pool types take it', () => {
    const d = validatePoolSpec({ name: 'a', type: 'dir', path: '/x', source: { host: 'h' } });
    expect(d).toEqual([expect.objectContaining({ path: ['source', 'host'], summary: 'Source field of another pool type' })]);
    expect(d[0]!.detail).toContain('netfs');
  });
});

describe('isAbsolutePath', () => {
  it('GIVEN / and a normal path WHEN checked THEN both are absolute', () => {
    expect([isAbsolutePath('/'), isAbsolutePath('/a/b')]).toEqual([true, true]);
  });
});
