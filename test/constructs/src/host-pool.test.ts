import { TerraformStack, Testing } from 'cdktf';
import { BaseImage, CloudInit, ConstructPropsError, HostPool, VirtualMachine } from '../../../constructs';
import { byName, resources, synth } from '../synth-helpers';

Testing.setupJest();

const hosts = [
  { name: 'kvm1', uri: 'qemu+tls://kvm1/system' },
  { name: 'kvm2', uri: 'qemu+tls://kvm2/system', maxMemoryMiB: 8192 },
];
const image = BaseImage.fromFile('/images/debian.qcow2');

/** A pool and `n` web VMs made in a loop, each placed with anti-affinity. */
function fleet(stack: TerraformStack, n: number): HostPool {
  const pool = new HostPool(stack, 'pool', { hosts });
  for (let i = 1; i <= n; i++)
    new VirtualMachine(stack, `web${i}`, {
      name: `web${i}`,
      baseImage: image,
      memoryMiB: 1024,
      vcpus: 2,
      cloudInit: CloudInit.fromConfig({ hostname: `web${i}` }),
      placement: pool.place({ antiAffinity: 'web' }),
    });
  return pool;
}

describe('HostPool', () => {
  test('GIVEN two hosts WHEN synthesized THEN the provider block names both with their limits', () => {
    const out = JSON.parse(Testing.synthScope((s) => void new HostPool(s, 'pool', { hosts, uri: 'qemu:///system' }))) as {
      provider: { virtseed: { uri: string; host: unknown[] }[] };
    };
    expect(out.provider.virtseed[0]).toEqual({
      uri: 'qemu:///system',
      host: [
        { name: 'kvm1', uri: 'qemu+tls://kvm1/system' },
        { name: 'kvm2', uri: 'qemu+tls://kvm2/system', max_memory: 8192 },
      ],
    });
  });

  test('GIVEN three VMs placed in a loop WHEN synthesized THEN each has a placement chained after the one before', () => {
    const out = synth((s) => void fleet(s, 3));
    const [p1, p2, p3] = ['web1', 'web2', 'web3'].map((n) => byName(out, 'virtseed_placement', n));
    expect(p1.body).toMatchObject({ name: 'web1', memory: 1024, vcpu: 2, anti_affinity: 'web' });
    expect(p1.body.depends_on).toBeUndefined();
    expect(p2.body.depends_on).toEqual([p1.address]);
    expect(p3.body.depends_on).toEqual([p2.address]);
  });

  test('GIVEN a placed VM WHEN synthesized THEN its domain, root volume and seed take the placement host and the domain its group', () => {
    const out = synth((s) => void fleet(s, 1));
    const host = `\${${byName(out, 'virtseed_placement', 'web1').address}.host}`;
    expect(byName(out, 'virtseed_domain', 'web1').body).toMatchObject({ host, anti_affinity: 'web', memory: 1024, vcpu: 2 });
    expect(byName(out, 'virtseed_volume', 'web1-root').body.host).toBe(host);
    expect(byName(out, 'virtseed_cloudinit_seed', 'web1-seed').body.host).toBe(host);
  });

  test("GIVEN VMs placed on one image WHEN synthesized THEN one base volume has an instance per placement host and each root layers on its host's", () => {
    const out = synth((s) => void fleet(s, 2));
    const bases = resources(out, 'virtseed_volume').filter(([, b]) => b.source !== undefined);
    expect(bases).toHaveLength(1);
    const [id, base] = bases[0];
    const [p1, p2] = ['web1', 'web2'].map((n) => byName(out, 'virtseed_placement', n).address);
    expect(base).toMatchObject({ host: '${each.value}', for_each: `\${toset([${p1}.host, ${p2}.host])}` });
    expect(byName(out, 'virtseed_volume', 'web1-root').body.backing_volume).toBe(`\${virtseed_volume.${id}[${p1}.host].id}`);
  });

  test('GIVEN a pin outside the pool WHEN placing THEN a ConstructPropsError names the pool hosts', () => {
    const stack = new TerraformStack(Testing.app(), 's');
    const pool = new HostPool(stack, 'pool', { hosts });
    expect(() => pool.place({ pin: 'kvm9' })).toThrow(ConstructPropsError);
    expect(() => pool.place({ pin: 'kvm9' })).toThrow(/kvm1, kvm2/);
  });

  test('GIVEN a repeated host name WHEN the pool is made THEN a ConstructPropsError names it', () => {
    const stack = new TerraformStack(Testing.app(), 's');
    expect(() => new HostPool(stack, 'pool', { hosts: [hosts[0], hosts[0]] })).toThrow(/HostPool\.hosts\[1\]\.name/);
  });

  test('GIVEN a VM with a fixed host WHEN synthesized THEN its base volume is on that host too', () => {
    const out = synth((s) => {
      new HostPool(s, 'pool', { hosts });
      new VirtualMachine(s, 'db', { name: 'db', baseImage: image, host: 'kvm2' });
    });
    const bases = resources(out, 'virtseed_volume').filter(([, b]) => b.source !== undefined);
    expect(bases.map(([, b]) => b.host)).toEqual(['kvm2']);
    expect(byName(out, 'virtseed_domain', 'db').body.host).toBe('kvm2');
  });
});
