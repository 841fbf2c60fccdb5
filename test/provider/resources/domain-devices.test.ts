/**
 * virtseed_domain's devices and settings in the provider (private/domain-devices.ts, domain-validate.ts,
 * domain-live.ts, domain-read.ts): state → spec → state keeps every device, config problems carry Terraform's
 * attribute paths, live changes become the libvirt calls that make them, and a read keeps what libvirt does not show.
 */
import { toDomainSpec, stateFromSpec, withDefaults } from '../../../provider/src/resources/private/domain-state';
import { validateDomainConfig } from '../../../provider/src/resources/private/domain-validate';
import { liveSteps } from '../../../provider/src/resources/private/domain-live';
import { decideDomainChange } from '../../../provider/src/resources/private/domain-changes';
import { mergeObserved } from '../../../provider/src/resources/private/domain-read';
import type { DomainState } from '../../../provider/src/resources/private/model';
import type { DomRef, LibvirtClient } from '../../../src/libvirt';
import { UNKNOWN } from '../../../provider/src/resources/private/values';
import { createdDomainState, diskState, domainState, nicState } from '../fixtures/domain';

/** A created domain with every device of the field table, defaults filled as a plan fills them. */
function everyDevice(over: Partial<DomainState> = {}): DomainState {
  return withDefaults(
    createdDomainState({
      vcpu: 2,
      max_vcpu: 2,
      title: 't',
      description: 'd',
      metadata: { owner: 'a' },
      on_crash: 'preserve',
      boot_devices: ['hd', 'network'],
      boot_menu: true,
      boot_menu_timeout: 3000,
      cpu_topology: { sockets: 1, dies: 1, cores: 2, threads: 1 },
      graphics: [
        {
          type: 'vnc',
          listen: null,
          socket: null,
          port: null,
          password: 'pw',
          password_wo: null,
          password_keyed_digest: null,
          display_uri: null,
        },
      ],
      tpm: { model: 'tpm-crb', version: '2.0' },
      filesystem: [{ source: '/srv', target: 's', driver: 'virtiofs', access_mode: 'passthrough', readonly: false }],
      rng: { source: '/dev/urandom', rate_bytes: null, rate_period: null },
      watchdog: { model: 'i6300esb', action: 'reset' },
      serial: [{ type: 'tcp', path: null, host: null, port: 4555 }],
      console: [{ type: 'pty', path: null, host: null, port: null }],
      channel: [{ name: 'org.example.0', type: 'unix', path: null }],
      input: [{ type: 'tablet', bus: 'usb' }],
      hostdev: [{ type: 'pci', address: '0000:01:00.0', managed: true }],
      network_interface: [
        nicState({ network: 'n', user: false, restrict: false, mac: '52:54:00:00:00:01', model: 'virtio', link_state: 'up', mtu: 1400 }),
      ],
      ...over,
    }),
    null,
  );
}

describe('state ⇄ spec', () => {
  test('GIVEN every device WHEN mapped to the domain model and back THEN each device attribute comes back', () => {
    const state = everyDevice();
    const back = stateFromSpec(toDomainSpec(state, { disks: [] }), true, { disks: [], ignitionId: null });
    const keys = [
      'title',
      'metadata',
      'on_crash',
      'boot_devices',
      'boot_menu_timeout',
      'cpu_topology',
      'video',
      'graphics',
      'tpm',
      'filesystem',
      'rng',
      'watchdog',
      'serial',
      'console',
      'channel',
      'input',
      'hostdev',
    ] as const;
    expect(Object.fromEntries(keys.map((k) => [k, back[k]]))).toEqual(Object.fromEntries(keys.map((k) => [k, state[k]])));
  });

  test('GIVEN graphics without listen or video WHEN planned THEN the display listens on 127.0.0.1 and the video is vga', () => {
    const state = everyDevice({ video: null });
    expect([state.graphics, state.video]).toEqual([[expect.objectContaining({ listen: '127.0.0.1' })], 'vga']);
  });

  test('GIVEN a virtiofs share WHEN mapped THEN the domain gets shared memfd memory', () => {
    expect(toDomainSpec(everyDevice(), { disks: [] }).memoryBacking).toEqual({ source: 'memfd', access: 'shared' });
  });
});

