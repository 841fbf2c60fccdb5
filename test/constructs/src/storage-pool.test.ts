import { Testing } from 'cdktf';
import {
  BaseImage,
  bindings,
  CloudInit,
  ConstructPropsError,
  StoragePool,
  StoragePoolProps,
  StoragePoolType,
  VirtualMachine,
  Volume,
} from '../../../constructs';
import { byName, resources, synth } from '../synth-helpers';

Testing.setupJest();

function thrown(props: StoragePoolProps): ConstructPropsError {
  try {
    synth((s) => new StoragePool(s, 'pool', props));
  } catch (err) {
    return err as ConstructPropsError;
  }
  throw new Error('no error thrown');
}

describe('StoragePool', () => {
  test('GIVEN a name and a path WHEN synthesized THEN a dir virtseed_pool that autostarts and runs', () => {
    expect(
      Testing.synthScope((s) => new StoragePool(s, 'pool', { name: 'web-images', path: '/var/lib/libvirt/images/web' })),
    ).toHaveResourceWithProperties(bindings.pool.Pool, {
      name: 'web-images',
      type: 'dir',
      path: '/var/lib/libvirt/images/web',
      autostart: true,
      active: true,
    });
  });

  test('GIVEN an NFS pool WHEN synthesized THEN host, export and format are the source attributes', () => {
    const out = synth(
      (s) =>
        new StoragePool(s, 'nfs', {
          name: 'nfs',
          type: StoragePoolType.NETFS,
          path: '/mnt/nfs',
          host: 'nfs.example.net',
          exportDir: '/srv',
          format: 'nfs',
        }),
    );
    expect(byName(out, 'virtseed_pool', 'nfs').body).toMatchObject({
      type: 'netfs',
      source_host: 'nfs.example.net',
      source_dir: '/srv',
      source_format: 'nfs',
    });
  });

  test('GIVEN a logical pool on devices WHEN synthesized THEN source_devices and source_name carry them', () => {
    const out = synth(
      (s) => new StoragePool(s, 'vg', { name: 'vg-guests', type: StoragePoolType.LOGICAL, volumeGroup: 'guests', devices: ['/dev/sdb'] }),
    );
    expect(byName(out, 'virtseed_pool', 'vg-guests').body).toMatchObject({
      type: 'logical',
      source_name: 'guests',
      source_devices: ['/dev/sdb'],
    });
  });

  test('GIVEN a dir pool without path WHEN constructed THEN the error names path', () => {
    expect(thrown({ name: 'p' }).message).toMatch(/^StoragePool: the storage pool definition has 1 error\(s\):\nerror: path: Missing path/);
  });

  test('GIVEN a netfs pool without host and export WHEN constructed THEN both props are named', () => {
    const message = thrown({ name: 'n', type: StoragePoolType.NETFS, path: '/mnt/n' }).message;
    expect(message).toMatch(/error: host: Missing source host/);
    expect(message).toMatch(/error: exportDir: Missing source directory/);
  });

  test('GIVEN a relative device WHEN constructed THEN the error names devices[1]', () => {
    expect(thrown({ name: 'vg', type: StoragePoolType.LOGICAL, devices: ['/dev/sdb', 'sdc'] }).message).toMatch(
      /devices\[1\]: Invalid device/,
    );
  });

  test('GIVEN a dir pool with a volume group WHEN constructed THEN the error says it belongs to logical pools', () => {
    expect(thrown({ name: 'p', path: '/p', volumeGroup: 'vg' }).message).toMatch(/volumeGroup: Source field of another pool type.*logical/);
  });
});

describe('a StoragePool as pool', () => {
  test('GIVEN a Volume in a StoragePool WHEN synthesized THEN its pool refers to the pool resource', () => {
    const out = synth((s) => {
      const pool = new StoragePool(s, 'pool', { name: 'p1', path: '/p1' });
      new Volume(s, 'v', { name: 'data', pool, capacity: undefined, source: '/i.qcow2' });
    });
    const pool = byName(out, 'virtseed_pool', 'p1').address;
    expect(byName(out, 'virtseed_volume', 'data').body.pool).toBe(`\${${pool}.name}`);
  });

  test('GIVEN a VirtualMachine in a StoragePool WHEN synthesized THEN its base, root and seed volumes all refer to the pool', () => {
    const out = synth((s) => {
      const pool = new StoragePool(s, 'pool', { name: 'p2', path: '/p2' });
      new VirtualMachine(s, 'vm', {
        name: 'vm1',
        pool,
        baseImage: BaseImage.fromFile('/img/debian.qcow2'),
        cloudInit: CloudInit.fromConfig({ hostname: 'vm1' }),
      });
    });
    const pool = `\${${byName(out, 'virtseed_pool', 'p2').address}.name}`;
    expect(resources(out, 'virtseed_volume').map(([, b]) => b.pool)).toEqual([pool, pool]);
    expect(resources(out, 'virtseed_cloudinit_seed').map(([, b]) => b.pool)).toEqual([pool]);
  });

  test('GIVEN two VirtualMachines on one image in one StoragePool WHEN synthesized THEN they share one base volume', () => {
    const out = synth((s) => {
      const pool = new StoragePool(s, 'pool', { name: 'p3', path: '/p3' });
      for (const n of ['a', 'b']) new VirtualMachine(s, n, { name: n, pool, baseImage: BaseImage.fromFile('/img/debian.qcow2') });
    });
    expect(resources(out, 'virtseed_volume').filter(([, b]) => b.source === '/img/debian.qcow2')).toHaveLength(1);
  });
});
