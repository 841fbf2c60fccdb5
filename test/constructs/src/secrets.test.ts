/**
 * Secrets for write-only inputs from the constructs (constructs/src/secrets.ts, issue 32): an ephemeral variable
 * flows into the `_wo` attributes, `cdk.tf.json` holds only the reference, and a string known at synth is rejected.
 */
import { Fn, Testing } from 'cdktf';
import { BaseImage, CloudInit, CloudInitSeed, Graphics, IgnitionConfig, secretVariable, VirtualMachine, Volume } from '../../../constructs';
import { byName, resources, synth, type Synth } from '../synth-helpers';

Testing.setupJest();

const CANARY = 'CanarySynthSecret-2b7e';

describe('write-only secrets from the constructs', () => {
  test('GIVEN secrets from ephemeral variables WHEN synthesized THEN cdk.tf.json has the references in the _wo attributes and the variables are ephemeral', () => {
    const out = Testing.synthScope((s) => {
      const cc = secretVariable(s, 'cloud_config', 'cloud-config with passwords');
      new CloudInitSeed(s, 'seed', {
        name: 'wo-seed',
        cloudInit: CloudInit.fromConfig({ hostname: 'wo' }),
        secrets: { cloudConfig: cc.stringValue, vendorData: Fn.file('/run/secrets/vendor') },
      });
      new IgnitionConfig(s, 'ign', { name: 'wo-ign', config: secretVariable(s, 'ignition').stringValue, writeOnly: true });
    });
    const json = JSON.parse(out) as Synth & { variable: Record<string, { ephemeral?: boolean }> };
    expect(json.variable.cloud_config?.ephemeral).toBe(true);
    expect(json.variable.ignition?.ephemeral).toBe(true);
    const seed = byName(json, 'virtseed_cloudinit_seed', 'wo-seed').body;
    expect(seed.cloud_config_wo).toBe('${var.cloud_config}');
    expect(seed.vendor_data_wo).toBe('${file("/run/secrets/vendor")}');
    expect(seed.instance_id).toBeUndefined();
    const ign = byName(json, 'virtseed_ignition', 'wo-ign').body;
    expect(ign.content_wo).toBe('${var.ignition}');
    expect(ign.content).toBeUndefined();
  });

  test('GIVEN a secret image URL and a secret display password WHEN synthesized THEN cdk.tf.json has only references in source_wo and password_wo', () => {
    const out = synth((s) => {
      const pw = secretVariable(s, 'image_password');
      new VirtualMachine(s, 'vm', {
        name: 'wo-vm',
        baseImage: BaseImage.fromSecretUrl(`https://alice:${pw.stringValue}@images.example.net/debian.qcow2`),
        graphics: [Graphics.vnc({ passwordSecret: secretVariable(s, 'vnc_password').stringValue })],
      });
      new Volume(s, 'data', { name: 'wo-data', sourceSecret: Fn.file('/run/secrets/image-url') });
    });
    const text = JSON.stringify(out);
    const base = resources(out, 'virtseed_volume').find(([, b]) => b.source_wo !== undefined && b.name !== 'wo-data')![1];
    expect(base.source_wo).toBe('https://alice:${var.image_password}@images.example.net/debian.qcow2');
    expect(base.source).toBeUndefined();
    expect(base.name).toMatch(/^base-[0-9a-f]{12}$/);
    expect(byName(out, 'virtseed_volume', 'wo-data').body.source_wo).toBe('${file("/run/secrets/image-url")}');
    const graphics = byName(out, 'virtseed_domain', 'wo-vm').body.graphics as Record<string, unknown>[];
    expect(graphics).toEqual([{ type: 'vnc', password_wo: '${var.vnc_password}' }]);
    expect(text).not.toMatch(/"password"|"source":"https:\/\/alice/);
  });

  test('GIVEN a secret known at synth WHEN constructed THEN it throws naming the prop, without the value', () => {
    const run = () =>
      synth((s) => new CloudInitSeed(s, 'seed', { name: 'wo', cloudInit: CloudInit.fromConfig({}), secrets: { userData: CANARY } }));
    expect(run).toThrow(/seed secrets\.userData: got a string known at synth/);
    expect(() => run()).not.toThrow(new RegExp(CANARY));
    expect(() => synth((s) => new IgnitionConfig(s, 'ign', { name: 'h', config: `{"x":"${CANARY}"}`, writeOnly: true }))).toThrow(
      /ign config: got a string known at synth/,
    );
    expect(() => BaseImage.fromSecretUrl(`https://alice:${CANARY}@h/i.qcow2`)).toThrow(
      /BaseImage.fromSecretUrl url: got a string known at synth/,
    );
    expect(() => Graphics.vnc({ passwordSecret: CANARY })).toThrow(/Graphics.vnc passwordSecret: got a string known at synth/);
    expect(() => synth((s) => new Volume(s, 'v', { name: 'v', sourceSecret: CANARY }))).toThrow(
      /v sourceSecret: got a string known at synth/,
    );
    for (const run of [() => BaseImage.fromSecretUrl(`https://alice:${CANARY}@h/i.qcow2`), () => Graphics.vnc({ passwordSecret: CANARY })])
      expect(run).not.toThrow(new RegExp(CANARY));
    expect(() => Graphics.vnc({ password: 'x', passwordSecret: Fn.file('/p') })).toThrow(/password and passwordSecret were both given/);
  });
});
