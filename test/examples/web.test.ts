import { Testing } from 'cdktf';
import { WEB_ADDRESS, WebStack } from '../../examples/web/stack';

describe('examples/web (the README example)', () => {
  const app = Testing.app();
  const stack = new WebStack(app, 'web');
  const synth = JSON.parse(Testing.synth(stack));

  test('GIVEN the README example WHEN synthesized THEN it declares the seed with a known instance-id and the domain waits for cloud-init', () => {
    const seeds = Object.values(synth.resource.virtseed_cloudinit_seed) as Record<string, any>[];
    expect(seeds).toHaveLength(1);
    expect(seeds[0].hostname).toBe('web1');
    expect(stack.vm.instanceId).toMatch(/^iid-[0-9a-f]{16}$/);
    const domains = Object.values(synth.resource.virtseed_domain) as Record<string, any>[];
    expect(domains[0]).toMatchObject({ name: 'web1', memory: 1024, vcpu: 2, reprovision: 'reboot', wait_for: 'cloud-init' });
  });

  test("GIVEN the README example WHEN synthesized THEN the VM's NIC is on its network with the MAC of the static lease, and its address is an output", () => {
    const [[netId, net]] = Object.entries(synth.resource.virtseed_network) as [string, Record<string, any>][];
    expect(net).toMatchObject({ name: 'web-net', mode: 'nat', dhcp_host: [{ ip: WEB_ADDRESS, hostname: 'web1' }] });
    const domain = Object.values(synth.resource.virtseed_domain)[0] as Record<string, any>;
    expect(domain.network_interface).toEqual([{ network: `\${virtseed_network.${netId}.id}`, mac: net.dhcp_host[0].mac, model: 'virtio' }]);
    const [domainId] = Object.keys(synth.resource.virtseed_domain);
    expect(synth.output.ip_address.value).toBe(`\${virtseed_domain.${domainId}.ip_address}`);
  });
});
