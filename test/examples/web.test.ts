import { Testing } from 'cdktf';
import { WEB_ADDRESS, WebStack } from '../../examples/web/stack';
import { resources, type Synth } from '../constructs/synth-helpers';

describe('examples/web (the README example)', () => {
  const app = Testing.app();
  const stack = new WebStack(app, 'web');
  const synth = JSON.parse(Testing.synth(stack)) as Synth;

  test('GIVEN the README example WHEN synthesized THEN it declares the seed with a known instance-id and the domain waits for cloud-init', () => {
    const seeds = resources(synth, 'virtseed_cloudinit_seed').map(([, body]) => body);
    expect(seeds).toHaveLength(1);
    expect(seeds[0].hostname).toBe('web1');
    expect(stack.vm.instanceId).toMatch(/^iid-[0-9a-f]{16}$/);
    const domains = resources(synth, 'virtseed_domain').map(([, body]) => body);
    expect(domains[0]).toMatchObject({ name: 'web1', memory: 1024, vcpu: 2, reprovision: 'reboot', wait_for: 'cloud-init' });
  });

  test("GIVEN the README example WHEN synthesized THEN the VM's NIC is on its network with the MAC of the static lease, and its address is an output", () => {
    const [[netId, net]] = resources(synth, 'virtseed_network');
    expect(net).toMatchObject({ name: 'web-net', mode: 'nat', dhcp_host: [{ ip: WEB_ADDRESS, hostname: 'web1' }] });
    const [[domainId, domain]] = resources(synth, 'virtseed_domain');
    const mac = (net.dhcp_host as { mac: string }[])[0].mac;
    expect(domain.network_interface).toEqual([{ network: `\${virtseed_network.${netId}.id}`, mac, model: 'virtio' }]);
    expect(synth.output?.ip_address.value).toBe(`\${virtseed_domain.${domainId}.ip_address}`);
  });
});
