import { domainAddresses } from '../../../../provider/src/resources/private/addresses';
import { LibvirtError, VIR_ERR_NO_NETWORK, VIR_ERR_NO_DOMAIN } from '../../../../src/libvirt';
import type { DomRef, LibvirtClient } from '../../../../src/libvirt';

const DOM = { name: 'web', uuid: new Uint8Array(16), id: 1 } as unknown as DomRef;

/** A client whose lease query fails with `code`, as libvirtd answers when a NIC's network is gone. */
function clientFailingLeases(code: number): LibvirtClient {
  return {
    domainIsActive: () => Promise.resolve(true),
    domainInterfaceAddresses: () => Promise.reject(new LibvirtError(code, 19, 2, `libvirt error ${code}`)),
  } as unknown as LibvirtClient;
}

test('GIVEN a running domain whose libvirt network was removed WHEN its addresses are read THEN there are none (no failure)', async () => {
  await expect(domainAddresses(clientFailingLeases(VIR_ERR_NO_NETWORK), DOM)).resolves.toEqual([]);
});

test('GIVEN a lease query failing for another reason WHEN the addresses are read THEN the libvirt error is thrown', async () => {
  await expect(domainAddresses(clientFailingLeases(VIR_ERR_NO_DOMAIN), DOM)).rejects.toThrow(`libvirt error ${VIR_ERR_NO_DOMAIN}`);
});
