import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainXmlParseError, parseDomainXml, renderDomainXml } from '../../src/domain';
import { fixtureSpec, minimalSpec } from './fixtures/specs';

const dumpxml = readFileSync(join(__dirname, 'fixtures', 'libvirt-9.0-dumpxml.xml'), 'utf8');

/** A minimal libvirt-style document around `inner` (memory, vcpu and name are required). */
function domainXml(inner: string, rootAttrs = "type='kvm'"): string {
  return `<domain ${rootAttrs}><name>vstest-p</name><memory unit='KiB'>131072</memory><vcpu>1</vcpu>${inner}</domain>`;
}

describe('parseDomainXml on libvirt 9.0 dumpxml output', () => {
  test('GIVEN the dumpxml of a defined fixture WHEN parsed THEN the spec fields come back, plus the uuid libvirt added', () => {
    expect(parseDomainXml(dumpxml)).toStrictEqual({ ...fixtureSpec, uuid: 'e2c69f35-e2a4-4642-bc0b-562775e76219' });
  });

  test("GIVEN libvirt's default <cpu> (fallback='forbid', check='none') WHEN parsed THEN no cpuMode is reported", () => {
    expect(parseDomainXml(dumpxml).cpuMode).toBeUndefined();
  });
});

describe('parseDomainXml tolerance', () => {
  test('GIVEN memory in another unit WHEN parsed THEN memoryMiB is converted', () => {
    const xml = domainXml('').replace("<memory unit='KiB'>131072</memory>", "<memory unit='GiB'>2</memory>");
    expect(parseDomainXml(xml).memoryMiB).toBe(2048);
  });

  test('GIVEN memory without unit WHEN parsed THEN KiB is assumed', () => {
    const xml = domainXml('').replace("<memory unit='KiB'>131072</memory>", '<memory>262144</memory>');
    expect(parseDomainXml(xml).memoryMiB).toBe(256);
  });

  test('GIVEN a currentMemory below memory (virsh setmem --config) WHEN parsed THEN memoryMiB is the currentMemory', () => {
    const xml = domainXml('').replace('</memory>', "</memory><currentMemory unit='KiB'>102400</currentMemory>");
    expect(parseDomainXml(xml).memoryMiB).toBe(100);
  });

  test('GIVEN unknown elements, aliases and addresses WHEN parsed THEN they are ignored', () => {
    const xml = domainXml(
      '<resource><partition>/machine</partition></resource><devices><emulator>/usr/bin/qemu</emulator>' +
        "<disk type='file' device='disk'><driver name='qemu' type='qcow2'/><source file='/a.qcow2' index='1'/>" +
        "<backingStore/><target dev='vda' bus='virtio'/><alias name='virtio-disk0'/>" +
        "<address type='pci' domain='0x0000' bus='0x00' slot='0x04' function='0x0'/></disk>" +
        "<video><model type='cirrus'/></video></devices><seclabel type='dynamic' model='dac'/>",
    );
    expect(parseDomainXml(xml).disks).toStrictEqual([
      { source: { file: '/a.qcow2' }, target: 'vda', bus: 'virtio', device: 'disk', format: 'qcow2' },
    ]);
  });

  test('GIVEN the qemu namespace under another prefix WHEN parsed THEN the command line is still read', () => {
    const xml = domainXml(
      "<q:commandline><q:arg value='-S'/></q:commandline>",
      "type='qemu' xmlns:q='http://libvirt.org/schemas/domain/qemu/1.0'",
    );
    expect(parseDomainXml(xml).qemuCommandline).toEqual(['-S']);
  });

  test('GIVEN metadata of other applications WHEN parsed THEN only the virtseed element is read', () => {
    const xml = domainXml(
      "<metadata><app:x xmlns:app='urn:other'><app:entry key='a'>no</app:entry></app:x>" +
        "<vs:instance xmlns:vs='https://virtseed.dev/xmlns/domain/1'><vs:entry key='instance-id'>i-1</vs:entry></vs:instance></metadata>",
    );
    expect(parseDomainXml(xml).metadata).toEqual({ 'instance-id': 'i-1' });
  });

  test('GIVEN character references as libxml2 writes them WHEN parsed THEN they are decoded', () => {
    const xml = domainXml('<os><type>hvm</type><kernel>/k</kernel><cmdline>a&#9;b &amp; c</cmdline></os>');
    expect(parseDomainXml(xml).os).toEqual({ kernel: '/k', cmdline: 'a\tb & c' });
  });

  test('GIVEN the live XML of a started UEFI secure-boot domain (libvirt 9.0 resolved the firmware to a loader and NVRAM) WHEN parsed THEN firmware and secure boot come back', () => {
    const os =
      "<os><type arch='x86_64' machine='pc-q35-7.2'>hvm</type><loader readonly='yes' secure='yes' type='pflash'>/usr/share/OVMF/OVMF_CODE_4M.ms.fd</loader>" +
      "<nvram template='/usr/share/OVMF/OVMF_VARS_4M.ms.fd'>/var/lib/libvirt/qemu/nvram/vstest-p_VARS.fd</nvram><boot dev='hd'/></os>";
    const spec = parseDomainXml(domainXml(os));
    expect([spec.firmware, spec.secureBoot]).toEqual(['efi', true]);
  });

  test('GIVEN a UEFI domain whose secure-boot feature is off WHEN parsed THEN secureBoot is left out', () => {
    const os =
      "<os firmware='efi'><type arch='x86_64' machine='pc-i440fx-7.2'>hvm</type><firmware><feature enabled='no' name='secure-boot'/></firmware></os>";
    const spec = parseDomainXml(domainXml(os));
    expect([spec.firmware, 'secureBoot' in spec]).toEqual(['efi', false]);
  });

  test("GIVEN a running domain's agent channel with libvirt's socket path and state WHEN parsed THEN qemuAgent is true", () => {
    const channel =
      "<channel type='unix'><source mode='bind' path='/run/libvirt/qemu/channel/1-vm/org.qemu.guest_agent.0'/><target type='virtio' name='org.qemu.guest_agent.0' state='connected'/></channel>";
    expect(parseDomainXml(domainXml(`<devices>${channel}</devices>`)).qemuAgent).toBe(true);
  });

  test('GIVEN a channel of another name WHEN parsed THEN qemuAgent is left out', () => {
    const channel = "<channel type='spicevmc'><target type='virtio' name='com.redhat.spice.0'/></channel>";
    expect(parseDomainXml(domainXml(`<devices>${channel}</devices>`))).not.toHaveProperty('qemuAgent');
  });

  test('GIVEN a restricted NIC whose arguments were edited WHEN parsed THEN they stay plain QEMU arguments', () => {
    const xml = renderDomainXml({ ...minimalSpec, interfaces: [{ type: 'user', restrict: true }] }).replace(
      '&quot;restrict&quot;:true',
      '&quot;restrict&quot;:false',
    );
    const spec = parseDomainXml(xml);
    expect([spec.interfaces, spec.qemuCommandline?.length]).toEqual([[], 4]);
  });
});

