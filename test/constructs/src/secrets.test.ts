/**
 * Secrets for write-only inputs from the constructs (constructs/src/secrets.ts, issue 32): an ephemeral variable
 * flows into the `_wo` attributes, `cdk.tf.json` holds only the reference, and a string known at synth is rejected.
 */
import { Fn, Testing } from 'cdktf';
import { CloudInit, CloudInitSeed, IgnitionConfig, secretVariable } from '../../../constructs';
import { byName, synth, type Synth } from '../synth-helpers';

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

  test('GIVEN a secret known at synth WHEN constructed THEN it throws naming the prop, without the value', () => {
    const run = () =>
      synth((s) => new CloudInitSeed(s, 'seed', { name: 'wo', cloudInit: CloudInit.fromConfig({}), secrets: { userData: CANARY } }));
    expect(run).toThrow(/seed secrets\.userData: got a string known at synth/);
    expect(() => run()).not.toThrow(new RegExp(CANARY));
    expect(() => synth((s) => new IgnitionConfig(s, 'ign', { name: 'h', config: `{"x":"${CANARY}"}`, writeOnly: true }))).toThrow(
      /ign config: got a string known at synth/,
    );
  });
});
