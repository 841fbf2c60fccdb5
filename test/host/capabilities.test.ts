/** src/host/capabilities.ts: host facts from libvirt's capabilities and domain capabilities XML. */
import { availableFirmware, parseFirmwareCapabilities, parseHostCapabilities, versionString } from '../../src/host';

const CAPS = `<capabilities>
  <host>
    <uuid>b4deafcf-5ad9-43b2-aab7-6c64a4270cc7</uuid>
    <cpu>
      <arch>x86_64</arch>
      <model>kvm64</model>
      <vendor>AMD</vendor>
      <topology sockets='1' dies='1' cores='2' threads='1'/>
    </cpu>
  </host>
</capabilities>`;

/** `virsh domcapabilities --machine q35` of Debian 12 with ovmf (abridged). */
const DOMCAPS_Q35 = `<domainCapabilities>
  <os supported='yes'>
    <enum name='firmware'>
      <value>efi</value>
    </enum>
    <loader supported='yes'>
      <value>/usr/share/OVMF/OVMF_CODE_4M.ms.fd</value>
      <value>/usr/share/OVMF/OVMF_CODE_4M.fd</value>
      <enum name='type'><value>rom</value><value>pflash</value></enum>
      <enum name='secure'>
        <value>yes</value>
        <value>no</value>
      </enum>
    </loader>
  </os>
</domainCapabilities>`;

describe('parseHostCapabilities', () => {
  it('GIVEN the capabilities XML WHEN parsed THEN uuid, arch and CPU model are read', () => {
    expect(parseHostCapabilities(CAPS)).toEqual({ uuid: 'b4deafcf-5ad9-43b2-aab7-6c64a4270cc7', arch: 'x86_64', cpuModel: 'kvm64' });
  });

  it('GIVEN XML that is not capabilities WHEN parsed THEN nothing is reported', () => {
    expect(parseHostCapabilities('<x/>')).toEqual({});
  });
});

describe('parseFirmwareCapabilities', () => {
  it('GIVEN q35 domain capabilities with OVMF WHEN parsed THEN efi, the loaders and secure boot are read', () => {
    expect(parseFirmwareCapabilities(DOMCAPS_Q35)).toEqual({
      firmware: ['efi'],
      loaders: ['/usr/share/OVMF/OVMF_CODE_4M.ms.fd', '/usr/share/OVMF/OVMF_CODE_4M.fd'],
      secureBoot: true,
    });
  });

  it('GIVEN an unsupported <os> WHEN parsed THEN no firmware and no secure boot', () => {
    expect(parseFirmwareCapabilities("<domainCapabilities><os supported='no'/></domainCapabilities>")).toEqual({
      firmware: [],
      loaders: [],
      secureBoot: false,
    });
  });

  it('GIVEN a loader offering secure no only WHEN parsed THEN secure boot is false', () => {
    const xml = DOMCAPS_Q35.replace('<value>yes</value>\n', '');
    expect(parseFirmwareCapabilities(xml).secureBoot).toBe(false);
  });
});

describe('availableFirmware', () => {
  it('GIVEN x86_64 and efi capabilities WHEN listed THEN bios and efi', () => {
    expect(availableFirmware('x86_64', parseFirmwareCapabilities(DOMCAPS_Q35))).toEqual(['bios', 'efi']);
  });

  it('GIVEN aarch64 without firmware descriptors WHEN listed THEN none', () => {
    expect(availableFirmware('aarch64', { firmware: [], loaders: [], secureBoot: false })).toEqual([]);
  });
});

describe('versionString', () => {
  it("GIVEN libvirt's version numbers WHEN formatted THEN major.minor.release", () => {
    expect([versionString(9000000), versionString(7002022), versionString(10010001)]).toEqual(['9.0.0', '7.2.22', '10.10.1']);
  });
});
