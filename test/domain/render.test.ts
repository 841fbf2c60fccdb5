import { ValidationError } from '../../src/diagnostics';
import { QEMU_XML_NAMESPACE, renderDomainXml, type DomainSpec } from '../../src/domain';
import { fixtureSpec, minimalSpec } from './fixtures/specs';

/** The XML with the indentation between tags removed, so fragments can be written on one line. */
function compact(spec: DomainSpec): string {
  return renderDomainXml(spec).replace(/>\s+</g, '><');
}

describe('renderDomainXml', () => {
  const fragments: [string, DomainSpec, string[]][] = [
    ['domain type and name', minimalSpec, ['<domain type="qemu">', '<name>vstest-minimal</name>']],
    [
      'memory converted from MiB to KiB',
      minimalSpec,
      ['<memory unit="KiB">262144</memory>', '<currentMemory unit="KiB">262144</currentMemory>'],
    ],
    ['vcpu count', { ...minimalSpec, vcpu: 3 }, ['<vcpu>3</vcpu>']],
    [
      'uuid when given',
      { ...minimalSpec, uuid: '6f1c2a5e-3b4d-4e8f-9a0b-1c2d3e4f5a6b' },
      ['<uuid>6f1c2a5e-3b4d-4e8f-9a0b-1c2d3e4f5a6b</uuid>'],
    ],
    ['boot from disk without kernel', minimalSpec, ['<os><type arch="x86_64" machine="pc">hvm</type><boot dev="hd"/></os>']],
    [
      'direct kernel boot',
      fixtureSpec,
      [
        '<kernel>/var/lib/virtseed/vmlinuz</kernel><initrd>/var/lib/virtseed/initrd.img</initrd><cmdline>root=/dev/vda rw console=ttyS0,115200 net.ifnames=0</cmdline></os>',
      ],
    ],
    [
      'BIOS firmware: machine pc, no firmware attribute',
      { ...minimalSpec, firmware: 'bios' },
      ['<os><type arch="x86_64" machine="pc">hvm</type><boot dev="hd"/></os>'],
    ],
    [
      'UEFI firmware chosen by libvirt, secure boot off',
      { ...minimalSpec, firmware: 'efi' },
      [
        '<os firmware="efi"><type arch="x86_64" machine="pc">hvm</type><firmware><feature enabled="no" name="enrolled-keys"/><feature enabled="no" name="secure-boot"/></firmware><boot dev="hd"/></os>',
      ],
    ],
    [
      'UEFI secure boot on q35 with SMM',
      { ...minimalSpec, firmware: 'efi', secureBoot: true },
      [
        '<os firmware="efi"><type arch="x86_64" machine="q35">hvm</type><firmware><feature enabled="yes" name="enrolled-keys"/><feature enabled="yes" name="secure-boot"/></firmware>',
        '<features><acpi/><apic/><smm state="on"/></features>',
      ],
    ],
    [
      'features and lifecycle',
      minimalSpec,
      ['<features><acpi/><apic/></features>', '<on_poweroff>destroy</on_poweroff><on_reboot>restart</on_reboot>'],
    ],
    ['cpu mode', { ...minimalSpec, cpuMode: 'maximum' }, ['<cpu mode="maximum"/>']],
    [
      'QEMU guest agent channel',
      { ...minimalSpec, qemuAgent: true },
      ['<channel type="unix"><target type="virtio" name="org.qemu.guest_agent.0"/></channel>'],
    ],
    ['custom cpu model', { ...minimalSpec, cpuMode: 'custom', cpuModel: 'qemu64' }, ['<cpu mode="custom"><model>qemu64</model></cpu>']],
    [
      'qcow2 file disk on virtio',
      minimalSpec,
      [
        '<disk type="file" device="disk"><driver name="qemu" type="qcow2"/><source file="/var/lib/libvirt/images/vstest-minimal.qcow2"/><target dev="vda" bus="virtio"/></disk>',
      ],
    ],
    [
      'pool volume cdrom on sata, read-only',
      fixtureSpec,
      [
        '<disk type="volume" device="cdrom"><driver name="qemu" type="raw"/><source pool="default" volume="vstest-fixture-seed.iso"/><target dev="sda" bus="sata"/><readonly/></disk>',
      ],
    ],
    [
      'disk without format and a virtio-scsi controller for scsi disks',
      { ...minimalSpec, disks: [{ source: { file: '/a.img' }, target: 'sda', bus: 'scsi', device: 'disk' }] },
      ['<driver name="qemu"/><source file="/a.img"/>', '<controller type="scsi" index="0" model="virtio-scsi"/>'],
    ],
    [
      'network interface with MAC',
      fixtureSpec,
      ['<interface type="network"><mac address="52:54:00:00:00:02"/><source network="default"/><model type="virtio"/></interface>'],
    ],
    [
      'unrestricted user interface',
      { ...minimalSpec, interfaces: [{ type: 'user', model: 'e1000' }] },
      ['<interface type="user"><model type="e1000"/></interface>'],
    ],
    [
      'bridge interface',
      { ...minimalSpec, interfaces: [{ type: 'bridge', bridge: 'br0' }] },
      ['<interface type="bridge"><source bridge="br0"/><model type="virtio"/></interface>'],
    ],
    [
      'restricted user interface as QEMU JSON arguments',
      fixtureSpec,
      [
        `<domain type="qemu" xmlns:qemu="${QEMU_XML_NAMESPACE}">`,
        '<qemu:commandline><qemu:arg value="-netdev"/><qemu:arg value="{&quot;type&quot;:&quot;user&quot;,&quot;id&quot;:&quot;vsnet0&quot;,&quot;restrict&quot;:true}"/>' +
          '<qemu:arg value="-device"/><qemu:arg value="{&quot;driver&quot;:&quot;virtio-net-pci&quot;,&quot;netdev&quot;:&quot;vsnet0&quot;,&quot;mac&quot;:&quot;52:54:00:00:00:01&quot;}"/></qemu:commandline>',
      ],
    ],
    [
      'serial console logged to a file',
      fixtureSpec,
      [
        '<serial type="pty"><log file="/var/log/libvirt/qemu/vstest-fixture-serial.log" append="on"/><target port="0"/></serial>',
        '<console type="pty"><target type="serial" port="0"/></console>',
      ],
    ],
    ['serial console without log', minimalSpec, ['<serial type="pty"><target port="0"/></serial>']],
    [
      'fw_cfg entries',
      fixtureSpec,
      ['<sysinfo type="fwcfg"><entry name="opt/com.coreos/config" file="/var/lib/virtseed/vstest-fixture.ign"/></sysinfo>'],
    ],
    [
      'extra QEMU arguments',
      { ...minimalSpec, qemuCommandline: ['-fw_cfg', 'name=opt/x,file=/y'] },
      ['<qemu:commandline><qemu:arg value="-fw_cfg"/><qemu:arg value="name=opt/x,file=/y"/></qemu:commandline>'],
    ],
    [
      'metadata entries sorted by key and escaped',
      { ...minimalSpec, metadata: { z: '1', 'instance-id': 'a<b&c' } },
      [
        '<metadata><virtseed:instance xmlns:virtseed="https://virtseed.dev/xmlns/domain/1">' +
          '<virtseed:entry key="instance-id">a&lt;b&amp;c</virtseed:entry><virtseed:entry key="z">1</virtseed:entry></virtseed:instance></metadata>',
      ],
    ],
  ];

  test.each(fragments)('GIVEN %s WHEN rendered THEN the XML contains the expected fragments', (_name, spec, expected) => {
    const xml = compact(spec);
    for (const fragment of expected) expect(xml).toContain(fragment);
  });

  test('GIVEN no emulator in the spec WHEN rendered THEN libvirt is left to pick one', () => {
    expect(compact(minimalSpec)).not.toContain('<emulator');
  });

  test('GIVEN UEFI without secure boot WHEN rendered THEN SMM stays off', () => {
    expect(compact({ ...minimalSpec, firmware: 'efi' })).not.toContain('<smm');
  });

  test('GIVEN no qemuAgent WHEN rendered THEN there is no <channel> element', () => {
    expect(compact(minimalSpec)).not.toContain('<channel');
  });

  test('GIVEN no cpuMode WHEN rendered THEN there is no <cpu> element', () => {
    expect(compact(minimalSpec)).not.toContain('<cpu');
  });

  test('GIVEN only libvirt-native devices WHEN rendered THEN no qemu namespace is declared', () => {
    expect(compact(minimalSpec)).not.toContain('xmlns:qemu');
  });

  test('GIVEN a restricted user interface WHEN rendered THEN no <interface> element is written for it', () => {
    expect(compact({ ...minimalSpec, interfaces: [{ type: 'user', restrict: true }] })).not.toContain('<interface');
  });

  test('GIVEN the same spec twice WHEN rendered THEN the output is identical', () => {
    expect(renderDomainXml(fixtureSpec)).toBe(renderDomainXml(structuredClone(fixtureSpec)));
  });

  test('GIVEN an invalid spec WHEN rendered THEN a ValidationError carrying the diagnostics is thrown', () => {
    const bad = { ...minimalSpec, memoryMiB: 16 };
    expect(() => renderDomainXml(bad)).toThrow(ValidationError);
    try {
      renderDomainXml(bad);
    } catch (err) {
      expect((err as ValidationError).diagnostics.map((d) => d.path)).toEqual([['memoryMiB']]);
    }
  });
});