describe('config checks', () => {
  test.each<[string, Partial<DomainState>, (string | number)[]]>([
    ['a USB address with leading zeros', { hostdev: [{ type: 'usb', address: '001:004', managed: null }] }, ['hostdev', 0, 'address']],
    ['a path on a pty serial port', { serial: [{ type: 'pty', path: '/x', host: null, port: null }] }, ['serial', 0, 'path']],
    ['a file console without a path', { console: [{ type: 'file', path: null, host: null, port: null }] }, ['console', 0, 'path']],
    ['a boot menu timeout without the menu', { boot_menu_timeout: 100 }, ['boot_menu_timeout']],
    [
      'a topology that does not match the vCPUs',
      { vcpu: 2, cpu_topology: { sockets: 2, dies: null, cores: 2, threads: 1 } },
      ['cpu_topology'],
    ],
    ['extra devices that are not a device', { xml: { devices: '<clock/>', xslt: null } }, ['xml', 'devices']],
    ['a stylesheet in no XSLT namespace', { xml: { devices: null, xslt: '<stylesheet/>' } }, ['xml', 'xslt']],
    [
      'a VNC password over 8 characters',
      {
        graphics: [
          {
            type: 'vnc',
            listen: null,
            socket: null,
            port: null,
            password: '123456789',
            password_wo: null,
            password_keyed_digest: null,
            display_uri: null,
          },
        ],
      },
      ['graphics', 0, 'password'],
    ],
    [
      'NIC bandwidth without an average',
      {
        network_interface: [
          nicState({
            network: 'n',
            bandwidth: {
              inbound_average: null,
              inbound_peak: 10,
              inbound_burst: null,
              outbound_average: null,
              outbound_peak: null,
              outbound_burst: null,
            },
          }),
        ],
      },
      ['network_interface', 0, 'bandwidth'],
    ],
    [
      'a macvtap NIC with a network too',
      { network_interface: [nicState({ network: 'n', direct: 'eth0' })] },
      ['network_interface', 0, 'direct'],
    ],
    [
      'a read-only sata disk on a volume the plan creates (unknown)',
      { disk: [diskState({ volume_id: UNKNOWN, bus: 'sata', readonly: true })] },
      ['disk', 0, 'readonly'],
    ],
    [
      'an MTU on a macvtap NIC beside a network the plan creates (unknown)',
      { network_interface: [nicState({ network: UNKNOWN }), nicState({ direct: 'eth0', mtu: 1400 })] },
      ['network_interface', 1, 'mtu'],
    ],
    [
      "a VNC socket in libvirt's own directory",
      {
        graphics: [
          {
            type: 'vnc',
            listen: null,
            socket: '/var/lib/libvirt/qemu/x.sock',
            port: null,
            password: null,
            password_wo: null,
            password_keyed_digest: null,
            display_uri: null,
          },
        ],
      },
      ['graphics', 0, 'socket'],
    ],
    [
      'snapshot_before with read-only disks only',
      { snapshot_before: 'disruptive', disk: [diskState({ file: '/srv/a.img', readonly: true })] },
      ['snapshot_before'],
    ],
    ['snapshot_before with no disk', { snapshot_before: 'always', disk: [] }, ['snapshot_before']],
  ])('GIVEN %s WHEN validated THEN an error has that attribute path', (_, over, path) => {
    const config = domainState({ name: 'vstest-devices-cfg', memory: 128, ...over });
    expect(validateDomainConfig(config)).toEqual(expect.arrayContaining([expect.objectContaining({ severity: 'error', path })]));
  });
});

