import { AnnotationMetadataEntryType, TerraformOutput, TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { deriveInstanceId } from '../../../src/seed';
import { bindings, CloudInit, CloudInitSeed } from '../../../constructs';
import { byName, synth } from '../synth-helpers';

Testing.setupJest();

const typed = CloudInit.fromConfig({
  hostname: 'web-1',
  publicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC7mFTvWG4G2dyW0cT8P0bCk8PpZXvEMKYlcFo1WTm7o me@host'],
  metaData: { zone: 'b', rack: 7 },
  cloudConfig: { runcmd: [['echo', 'hi']], packages: ['curl'] },
  userDataParts: [{ content: '#!/bin/sh\necho part\n', contentType: 'text/x-shellscript', filename: 'p.sh' }],
  environment: { APP_ENV: 'prod' },
  files: [{ path: '/etc/app.conf', content: 'x=1\n', permissions: '0600', defer: true }],
  mounts: [{ device: 'vdb', mountPoint: '/data', fsType: 'ext4' }],
  network: { version: 2, interfaces: [{ name: 'eth0', dhcp4: true, nameservers: ['10.0.0.1'] }] },
});

describe('CloudInitSeed', () => {
  test('GIVEN typed content WHEN synthesized THEN the seed resource carries each attribute in Terraform form', () => {
    const out = Testing.synthScope((s) => new CloudInitSeed(s, 'seed', { name: 'web-1-seed', cloudInit: typed }));
    expect(out).toHaveResourceWithProperties(bindings.cloudinitSeed.CloudinitSeed, {
      pool: 'default',
      name: 'web-1-seed',
      hostname: 'web-1',
      environment: { APP_ENV: 'prod' },
      user_data_part: [{ content: '#!/bin/sh\necho part\n', content_type: 'text/x-shellscript', filename: 'p.sh' }],
      file: [{ path: '/etc/app.conf', content: 'x=1\n', permissions: '0600', defer: true }],
      mount: [{ device: 'vdb', mount_point: '/data', fs_type: 'ext4' }],
      network: { version: 2, interface: [{ name: 'eth0', dhcp4: true, nameservers: ['10.0.0.1'] }] },
    });
  });

  test('GIVEN a typed cloud-config WHEN synthesized THEN cloud_config is JSON with sorted keys', () => {
    const out = synth((s) => new CloudInitSeed(s, 'seed', { name: 's', cloudInit: typed }));
    expect(byName(out, 'virtseed_cloudinit_seed', 's').body.cloud_config).toBe('{"packages":["curl"],"runcmd":[["echo","hi"]]}');
  });

  test('GIVEN extra meta-data WHEN synthesized THEN meta_data is a JSON map', () => {
    const out = synth((s) => new CloudInitSeed(s, 'seed', { name: 's', cloudInit: typed }));
    expect(JSON.parse(byName(out, 'virtseed_cloudinit_seed', 's').body.meta_data as string)).toEqual({ rack: 7, zone: 'b' });
  });

  test('GIVEN content without an instance-id WHEN constructed THEN instanceId is deriveInstanceId of the same spec', () => {
    let seed!: CloudInitSeed;
    synth((s) => {
      seed = new CloudInitSeed(s, 'seed', {
        name: 's',
        cloudInit: CloudInit.fromConfig({ hostname: 'web-1', cloudConfig: { runcmd: ['true'] } }),
      });
    });
    expect(seed.instanceId).toBe(deriveInstanceId({ hostname: 'web-1', cloud_config: { runcmd: ['true'] } }));
  });

  test('GIVEN an explicit instance-id WHEN synthesized THEN it is used and sent to the provider', () => {
    let seed!: CloudInitSeed;
    const out = synth((s) => {
      seed = new CloudInitSeed(s, 'seed', { name: 's', cloudInit: CloudInit.fromConfig({ instanceId: 'iid-web-7' }) });
    });
    expect(seed.instanceId).toBe('iid-web-7');
    expect(byName(out, 'virtseed_cloudinit_seed', 's').body.instance_id).toBe('iid-web-7');
  });

  test('GIVEN content holding a token WHEN synthesized THEN instanceId refers to the resource attribute', () => {
    const out = synth((s) => {
      const host = new TerraformVariable(s, 'host', { type: 'string' });
      const seed = new CloudInitSeed(s, 'seed', { name: 's', cloudInit: CloudInit.fromConfig({ hostname: host.stringValue }) });
      new TerraformOutput(s, 'iid', { value: seed.instanceId });
    });
    const address = byName(out, 'virtseed_cloudinit_seed', 's').address;
    expect(out.output?.iid.value).toBe(`\${${address}.instance_id}`);
  });

  test('GIVEN raw user-data WHEN synthesized THEN user_data is passed through', () => {
    const out = synth((s) => new CloudInitSeed(s, 'seed', { name: 's', cloudInit: CloudInit.fromUserData('#!/bin/sh\necho hi\n') }));
    expect(byName(out, 'virtseed_cloudinit_seed', 's').body.user_data).toBe('#!/bin/sh\necho hi\n');
  });

  test('GIVEN both network and networkConfig WHEN constructed THEN nothing is thrown before synth', () => {
    const bad = CloudInit.fromConfig({ network: { version: 2, interfaces: [{ dhcp4: true }] }, networkConfig: 'version: 2\n' });
    expect(() => new CloudInitSeed(new TerraformStack(Testing.app(), 'stack'), 'seed', { name: 's', cloudInit: bad })).not.toThrow();
  });

  test('GIVEN both network and networkConfig WHEN synthesized THEN it throws listing the diagnostics with their path', () => {
    const bad = CloudInit.fromConfig({ network: { version: 2, interfaces: [{ dhcp4: true }] }, networkConfig: 'version: 2\n' });
    expect(() => synth((s) => new CloudInitSeed(s, 'seed', { name: 's', cloudInit: bad }))).toThrow(
      /seed cloudInit: the cloud-init configuration has \d+ error\(s\):\nerror: network/,
    );
  });

  test('GIVEN content with a warning WHEN synthesized THEN the seed gets a warning annotation', () => {
    let seed!: CloudInitSeed;
    synth((s) => {
      seed = new CloudInitSeed(s, 'seed', {
        name: 's',
        cloudInit: CloudInit.fromConfig({ cloudConfig: { runcmd: ['true'] }, userData: '#!/bin/sh\necho replaced\n' }),
      });
    });
    expect(seed.node.metadata.filter((m) => m.type === AnnotationMetadataEntryType.WARN).length).toBeGreaterThan(0);
  });

  test('GIVEN a name with a space WHEN constructed THEN it throws naming CloudInitSeed.name', () => {
    expect(() => synth((s) => new CloudInitSeed(s, 'seed', { name: 'a b', cloudInit: typed }))).toThrow(/CloudInitSeed\.name/);
  });
});
