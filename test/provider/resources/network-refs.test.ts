/**
 * A domain's `network_interface.network` by name or UUID (provider/src/resources/private/network-refs.ts), with a
 * fake libvirt client that has one network.
 */
import {
  keepNetworkRefs,
  missingNetworkDiagnostics,
  NetworkNotFoundError,
  resolveNetworkNames,
} from '../../../provider/src/resources/private/network-refs';
import { addressAttributes } from '../../../provider/src/resources/private/addresses';
import { UNKNOWN } from '../../../provider/src/plugin/cty';
import type { DomainInterfaceState } from '../../../provider/src/resources/private/model';
import { nicState } from '../fixtures/domain';
import { LibvirtError, VIR_ERR_NO_NETWORK } from '../../../src/libvirt';

const NET_UUID = '0a1b2c3d-0000-4000-8000-00000000beef';
const NET = { name: 'vstest-nr-net', uuid: Buffer.from(NET_UUID.replace(/-/g, ''), 'hex') };

const noNetwork = () => new LibvirtError(VIR_ERR_NO_NETWORK, 19, 2, 'Network not found');
const client = {
  async networkLookupByName(name: string) {
    if (name === NET.name) return NET;
    throw noNetwork();
  },
  async networkLookupByUuid(uuid: Uint8Array) {
    if (Buffer.from(uuid).equals(NET.uuid)) return NET;
    throw noNetwork();
  },
} as never;

const nic = (network: string | null | typeof UNKNOWN, user = false): DomainInterfaceState =>
  nicState({ network, user, restrict: false, mac: '52:54:00:00:00:01', model: 'virtio', link_state: 'up' });

describe('resolveNetworkNames', () => {
  test('GIVEN NICs by UUID, by name and user-mode WHEN resolved THEN each network NIC gets the libvirt name', async () => {
    expect(await resolveNetworkNames(client, [nic(NET_UUID), nic(NET.name), nic(null, true)])).toEqual([NET.name, NET.name, undefined]);
  });

  test('GIVEN a network the host does not have WHEN resolved THEN NetworkNotFoundError names the NIC and the fix', async () => {
    await expect(resolveNetworkNames(client, [nic(NET.name), nic('nope')])).rejects.toThrow(new NetworkNotFoundError('nope', 1));
    await expect(resolveNetworkNames(client, [nic('nope')])).rejects.toThrow(
      /network_interface 0: libvirt has no network named "nope".*virsh net-list --all/,
    );
  });
});

describe('keepNetworkRefs', () => {
  test('GIVEN the config named the network by UUID WHEN libvirt reports its name THEN the UUID is kept', async () => {
    expect(await keepNetworkRefs(client, [nic(NET_UUID)], [nic(NET.name)])).toEqual([nic(NET_UUID)]);
  });

  test('GIVEN the domain was moved to another network outside Terraform WHEN read THEN the other name shows (drift)', async () => {
    expect(await keepNetworkRefs(client, [nic(NET_UUID)], [nic('other')])).toEqual([nic('other')]);
  });
});

describe('missingNetworkDiagnostics', () => {
  test("GIVEN one known-missing network, one existing and one unknown WHEN checked THEN one error on that NIC's network", async () => {
    const d = await missingNetworkDiagnostics(client, {
      name: 'vstest-nr-vm',
      network_interface: [nic(NET_UUID), nic('nope'), { ...nic(null), network: UNKNOWN }],
    });
    expect(d).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: ['network_interface', 1, 'network'],
        summary: 'Network not found',
        detail: expect.stringMatching(/^Domain vstest-nr-vm: libvirt has no network named "nope"/),
      }),
    ]);
  });
});

describe('addressAttributes', () => {
  test('GIVEN an IPv6 lease before an IPv4 agent address WHEN turned into attributes THEN ip_address is the IPv4 one', () => {
    expect(
      addressAttributes([
        { mac: '52:54:00:00:00:01', addresses: ['fd00::17'], source: 'lease' },
        { mac: '52:54:00:00:00:01', name: 'eth0', addresses: ['10.213.7.100', 'fd00::17'], source: 'agent' },
      ]),
    ).toEqual({ addresses: ['fd00::17', '10.213.7.100'], ip_address: '10.213.7.100' });
  });

  test('GIVEN no addresses WHEN turned into attributes THEN an empty list and a null ip_address', () => {
    expect(addressAttributes([])).toEqual({ addresses: [], ip_address: null });
  });
});
