/**
 * The devices and settings of issue 22 in the domain model (src/domain/devices): render ⇄ parse round trips,
 * the XML each renders, what libvirt adds that parsing leaves out, and the checks with their paths.
 */
import { parseDomainXml, renderDomainXml, validateDomainSpec, type DomainSpec } from '../../src/domain';
import { deviceSpecTable, everyDeviceSpec } from './fixtures/device-specs';

/** The XML on one line, attributes in double quotes as the builder writes them. */
const flat = (xml: string) => xml.replace(/>\s+</g, '><').trim();

const BASE: DomainSpec = { name: 'vstest-devices-unit', type: 'qemu', memoryMiB: 256, vcpu: 2, disks: [], interfaces: [] };

describe('round trips', () => {
  test.each(deviceSpecTable)('GIVEN the spec "%s" WHEN rendered and parsed THEN it comes back in normal form', (_, spec) => {
    expect(parseDomainXml(renderDomainXml(spec), { extraDevices: spec.extraDevices })).toStrictEqual(spec);
  });

  test.each(deviceSpecTable)('GIVEN the spec "%s" WHEN validated THEN it has no problem', (_, spec) => {
    expect(validateDomainSpec(spec)).toEqual([]);
  });
});

describe('rendered XML', () => {
  test('GIVEN VNC without a port WHEN rendered THEN autoport on the address listener, the password as passwd', () => {
    const xml = flat(
      renderDomainXml({ ...BASE, graphics: [{ type: 'vnc', listen: { type: 'address', address: '127.0.0.1' }, password: 'pw' }] }),
    );
    expect(xml).toContain('<graphics type="vnc" autoport="yes" passwd="pw"><listen type="address" address="127.0.0.1"/></graphics>');
  });

  test('GIVEN a virtiofs share and shared memory WHEN rendered THEN the virtiofs driver and memfd memory backing', () => {
    const xml = flat(
      renderDomainXml({
        ...BASE,
        memoryBacking: { source: 'memfd', access: 'shared' },
        filesystems: [{ driver: 'virtiofs', source: '/srv/s', target: 's' }],
      }),
    );
    expect(xml).toContain('<memoryBacking><source type="memfd"/><access mode="shared"/></memoryBacking>');
    expect(xml).toContain(
      '<filesystem type="mount" accessmode="passthrough"><driver type="virtiofs"/><source dir="/srv/s"/><target dir="s"/></filesystem>',
    );
  });

  test('GIVEN a TPM WHEN rendered THEN an emulator backend with its version (libvirt would default to TIS 1.2)', () => {
    expect(flat(renderDomainXml({ ...BASE, tpm: { model: 'tpm-crb', version: '2.0' } }))).toContain(
      '<tpm model="tpm-crb"><backend type="emulator" version="2.0"/></tpm>',
    );
  });

  test('GIVEN extra serial ports WHEN rendered THEN they follow the console port 0 as ports 1, 2', () => {
    const xml = flat(
      renderDomainXml({ ...BASE, serials: [{ source: { type: 'pty' } }, { source: { type: 'file', path: '/var/log/x.log' } }] }),
    );
    expect(xml).toContain(
      '<serial type="pty"><target port="0"/></serial><serial type="pty"><target port="1"/></serial><serial type="file"><source path="/var/log/x.log"/><target port="2"/></serial>',
    );
  });

  test('GIVEN lifecycle actions WHEN rendered THEN the on_* elements hold them', () => {
    expect(flat(renderDomainXml({ ...BASE, onPoweroff: 'restart', onCrash: 'preserve' }))).toContain(
      '<on_poweroff>restart</on_poweroff><on_reboot>restart</on_reboot><on_crash>preserve</on_crash>',
    );
  });

  test('GIVEN extra devices WHEN rendered THEN they are inside <devices>, verbatim, after the typed ones', () => {
    const xml = renderDomainXml({ ...BASE, extraDevices: "<sound model='ich9'/>" });
    expect(flat(xml)).toMatch(/<console type="pty">.*<\/console><sound model='ich9'\/><\/devices>/);
  });
});

describe('what libvirt adds', () => {
  const libvirtXml = (
    devices: string,
    extra = '',
  ) => `<domain type='qemu'><name>x</name><memory unit='KiB'>262144</memory><vcpu placement='static'>2</vcpu>
    <os><type arch='x86_64' machine='pc-i440fx-7.2'>hvm</type><boot dev='hd'/></os>${extra}<devices>${devices}</devices></domain>`;

  test('GIVEN the PS/2 inputs, the serial console mirror, audio and memballoon WHEN parsed THEN none is a device', () => {
    const spec = parseDomainXml(
      libvirtXml(
        "<serial type='pty'><target type='isa-serial' port='0'><model name='isa-serial'/></target></serial><console type='pty'><target type='serial' port='0'/></console><input type='mouse' bus='ps2'/><input type='keyboard' bus='ps2'/><audio id='1' type='none'/><memballoon model='virtio'/>",
      ),
    );
    expect([spec.inputs, spec.consoles, spec.serials]).toEqual([undefined, undefined, undefined]);
  });

  test('GIVEN a running VNC display (port 5901, autoport) WHEN parsed THEN no fixed port', () => {
    const spec = parseDomainXml(
      libvirtXml(
        "<graphics type='vnc' port='5901' autoport='yes' listen='127.0.0.1'><listen type='address' address='127.0.0.1'/></graphics>",
      ),
    );
    expect(spec.graphics).toEqual([{ type: 'vnc', listen: { type: 'address', address: '127.0.0.1' } }]);
  });

  test("GIVEN libvirt's default CPU with a topology WHEN parsed THEN the topology and no CPU mode", () => {
    const spec = parseDomainXml(
      libvirtXml(
        '',
        "<cpu mode='custom' match='exact' check='none'><model fallback='forbid'>qemu64</model><topology sockets='1' dies='1' cores='2' threads='1'/></cpu>",
      ),
    );
    expect({ mode: spec.cpuMode, topology: spec.cpuTopology }).toEqual({ mode: undefined, topology: { sockets: 1, cores: 2, threads: 1 } });
  });

  test('GIVEN a graphics type the model lacks WHEN parsed THEN it throws naming the element (never silently dropped)', () => {
    expect(() => parseDomainXml(libvirtXml("<graphics type='sdl'/>"))).toThrow(/graphics\[0\]\/@type.*sdl/);
  });
});

