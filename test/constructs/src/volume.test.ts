import { Testing } from 'cdktf';
import { bindings, Size, Volume } from '../../../constructs';
import { byName, synth } from '../synth-helpers';

Testing.setupJest();

describe('Volume', () => {
  test('GIVEN a name and a source WHEN synthesized THEN a qcow2 virtseed_volume in the default pool uploads it', () => {
    const out = Testing.synthScope((s) => new Volume(s, 'v', { name: 'img', source: '/images/debian.qcow2' }));
    expect(out).toHaveResourceWithProperties(bindings.volume.Volume, {
      pool: 'default',
      name: 'img',
      format: 'qcow2',
      source: '/images/debian.qcow2',
    });
  });

  test('GIVEN a capacity of 10 GiB WHEN synthesized THEN capacity is in bytes', () => {
    const out = synth((s) => new Volume(s, 'v', { name: 'data', pool: 'fast', capacity: Size.gibibytes(10) }));
    expect(byName(out, 'virtseed_volume', 'data').body).toMatchObject({ pool: 'fast', capacity: 10737418240 });
  });

  test('GIVEN a backing volume WHEN synthesized THEN backing_volume is set', () => {
    const out = synth((s) => {
      const base = new Volume(s, 'base', { name: 'base', source: '/i.qcow2' });
      new Volume(s, 'root', { name: 'root', backingVolume: base.volumeId });
    });
    const base = byName(out, 'virtseed_volume', 'base').address;
    expect(byName(out, 'virtseed_volume', 'root').body.backing_volume).toBe(`\${${base}.id}`);
  });

  test('GIVEN a name with a slash WHEN constructed THEN it throws naming Volume.name', () => {
    expect(() => synth((s) => new Volume(s, 'v', { name: 'a/b' }))).toThrow(/Volume\.name: invalid name 'a\/b'/);
  });

  test('GIVEN format raw and a backing volume WHEN constructed THEN it throws naming Volume.format', () => {
    expect(() => synth((s) => new Volume(s, 'v', { name: 'r', format: 'raw', backingVolume: '/x' }))).toThrow(/Volume\.format/);
  });

  test('GIVEN a zero capacity WHEN constructed THEN it throws naming Volume.capacity', () => {
    expect(() => synth((s) => new Volume(s, 'v', { name: 'z', capacity: Size.bytes(0) }))).toThrow(/Volume\.capacity/);
  });
});
