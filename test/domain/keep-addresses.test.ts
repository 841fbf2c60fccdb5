import { keepDeviceAddresses } from '../../src/domain';

const pci = (slot: string) => `<address type='pci' domain='0x0000' bus='0x00' slot='${slot}' function='0x0'/>`;
const nic = (mac: string, address = '') =>
  `<interface type='network'><mac address='${mac}'/><source network='n'/><model type='virtio'/>${address}</interface>`;
const disk = (dev: string, bus = 'virtio', address = '') =>
  `<disk type='volume' device='disk'><source pool='p' volume='${dev}'/><target dev='${dev}' bus='${bus}'/>${address}</disk>`;
const domain = (...devices: string[]) => `<domain type='qemu'><name>d</name><devices>${devices.join('')}</devices></domain>`;

describe('keepDeviceAddresses', () => {
  it('GIVEN a NIC attached live at slot 8 WHEN the new definition is prepared THEN the NIC (by MAC) and the disks (by target) keep their slots', () => {
    const live = domain(disk('vda', 'virtio', pci('0x04')), nic('52:54:00:00:00:01', pci('0x03')), nic('52:54:00:00:00:02', pci('0x08')));
    const out = keepDeviceAddresses(domain(disk('vda'), nic('52:54:00:00:00:01'), nic('52:54:00:00:00:02')), [live]);
    expect(out).toBe(
      domain(disk('vda', 'virtio', pci('0x04')), nic('52:54:00:00:00:01', pci('0x03')), nic('52:54:00:00:00:02', pci('0x08'))),
    );
  });

  it('GIVEN the live XML and the persistent one WHEN both know a device THEN the live address wins; a device only persistent gets its own', () => {
    const live = domain(nic('52:54:00:00:00:01', pci('0x03')));
    const persistent = domain(nic('52:54:00:00:00:01', pci('0x07')), disk('vdb', 'virtio', pci('0x09')));
    expect(keepDeviceAddresses(domain(nic('52:54:00:00:00:01'), disk('vdb')), [live, persistent])).toBe(
      domain(nic('52:54:00:00:00:01', pci('0x03')), disk('vdb', 'virtio', pci('0x09'))),
    );
  });

  it('GIVEN a device written with its own address, a disk moved to another bus, an unknown MAC WHEN prepared THEN those are left as written', () => {
    const live = domain(
      nic('52:54:00:00:00:01', pci('0x03')),
      disk('sda', 'sata', "<address type='drive' controller='0' bus='0' target='0' unit='0'/>"),
    );
    const xml = domain(nic('52:54:00:00:00:01', pci('0x0a')), disk('sda', 'scsi'), nic('52:54:00:00:00:09'));
    expect(keepDeviceAddresses(xml, [live])).toBe(xml);
  });

  it('GIVEN an address another device of the new definition already has WHEN prepared THEN it is not given twice', () => {
    const live = domain(nic('52:54:00:00:00:01', pci('0x03')));
    const xml = domain(`<hostdev mode='subsystem' type='pci'>${pci('0x03')}</hostdev>`, nic('52:54:00:00:00:01'));
    expect(keepDeviceAddresses(xml, [live])).toBe(xml);
  });

  it('GIVEN MACs in another case WHEN matched THEN they are the same NIC', () => {
    const live = domain(nic('52:54:00:AB:CD:EF', pci('0x05')));
    expect(keepDeviceAddresses(domain(nic('52:54:00:ab:cd:ef')), [live])).toBe(domain(nic('52:54:00:ab:cd:ef', pci('0x05'))));
  });
});