describe('checks', () => {
  test.each<[string, Partial<DomainSpec>, (string | number)[]]>([
    ['a topology that does not multiply to the vCPUs', { cpuTopology: { sockets: 2, cores: 2, threads: 1 } }, ['cpuTopology']],
    [
      'a VNC password over 8 characters',
      { graphics: [{ type: 'vnc', listen: { type: 'address', address: '127.0.0.1' }, password: '123456789' }] },
      ['graphics', 0, 'password'],
    ],
    [
      'two VNC displays',
      {
        graphics: [
          { type: 'vnc', listen: { type: 'address', address: '127.0.0.1' } },
          { type: 'vnc', listen: { type: 'address', address: '127.0.0.1' } },
        ],
      },
      ['graphics', 1, 'type'],
    ],
    [
      'a listen address that is no IP',
      { graphics: [{ type: 'spice', listen: { type: 'address', address: 'localhost' } }] },
      ['graphics', 0, 'listen'],
    ],
    ['a relative socket path', { graphics: [{ type: 'vnc', listen: { type: 'socket', socket: 'vnc.sock' } }] }, ['graphics', 0, 'socket']],
    [
      'virtiofs without shared memory',
      { filesystems: [{ driver: 'virtiofs', source: '/srv', target: 't' }] },
      ['filesystems', 0, 'driver'],
    ],
    ['a TPM CRB 1.2', { tpm: { model: 'tpm-crb', version: '1.2' } }, ['tpm', 'version']],
    ['the iTCO watchdog on the pc machine', { watchdog: { model: 'itco', action: 'reset' } }, ['watchdog', 'model']],
    ['power-off restarting while reboot destroys', { onPoweroff: 'restart', onReboot: 'destroy' }, ['onPoweroff']],
    ['preserve on power-off', { onPoweroff: 'preserve' }, ['onPoweroff']],
    ['a boot order with direct kernel boot', { os: { kernel: '/boot/vmlinuz' }, bootDevices: ['hd'] }, ['bootDevices']],
    ['a boot menu timeout over 65535 ms', { bootMenu: { timeoutMs: 70000 } }, ['bootMenu', 'timeoutMs']],
    [
      'a channel named like the guest agent',
      { channels: [{ name: 'org.qemu.guest_agent.0', source: { type: 'unix' } }] },
      ['channels', 0, 'name'],
    ],
    [
      'a tcp serial port out of range',
      { serials: [{ source: { type: 'tcp', host: '127.0.0.1', port: 70000 } }] },
      ['serials', 0, 'source', 'port'],
    ],
    [
      'a PCI slot out of range',
      { hostdevs: [{ type: 'pci', address: { domain: 0, bus: 0, slot: 0x20, function: 0 } }] },
      ['hostdevs', 0, 'address'],
    ],
    [
      'native I/O with the default cache',
      { disks: [{ source: { file: '/x' }, target: 'vda', bus: 'virtio', device: 'disk', io: 'native' }] },
      ['disks', 0, 'io'],
    ],
    [
      'a disk serial over 20 characters',
      { disks: [{ source: { file: '/x' }, target: 'vda', bus: 'virtio', device: 'disk', serial: 'x'.repeat(21) }] },
      ['disks', 0, 'serial'],
    ],
    ['an MTU below 68', { interfaces: [{ type: 'network', network: 'n', mtu: 60 }] }, ['interfaces', 0, 'mtu']],
    ['a VLAN tag over 4095', { interfaces: [{ type: 'network', network: 'n', vlan: 5000 }] }, ['interfaces', 0, 'vlan']],
    [
      'bandwidth on a user-mode NIC',
      { interfaces: [{ type: 'user', bandwidth: { inbound: { average: 10 } } }] },
      ['interfaces', 0, 'bandwidth'],
    ],
    ['a macvtap device name with a space', { interfaces: [{ type: 'direct', dev: 'eth 0', mode: 'vepa' }] }, ['interfaces', 0, 'dev']],
    ['a title with a newline', { title: 'a\nb' }, ['title']],
    ['extra devices that are not well-formed', { extraDevices: '<sound model="ich9">' }, ['extraDevices']],
    ['an extra element that is no device', { extraDevices: '<clock offset="utc"/>' }, ['extraDevices']],
  ])('GIVEN %s WHEN validated THEN one error names the field', (_, over, path) => {
    expect(validateDomainSpec({ ...BASE, ...over })).toEqual([expect.objectContaining({ severity: 'error', path })]);
  });

  test('GIVEN every device at once WHEN validated THEN no problem (the fixture is a valid domain)', () => {
    expect(validateDomainSpec(everyDeviceSpec)).toEqual([]);
  });
});
