// examples/library's WebFleet synthesized against this checkout's constructs (jest maps `@virtseed/cdktf` to
// constructs/): what it declares, and the synth-time errors naming the prop path. The package itself (built,
// packed, installed from its tarball and deployed) is tested by install.int.test.ts beside this file.
import { Testing, TerraformStack } from 'cdktf';
import { BaseImage, ConstructPropsError, StoragePool } from '@virtseed/cdktf';
import { DEFAULT_MEMORY_MIB, WebFleet, type WebFleetProps } from '../../../examples/library/src';

const IMAGE = BaseImage.fromFile('/images/debian.qcow2', { volumeName: 'shop-base' });

interface Synthesized {
  resource: Record<string, Record<string, unknown>>;
}
interface DomainJson {
  name: string;
  memory: number;
  network_interface: { mac: string }[];
}
interface NetworkJson {
  name: string;
  dhcp_host: unknown[];
}
interface SeedJson {
  hostname: string;
  cloud_config: string;
}

/** The synthesized resources of one type. */
function resources<T>(json: Synthesized, type: string): T[] {
  return Object.values(json.resource[type] ?? {}) as T[];
}

function synth(props: Partial<WebFleetProps> = {}): { fleet: WebFleet; json: Synthesized } {
  const stack = new TerraformStack(Testing.app(), 'test');
  const fleet = new WebFleet(stack, 'fleet', { namePrefix: 'shop-', baseImage: IMAGE, ...props });
  return { fleet, json: JSON.parse(Testing.synth(stack)) };
}

function propsError(props: Partial<WebFleetProps>): ConstructPropsError {
  try {
    synth(props);
  } catch (e) {
    if (e instanceof ConstructPropsError) return e;
    throw e;
  }
  throw new Error('no ConstructPropsError');
}

describe('WebFleet', () => {
  test('GIVEN 3 replicas WHEN synthesized THEN 3 domains named by the prefix, with the default memory, on one isolated network', () => {
    const { json } = synth({ replicas: 3 });
    const domains = resources<DomainJson>(json, 'virtseed_domain');
    expect(domains.map((d) => [d.name, d.memory])).toEqual([
      ['shop-1', DEFAULT_MEMORY_MIB],
      ['shop-2', DEFAULT_MEMORY_MIB],
      ['shop-3', DEFAULT_MEMORY_MIB],
    ]);
    expect(resources<NetworkJson>(json, 'virtseed_network')).toEqual([expect.objectContaining({ name: 'shop-net', mode: 'none' })]);
  });

  test('GIVEN no pool WHEN synthesized THEN the fleet makes its own dir pool and puts every volume and seed in it', () => {
    const { json } = synth();
    expect(resources(json, 'virtseed_pool')).toEqual([
      expect.objectContaining({ name: 'shop-pool', type: 'dir', path: '/var/lib/libvirt/images/shop-pool' }),
    ]);
    const pools = [
      ...resources<{ pool: string }>(json, 'virtseed_volume'),
      ...resources<{ pool: string }>(json, 'virtseed_cloudinit_seed'),
    ].map((r) => r.pool);
    expect(pools.length).toBe(5); // base, 2 roots, 2 seeds
    expect([...new Set(pools)]).toEqual([expect.stringMatching(/^\$\{virtseed_pool\.fleet_Pool_\w+\.name\}$/)]);
  });

  test.each([
    ['a pool name', 'default'],
    ['a StoragePool', 'construct'],
  ])('GIVEN %s WHEN synthesized THEN the volumes go there and the fleet makes no pool', (_what, kind) => {
    const stack = new TerraformStack(Testing.app(), 'test');
    const pool = kind === 'construct' ? new StoragePool(stack, 'p', { name: 'fleet-images', path: '/srv/fleet-images' }) : 'default';
    const fleet = new WebFleet(stack, 'fleet', { namePrefix: 'shop-', baseImage: IMAGE, pool });
    const json = JSON.parse(Testing.synth(stack)) as Synthesized;
    expect(fleet.pool).toBe(pool);
    expect(resources(json, 'virtseed_pool').length).toBe(kind === 'construct' ? 1 : 0);
    const pools = [...new Set(resources<{ pool: string }>(json, 'virtseed_volume').map((r) => r.pool))];
    expect(pools).toEqual([kind === 'construct' ? expect.stringMatching(/^\$\{virtseed_pool\.p_\w+\.name\}$/) : 'default']);
  });

  test('GIVEN a subnet WHEN synthesized THEN each VM has a static lease .11, .12 with the MAC its NIC uses', () => {
    const { fleet, json } = synth({ subnet: '10.9.8.0/24' });
    expect(fleet.members.map((m) => m.address)).toEqual(['10.9.8.11', '10.9.8.12']);
    const [net] = resources<NetworkJson>(json, 'virtseed_network');
    const macs = resources<DomainJson>(json, 'virtseed_domain').map((d) => d.network_interface[0]!.mac);
    expect(net!.dhcp_host).toEqual([
      { ip: '10.9.8.11', mac: macs[0], hostname: 'shop-1' },
      { ip: '10.9.8.12', mac: macs[1], hostname: 'shop-2' },
    ]);
  });

  test('GIVEN a shared cloud-init configuration WHEN synthesized THEN every seed carries it with its own hostname', () => {
    const { json } = synth({ cloudInit: { cloudConfig: { packages: ['nginx'] } } });
    const seeds = resources<SeedJson>(json, 'virtseed_cloudinit_seed');
    expect(seeds.map((s) => [s.hostname, JSON.parse(s.cloud_config)])).toEqual([
      ['shop-1', { packages: ['nginx'] }],
      ['shop-2', { packages: ['nginx'] }],
    ]);
  });

  test.each([
    [{ replicas: 0 }, 'WebFleet.replicas', 'WebFleet.replicas: invalid value 0; expected a whole number from 1 to 32'],
    [{ namePrefix: 'Shop_' }, 'WebFleet.namePrefix', "WebFleet.namePrefix: invalid value 'Shop_'"],
    [{ memoryMiB: 32 }, 'WebFleet.memoryMiB', 'expected a whole number of MiB, at least 64'],
    [{ pool: 'my/pool' }, 'WebFleet.pool', "WebFleet.pool: invalid value 'my/pool'; expected a storage pool's name"],
    [{ pool: '' }, 'WebFleet.pool', "expected a storage pool's name"],
    [{ subnet: '10.9.8.1/24' }, 'WebFleet.subnet', "expected an IPv4 /24 network address such as '10.231.0.0/24'"],
    [
      { cloudInit: { hostname: 'x' } as WebFleetProps['cloudInit'] },
      'WebFleet.cloudInit.hostname',
      'the fleet sets it for each virtual machine',
    ],
  ] as const)('GIVEN %j WHEN synthesized THEN a ConstructPropsError names %s', (props, prop, message) => {
    const e = propsError(props as Partial<WebFleetProps>);
    expect(e.prop).toBe(prop);
    expect(e.message).toContain(message);
  });

  test('GIVEN shared cloud-init with two files of one path WHEN synthesized THEN the error names the path below WebFleet.cloudInit', () => {
    const files = [
      { path: '/etc/app.conf', content: 'a' },
      { path: '/etc/app.conf', content: 'b' },
    ];
    const e = propsError({ cloudInit: { files } });
    expect(e.prop).toBe('WebFleet.cloudInit');
    expect(e.message).toMatch(/WebFleet\.cloudInit\.files\[1\]\.path: Duplicate/);
  });
});
