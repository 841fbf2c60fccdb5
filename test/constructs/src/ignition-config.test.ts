import { createHash } from 'crypto';
import { Testing } from 'cdktf';
import { bindings, IgnitionConfig } from '../../../constructs';
import { byName, synth } from '../synth-helpers';

Testing.setupJest();

const config = {
  ignition: { version: '3.3.0' },
  storage: { files: [{ path: '/etc/hostname', mode: 420, contents: { source: 'data:,ign-host' } }] },
};

describe('IgnitionConfig', () => {
  test('GIVEN a typed config WHEN synthesized THEN a virtseed_ignition holds its rendered JSON', () => {
    const out = Testing.synthScope((s) => new IgnitionConfig(s, 'ign', { name: 'h-ignition', config: config as never }));
    expect(out).toHaveResourceWithProperties(bindings.ignition.Ignition, { pool: 'default', name: 'h-ignition' });
    const content = byName(JSON.parse(out), 'virtseed_ignition', 'h-ignition').body.content as string;
    expect(JSON.parse(content)).toMatchObject(config);
  });

  test('GIVEN a valid config WHEN constructed THEN instanceId is ign- and 16 hex of the sha256 of the content', () => {
    let ign!: IgnitionConfig;
    synth((s) => {
      ign = new IgnitionConfig(s, 'ign', { name: 'h', config: JSON.stringify(config) });
    });
    expect(ign.instanceId).toBe(`ign-${createHash('sha256').update(ign.content).digest('hex').slice(0, 16)}`);
  });

  test('GIVEN an unsupported spec version WHEN synthesized THEN it throws naming the prop and the path', () => {
    expect(() => synth((s) => new IgnitionConfig(s, 'ign', { name: 'h', config: '{"ignition":{"version":"9.9.9"}}' }))).toThrow(
      /ign config: the Ignition config has 1 error\(s\):\nerror: ignition\.version: Unsupported Ignition spec version/,
    );
  });

  test('GIVEN text that is not JSON WHEN synthesized THEN it throws naming the prop', () => {
    expect(() => synth((s) => new IgnitionConfig(s, 'ign', { name: 'h', config: '{not json' }))).toThrow(
      /ign config: the Ignition config has/,
    );
  });

  test('GIVEN a name with a colon WHEN constructed THEN it throws naming IgnitionConfig.name', () => {
    expect(() => synth((s) => new IgnitionConfig(s, 'ign', { name: 'a:b', config: config as never }))).toThrow(/IgnitionConfig\.name/);
  });
});
