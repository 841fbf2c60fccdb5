import { Testing } from 'cdktf';
import { bindings, ConstructPropsError, Network, NetworkMode, VirtualNetworkProps } from '../../../constructs';
import { byName, synth } from '../synth-helpers';

Testing.setupJest();

const lab: VirtualNetworkProps = {
  name: 'lab',
  subnets: [{ address: '10.10.0.1/24', dhcpRanges: [{ start: '10.10.0.100', end: '10.10.0.199' }] }],
  staticHosts: [{ mac: '52:54:00:00:00:10', hostname: 'web', ip: '10.10.0.10' }],
  dnsHosts: [{ ip: '10.10.0.10', hostnames: ['web.lab'] }],
};

function thrown(props: VirtualNetworkProps): ConstructPropsError {
  try {
    synth((s) => new Network(s, 'net', props));
  } catch (err) {
    return err as ConstructPropsError;
  }
  throw new Error('no error thrown');
}

describe('Network', () => {
  test('GIVEN only a name WHEN synthesized THEN the network is isolated (mode none) and autostarts', () => {
    expect(Testing.synthScope((s) => new Network(s, 'net', { name: 'lab' }))).toHaveResourceWithProperties(bindings.network.Network, {
      name: 'lab',
      mode: 'none',
      autostart: true,
    });
  });

  test('GIVEN subnets, static hosts and DNS hosts WHEN synthesized THEN the ip, dhcp_host and dns_host blocks carry them', () => {
    expect(
      byName(
        synth((s) => new Network(s, 'net', lab)),
        'virtseed_network',
        'lab',
      ).body,
    ).toMatchObject({
      ip: [{ address: '10.10.0.1/24', dhcp_range: [{ start: '10.10.0.100', end: '10.10.0.199' }] }],
      dhcp_host: [{ mac: '52:54:00:00:00:10', hostname: 'web', ip: '10.10.0.10' }],
      dns_host: [{ ip: '10.10.0.10', hostnames: ['web.lab'] }],
    });
  });

  test('GIVEN NAT through a device WHEN synthesized THEN mode and forward_dev are set', () => {
    expect(
      byName(
        synth((s) => new Network(s, 'net', { name: 'out', mode: NetworkMode.NAT, forwardDevice: 'eth0' })),
        'virtseed_network',
        'out',
      ).body,
    ).toMatchObject({ mode: 'nat', forward_dev: 'eth0' });
  });

  test('GIVEN a static host outside every subnet WHEN synthesized THEN the error names staticHosts[1].ip', () => {
    const err = thrown({ ...lab, staticHosts: [...lab.staticHosts!, { mac: '52:54:00:00:00:11', ip: '10.99.0.5' }] });
    expect(err.message).toMatch(/^Network: the network definition has 1 error\(s\):\n.*staticHosts\[1\]\.ip.*10\.99\.0\.5/s);
  });

  test('GIVEN a DHCP range outside its subnet WHEN synthesized THEN the error names subnets[0].dhcpRanges[0]', () => {
    const err = thrown({ name: 'lab', subnets: [{ address: '10.10.0.1/24', dhcpRanges: [{ start: '10.10.1.100', end: '10.10.1.199' }] }] });
    expect(err.message).toMatch(/subnets\[0\]\.dhcpRanges\[0\]/);
  });

  test('GIVEN an IPv4 static host without MAC or hostname WHEN synthesized THEN the error names staticHosts[0]', () => {
    expect(thrown({ ...lab, staticHosts: [{ ip: '10.10.0.10' }] }).message).toMatch(/staticHosts\[0\]/);
  });

  test('GIVEN a bad subnet address WHEN synthesized THEN the error names subnets[0].address and the expected form', () => {
    expect(thrown({ name: 'lab', subnets: [{ address: '10.10.0.1' }] }).message).toMatch(
      /subnets\[0\]\.address.*e\.g\. 192\.168\.150\.1\/24/s,
    );
  });

  test('GIVEN forwardDevice on an isolated network WHEN synthesized THEN the error names forwardDevice', () => {
    expect(thrown({ name: 'lab', forwardDevice: 'eth0' }).message).toMatch(/forwardDevice/);
  });

  test('GIVEN a network WHEN attached THEN the attachment names the network id (a token)', () => {
    let id = '';
    let attached = '';
    synth((s) => {
      const net = new Network(s, 'net', { name: 'lab' });
      id = net.networkId;
      attached = net.attach().config.network!;
    });
    expect(attached).toBe(id);
  });
});
