import { MANAGED_PROVIDER_VAR, managedReason, PROVIDER_ADDRESS, reattachConfigOf, reattachValue } from './reattach';

describe('reattachConfigOf', () => {
  it('GIVEN the provider handshake line without AutoMTLS WHEN read THEN it is the ReattachConfig terraform parses', () => {
    expect(reattachConfigOf('1|6|unix|/tmp/d/virtseed-plugin-x/plugin.sock|grpc|\n', 4242)).toEqual({
      Protocol: 'grpc',
      ProtocolVersion: 6,
      Pid: 4242,
      Test: true,
      Addr: { Network: 'unix', String: '/tmp/d/virtseed-plugin-x/plugin.sock' },
    });
    expect(reattachConfigOf('1|6|tcp|127.0.0.1:1234|grpc', 7).Addr).toEqual({ Network: 'tcp', String: '127.0.0.1:1234' });
  });

  it.each([
    ['not a handshake', 'Error: something went wrong', /expected 5 or 6/],
    ['another core protocol', '2|6|unix|/s|grpc|', /core protocol 2/],
    ['no app protocol', '1||unix|/s|grpc|', /app protocol/],
    ['another network', '1|6|pipe|/s|grpc|', /network "pipe"/],
    ['no address', '1|6|unix||grpc|', /no address/],
    ['net/rpc', '1|6|unix|/s|netrpc|', /protocol "netrpc"/],
    ['an AutoMTLS certificate', `1|6|unix|/s|grpc|${'A'.repeat(60)}`, /AutoMTLS/],
  ])('GIVEN %s WHEN read THEN it throws naming the line', (_what, line, why) => {
    expect(() => reattachConfigOf(line, 1)).toThrow(why);
    expect(() => reattachConfigOf(line, 1)).toThrow(JSON.stringify(line));
  });

  it('GIVEN no process id WHEN read THEN it throws', () => {
    expect(() => reattachConfigOf('1|6|unix|/s|grpc|', 0)).toThrow(/not a process id/);
  });
});

describe('reattachValue', () => {
  it('GIVEN a config WHEN encoded THEN it is JSON keyed by the provider registry address', () => {
    const config = reattachConfigOf('1|6|unix|/s|grpc|', 9);
    expect(JSON.parse(reattachValue(config))).toEqual({ [PROVIDER_ADDRESS]: config });
    expect(PROVIDER_ADDRESS).toBe('registry.terraform.io/virtseed/virtseed');
  });
});

describe('managedReason', () => {
  const one = 'terraform {}\nprovider "virtseed" {}\nresource "virtseed_pool" "p" {}\n';
  const quiet = { PATH: '/usr/bin' };

  it('GIVEN one provider block and no provider variables WHEN decided THEN it may reattach', () => {
    expect(managedReason([one], {}, undefined, quiet)).toBeNull();
    expect(managedReason([one], { TF_VAR_x: '1', TF_CLI_ARGS: '' }, false, quiet)).toBeNull();
  });

  it('GIVEN the test forces it WHEN decided THEN it stays managed with the test reason', () => {
    expect(managedReason([one], {}, 'kills libvirtd', quiet)).toBe('kills libvirtd');
    expect(managedReason([one], {}, true, quiet)).toMatch(/test asks/);
  });

  it('GIVEN VIRTSEED_TEST_MANAGED_PROVIDER=1 WHEN decided THEN every work dir stays managed', () => {
    expect(managedReason([one], {}, undefined, { [MANAGED_PROVIDER_VAR]: '1' })).toMatch(MANAGED_PROVIDER_VAR);
    expect(managedReason([one], {}, undefined, { [MANAGED_PROVIDER_VAR]: '0' })).toBeNull();
  });

  it('GIVEN a variable the provider reads WHEN decided THEN it stays managed naming it', () => {
    expect(managedReason([one], { TF_LOG_PROVIDER: 'INFO' }, undefined, quiet)).toMatch(/TF_LOG_PROVIDER/);
    expect(managedReason([one], { VIRTSEED_KVM_PROBED: '1' }, undefined, quiet)).toMatch(/VIRTSEED_KVM_PROBED/);
    expect(managedReason([one], { TF_LOG: undefined }, undefined, quiet)).toBeNull();
  });

  it('GIVEN two provider blocks (an alias) in one or several files WHEN decided THEN it stays managed', () => {
    const alias = 'provider "virtseed" {\n  alias = "b"\n  uri = "qemu:///session"\n}\n';
    expect(managedReason([one + alias], {}, undefined, quiet)).toMatch(/2 provider "virtseed" blocks/);
    expect(managedReason([one, alias], {}, undefined, quiet)).toMatch(/2 provider/);
  });
});
