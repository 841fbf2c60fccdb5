/**
 * VirtualMachine's devices and settings (issue 22): each prop's value object becomes its `virtseed_domain` block,
 * and the domain model's checks run at synth naming the prop.
 */
import { Testing } from 'cdktf';
import {
  BootDevice,
  Channel,
  CharDevice,
  ConstructPropsError,
  Filesystem,
  Graphics,
  HostDevice,
  InputDevice,
  LifecycleAction,
  NetworkAttachment,
  Rng,
  Tpm,
  VideoModel,
  VirtualMachineProps,
  Watchdog,
  WatchdogAction,
} from '../../../constructs';
import { vmDomain } from '../vm-domain';

Testing.setupJest();

const domainOf = (props: Partial<VirtualMachineProps>) => vmDomain('dev', props);

test('GIVEN every device prop WHEN synthesized THEN each is its virtseed_domain block or attribute', () => {
  const domain = domainOf({
    vcpus: 2,
    title: 'Dev box',
    description: 'for tests',
    metadata: { owner: 'team-a' },
    onCrash: LifecycleAction.PRESERVE,
    boot: { devices: [BootDevice.HD, BootDevice.NETWORK], menu: true, menuTimeoutMs: 3000 },
    cpuTopology: { sockets: 1, cores: 2, threads: 1 },
    graphics: [Graphics.vnc({ password: 'secret' }), Graphics.spice({ socket: '/run/spice.sock' })],
    video: VideoModel.QXL,
    tpm: Tpm.v2(),
    filesystems: [Filesystem.virtiofs('/srv/data', 'data'), Filesystem.ninep('/srv/ro', 'ro', { readonly: true })],
    rng: Rng.virtio(),
    watchdog: Watchdog.i6300esb(WatchdogAction.POWEROFF),
    serialPorts: [CharDevice.file('/var/log/serial1.log')],
    consoles: [CharDevice.pty()],
    channels: [Channel.unix('org.example.port.0'), Channel.spiceAgent()],
    inputs: [InputDevice.tablet()],
    hostDevices: [HostDevice.pci('0000:01:00.0'), HostDevice.usb('1:4', { managed: false })],
    rootDisk: { cache: 'none', io: 'native', discard: 'unmap', serial: 'DEV-1' },
    networks: [
      NetworkAttachment.libvirtNetwork('default', { mtu: 1400, bandwidth: { inboundAverage: 1000 } }),
      NetworkAttachment.direct('eth0', { mode: 'bridge' }),
    ],
    xml: { devices: "<sound model='ich9'/>" },
  });
  expect(domain).toMatchObject({
    title: 'Dev box',
    description: 'for tests',
    metadata: { owner: 'team-a' },
    on_crash: 'preserve',
    boot_devices: ['hd', 'network'],
    boot_menu: true,
    boot_menu_timeout: 3000,
    cpu_topology: { sockets: 1, cores: 2, threads: 1 },
    graphics: [
      { type: 'vnc', password: 'secret' },
      { type: 'spice', socket: '/run/spice.sock' },
    ],
    video: 'qxl',
    tpm: { model: 'tpm-crb', version: '2.0' },
    filesystem: [
      { source: '/srv/data', target: 'data', driver: 'virtiofs' },
      { source: '/srv/ro', target: 'ro', driver: '9p', readonly: true },
    ],
    rng: { source: '/dev/urandom' },
    watchdog: { model: 'i6300esb', action: 'poweroff' },
    serial: [{ type: 'file', path: '/var/log/serial1.log' }],
    console: [{ type: 'pty' }],
    channel: [
      { name: 'org.example.port.0', type: 'unix' },
      { name: 'com.redhat.spice.0', type: 'spicevmc' },
    ],
    input: [{ type: 'tablet', bus: 'usb' }],
    hostdev: [
      { type: 'pci', address: '0000:01:00.0' },
      { type: 'usb', address: '1:4', managed: false },
    ],
    disk: [expect.objectContaining({ cache: 'none', io: 'native', discard: 'unmap', serial: 'DEV-1' })],
    network_interface: [
      { network: 'default', mtu: 1400, bandwidth: { inbound_average: 1000 }, model: 'virtio' },
      { direct: 'eth0', direct_mode: 'bridge', model: 'virtio' },
    ],
    xml: { devices: "<sound model='ich9'/>" },
  });
});

test('GIVEN an RNG with a rate WHEN synthesized THEN its options are the rng block attributes the table names (ratePeriodMs: rate_period)', () => {
  expect(domainOf({ rng: Rng.virtio({ source: '/dev/random', rateBytes: 1024, ratePeriodMs: 2000 }) })).toMatchObject({
    rng: { source: '/dev/random', rate_bytes: 1024, rate_period: 2000 },
  });
});

test('GIVEN an RNG rate period without a rate WHEN synthesized THEN a ConstructPropsError names the prop', () => {
  expect(() => domainOf({ rng: Rng.virtio({ ratePeriodMs: 2000 }) })).toThrow(/^VirtualMachine\.rng: .*Invalid RNG rate period/);
});

test.each<[string, Partial<VirtualMachineProps>, RegExp]>([
  [
    'a topology that does not match the vCPUs',
    { vcpus: 2, cpuTopology: { sockets: 2, cores: 2, threads: 1 } },
    /^VirtualMachine\.cpuTopology: .*CPU topology does not match/,
  ],
  [
    'a VNC password over 8 characters',
    { graphics: [Graphics.vnc({ password: 'much-too-long' })] },
    /^VirtualMachine\.graphics\[0\]: .*VNC password too long/,
  ],
  ['native I/O with the default cache', { rootDisk: { io: 'native' } }, /^VirtualMachine\.rootDisk: .*Native I\/O needs direct access/],
  [
    'a PCI address in the wrong form',
    { hostDevices: [HostDevice.pci('01:00.0')] },
    /^VirtualMachine\.hostDevices\[0\]: .*Invalid PCI address/,
  ],
  [
    'power-off restarting while reboot destroys',
    { onPoweroff: LifecycleAction.RESTART, onReboot: LifecycleAction.DESTROY },
    /^VirtualMachine\.onPoweroff: /,
  ],
  [
    'an extra element that is no device',
    { xml: { devices: '<clock offset="utc"/>' } },
    /^VirtualMachine\.xml\.devices: .*Not a libvirt device element/,
  ],
])('GIVEN %s WHEN synthesized THEN a ConstructPropsError names the prop', (_, props, message) => {
  let thrown: unknown;
  try {
    domainOf(props);
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ConstructPropsError);
  expect((thrown as Error).message).toMatch(message);
});