describe('parseDomainXml errors', () => {
  const cases: [string, string, string][] = [
    ['not XML', '<domain', '(document)'],
    ['another root element', '<pool type="dir"><name>p</name></pool>', '(document)'],
    ['an unsupported hypervisor', domainXml('', "type='xen'"), 'domain/@type'],
    ['no memory', "<domain type='kvm'><name>a</name><vcpu>1</vcpu></domain>", 'domain/memory'],
    [
      'a block disk',
      domainXml("<devices><disk type='block' device='disk'><source dev='/dev/sdb'/><target dev='vdb' bus='virtio'/></disk></devices>"),
      'domain/devices/disk[0]/@type',
    ],
    [
      'a vhost-user interface',
      domainXml("<devices><interface type='vhostuser'><source type='unix' path='/run/x.sock' mode='client'/></interface></devices>"),
      'domain/devices/interface[0]/@type',
    ],
    ['an inline fw_cfg value', domainXml("<sysinfo type='fwcfg'><entry name='opt/x'>text</entry></sysinfo>"), 'domain/sysinfo/entry[0]'],
    ['two TPMs', domainXml("<devices><tpm model='tpm-crb'/><tpm model='tpm-tis'/></devices>"), 'domain/devices/tpm[1]'],
    [
      'two watchdogs',
      domainXml("<devices><watchdog model='i6300esb' action='reset'/><watchdog model='itco' action='reset'/></devices>"),
      'domain/devices/watchdog[1]',
    ],
  ];

  test.each(cases)('GIVEN %s WHEN parsed THEN DomainXmlParseError names the location', (_name, xml, location) => {
    expect(() => parseDomainXml(xml)).toThrow(DomainXmlParseError);
    try {
      parseDomainXml(xml);
    } catch (err) {
      expect((err as DomainXmlParseError).location).toBe(location);
    }
  });
});