describe('live changes', () => {
  const calls: string[] = [];
  const client = new Proxy(
    {},
    {
      get:
        (_, name) =>
        (...args: unknown[]) => (
          calls.push(
            `${String(name)} ${args
              .slice(1)
              .map((a) => (typeof a === 'string' && a.length > 60 ? 'xml' : String(a)))
              .join(' ')}`,
          ),
          Promise.resolve()
        ),
    },
  ) as unknown as LibvirtClient;
  const dom: DomRef = { name: 'vstest-devices-live', uuid: Buffer.alloc(16), id: 1 };

  test('GIVEN title, metadata, on_poweroff and the display password changed WHEN applied live THEN one libvirt call each', async () => {
    calls.length = 0;
    const prior = everyDevice();
    const planned = everyDevice({
      title: 't2',
      metadata: { owner: 'b' },
      on_reboot: 'restart',
      on_poweroff: 'restart',
      graphics: [
        {
          type: 'vnc',
          listen: '127.0.0.1',
          socket: null,
          port: null,
          password: 'pw2',
          password_wo: null,
          password_keyed_digest: null,
          display_uri: null,
        },
      ],
    });
    const decision = decideDomainChange(prior, planned);
    expect(decision.impact).toBe('live');
    for (const step of liveSteps(client, dom, prior, planned, decision.changes, { disks: [] })) await step.run();
    expect(calls).toEqual([
      'domainSetLifecycleAction 0 1 3',
      'domainSetMetadata 1 t2 null null 3',
      'domainSetMetadata 2 <entries><entry key="owner">b</entry></entries> vsuser https://virtseed.dev/xmlns/domain-user/1 3',
      'domainUpdateDeviceFlags xml 3',
    ]);
  });
});

describe('read', () => {
  test('GIVEN libvirt without the display password (not asked for) WHEN merged THEN the state keeps its password and shows no drift', () => {
    const current = everyDevice();
    const observed = { ...current, graphics: [{ ...(current.graphics as object[])[0], password: null }] } as DomainState;
    expect(mergeObserved(current, observed).graphics).toEqual(current.graphics);
  });

  test('GIVEN disks libvirt keeps in target order, one with cache "default" (libvirt writes none) WHEN merged THEN the state keeps its order and spelling', () => {
    const vdd = diskState({ file: '/srv/d.img', target: 'vdd', bus: 'virtio', readonly: false, cache: 'default' });
    const vdb = diskState({ file: '/srv/b.img', target: 'vdb', bus: 'virtio', readonly: false });
    const current = everyDevice({ disk: [vdd, vdb] });
    expect(mergeObserved(current, { ...current, disk: [vdb, { ...vdd, cache: null }] }).disk).toEqual([vdd, vdb]);
  });

  test("GIVEN a disk whose cache libvirt changed (drift) WHEN merged THEN libvirt's value shows", () => {
    const disk = diskState({ file: '/srv/d.img', target: 'vda', bus: 'virtio', readonly: false, cache: 'default' });
    const current = everyDevice({ disk: [disk] });
    expect(mergeObserved(current, { ...current, disk: [{ ...disk, cache: 'none' }] }).disk).toEqual([{ ...disk, cache: 'none' }]);
  });

  test('GIVEN an empty xml {} block (libvirt records no escape hatch) WHEN merged THEN no drift', () => {
    const current = everyDevice({ xml: { devices: null, xslt: null } });
    expect(mergeObserved(current, { ...current, xml: null }).xml).toEqual({ devices: null, xslt: null });
  });

  test('GIVEN boot_devices null in libvirt (its default, hd) and ["hd"] in the state WHEN merged THEN no drift', () => {
    const current = everyDevice({ boot_devices: ['hd'] });
    expect(mergeObserved(current, { ...current, boot_devices: null }).boot_devices).toEqual(['hd']);
  });
});
