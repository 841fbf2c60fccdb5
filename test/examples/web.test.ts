import { Testing } from 'cdktf';
import { WebStack } from '../../examples/web/stack';

describe('examples/web (the README example)', () => {
  test('GIVEN the README example WHEN synthesized THEN it declares the seed with the static network and a known instance-id', () => {
    const app = Testing.app();
    const stack = new WebStack(app, 'web');
    const synth = JSON.parse(Testing.synth(stack));
    const seeds = Object.values(synth.resource.virtseed_cloudinit_seed) as Record<string, any>[];
    expect(seeds).toHaveLength(1);
    expect(seeds[0].hostname).toBe('web1');
    expect(seeds[0].network.interface[0].addresses).toEqual(['192.168.122.10/24']);
    expect(stack.vm.instanceId).toMatch(/^iid-[0-9a-f]{16}$/);
    const domains = Object.values(synth.resource.virtseed_domain) as Record<string, any>[];
    expect(domains[0]).toMatchObject({ name: 'web1', memory: 1024, vcpu: 2, reprovision: 'reboot' });
  });
});
