/** summarizeDomainXml (src/domain/summary.ts): the facts of any domain, including forms parseDomainXml rejects. */
import { DomainXmlParseError, renderDomainXml, summarizeDomainXml } from '../../src/domain';

const XML = `<domain type='kvm'>
  <name>db1</name>
  <uuid>6a1c3f52-7a2b-4c1e-9d7e-0f1e2d3c4b5a</uuid>
  <memory unit='KiB'>1048576</memory>
  <os firmware='efi'>
    <type arch='x86_64' machine='q35'>hvm</type>
    <firmware><feature enabled='yes' name='secure-boot'/></firmware>
  </os>
  <devices>
    <disk type='block' device='disk'><source dev='/dev/vg0/db1'/><target dev='vda' bus='virtio'/></disk>
    <disk type='volume' device='disk'><source pool='default' volume='db1-data.qcow2'/><target dev='vdb' bus='virtio'/></disk>
    <disk type='file' device='cdrom'><target dev='sda' bus='sata'/><readonly/></disk>
    <disk type='network' device='disk'><source protocol='nbd' name='export'><host name='nbd.example.net' port='10809'/></source><target dev='vdc'/></disk>
    <interface type='network'><mac address='52:54:00:aa:bb:01'/><source network='default'/></interface>
    <interface type='direct'><mac address='52:54:00:aa:bb:02'/><source dev='eth0' mode='bridge'/></interface>
  </devices>
</domain>`;

describe('summarizeDomainXml', () => {
  it('GIVEN a domain with block, volume, empty and network disks WHEN summarized THEN each source is named in order', () => {
    expect(summarizeDomainXml(XML).disks).toEqual(['/dev/vg0/db1', 'default/db1-data.qcow2', '', 'nbd://nbd.example.net/export']);
  });

  it('GIVEN a network and a direct interface WHEN summarized THEN both MACs are listed and only the first has a network', () => {
    expect(summarizeDomainXml(XML).interfaces).toEqual([
      { type: 'network', mac: '52:54:00:aa:bb:01', network: 'default' },
      { type: 'direct', mac: '52:54:00:aa:bb:02' },
    ]);
  });

  it('GIVEN firmware efi with the secure-boot feature WHEN summarized THEN efi and secure boot', () => {
    expect(summarizeDomainXml(XML)).toMatchObject({ name: 'db1', type: 'kvm', firmware: 'efi', secureBoot: true });
  });

  it('GIVEN a domain without <os firmware> WHEN summarized THEN bios', () => {
    expect(summarizeDomainXml("<domain type='qemu'><name>a</name></domain>")).toEqual({
      name: 'a',
      type: 'qemu',
      firmware: 'bios',
      secureBoot: false,
      disks: [],
      interfaces: [],
    });
  });

  it('GIVEN a document without a name WHEN summarized THEN DomainXmlParseError', () => {
    expect(() => summarizeDomainXml("<domain type='qemu'/>")).toThrow(DomainXmlParseError);
  });
});

describe('summarizeDomainXml with a restricted user-mode NIC', () => {
  it('GIVEN a domain whose only NIC is restricted user-mode WHEN summarized THEN its MAC is listed', () => {
    const xml = renderDomainXml({
      name: 'vstest-summary-user',
      type: 'qemu',
      memoryMiB: 256,
      vcpu: 1,
      disks: [],
      interfaces: [{ type: 'user', restrict: true, mac: '52:54:00:aa:bb:01' }],
    });
    expect(summarizeDomainXml(xml).interfaces).toEqual([{ type: 'user', mac: '52:54:00:aa:bb:01' }]);
  });

  it('GIVEN a restricted user-mode NIC between two network NICs WHEN summarized THEN the MACs keep the spec order', () => {
    const xml = renderDomainXml({
      name: 'vstest-summary-user',
      type: 'qemu',
      memoryMiB: 256,
      vcpu: 1,
      disks: [],
      interfaces: [
        { type: 'network', network: 'a', mac: '52:54:00:aa:bb:01' },
        { type: 'user', restrict: true, mac: '52:54:00:aa:bb:02' },
        { type: 'network', network: 'b', mac: '52:54:00:aa:bb:03' },
      ],
    });
    expect(summarizeDomainXml(xml).interfaces.map((i) => i.mac)).toEqual(['52:54:00:aa:bb:01', '52:54:00:aa:bb:02', '52:54:00:aa:bb:03']);
  });
});
