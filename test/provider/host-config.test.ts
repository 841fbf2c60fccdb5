import { providerHosts, validateProviderConfig } from '../../provider/src/host-config';
import { UNKNOWN } from '../../provider/src/plugin/cty';

const block = (over: Record<string, unknown>) => ({
  name: 'h1',
  uri: 'qemu+tls://h1/system',
  migration_uri: null,
  max_memory: null,
  max_vcpu: null,
  ...over,
});

describe('provider host blocks', () => {
  it('GIVEN two host blocks WHEN read THEN the default host is uri and the named ones keep their order, limits and migration URI', () => {
    const hosts = providerHosts({
      uri: null,
      host: [
        block({ name: 'b', max_memory: 4096 }),
        block({ name: 'a', uri: 'qemu+tls://a/system', migration_uri: 'qemu+tls://a.int/system', max_vcpu: 8 }),
      ],
    });
    expect(hosts).toEqual({
      default: { name: null, uri: 'qemu:///system', migrationUri: 'qemu:///system' },
      named: [
        { name: 'b', uri: 'qemu+tls://h1/system', migrationUri: 'qemu+tls://h1/system', maxMemoryMiB: 4096 },
        { name: 'a', uri: 'qemu+tls://a/system', migrationUri: 'qemu+tls://a.int/system', maxVcpu: 8 },
      ],
    });
  });

  it('GIVEN a uri Terraform does not know yet WHEN read THEN that host has an empty URI', () => {
    expect(providerHosts({ uri: UNKNOWN, host: [block({ uri: UNKNOWN })] })).toMatchObject({ default: { uri: '' }, named: [{ uri: '' }] });
  });

  it('GIVEN two blocks of one name WHEN validated THEN the second name is the error', () => {
    expect(validateProviderConfig({ host: [block({}), block({})] })).toEqual([
      expect.objectContaining({ severity: 'error', summary: 'Duplicate host name', path: ['host', 1, 'name'] }),
    ]);
  });

  it.each([['-h1'], ['h 1'], ['x'.repeat(64)]])('GIVEN host name %j WHEN validated THEN it is refused', (name) => {
    expect(validateProviderConfig({ host: [block({ name })] })).toEqual([
      expect.objectContaining({ summary: 'Invalid host name', path: ['host', 0, 'name'] }),
    ]);
  });

  it('GIVEN a bad URI and limits WHEN validated THEN each is named at its path', () => {
    expect(validateProviderConfig({ host: [block({ uri: 'kvm2', max_memory: 0, max_vcpu: 1.5 })] }).map((d) => d.path)).toEqual([
      ['host', 0, 'uri'],
      ['host', 0, 'max_memory'],
      ['host', 0, 'max_vcpu'],
    ]);
  });
});
