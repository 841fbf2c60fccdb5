/**
 * The TPM, watchdog, RNG and input option tables (src/domain/device-options.ts): the XML each renders, what parse
 * reads where libvirt leaves an attribute out, and the checks with their paths.
 */
import { parseDomainXml, renderDomainXml, validateDomainSpec, type DomainSpec } from '../../src/domain';

const flat = (xml: string) => xml.replace(/>\s+</g, '><').trim();

const BASE: DomainSpec = { name: 'vstest-devopts-unit', type: 'qemu', memoryMiB: 256, vcpu: 1, disks: [], interfaces: [] };

const libvirtXml = (devices: string) =>
  `<domain type='qemu'><name>x</name><memory unit='KiB'>262144</memory><vcpu placement='static'>1</vcpu><os><type arch='x86_64' machine='pc-i440fx-7.2'>hvm</type><boot dev='hd'/></os><devices>${devices}</devices></domain>`;

describe('rendered XML', () => {
  test('GIVEN an RNG with a rate WHEN rendered THEN <rate> before the random backend holding the device', () => {
    expect(flat(renderDomainXml({ ...BASE, rng: { source: '/dev/urandom', rateBytes: 1024, ratePeriodMs: 2000 } }))).toContain(
      '<rng model="virtio"><rate bytes="1024" period="2000"/><backend model="random">/dev/urandom</backend></rng>',
    );
  });

  test('GIVEN a watchdog and an input WHEN rendered THEN their attributes on the device element', () => {
    const xml = flat(
      renderDomainXml({ ...BASE, watchdog: { model: 'ib700', action: 'pause' }, inputs: [{ type: 'tablet', bus: 'virtio' }] }),
    );
    expect(xml).toContain('<input type="tablet" bus="virtio"/>');
    expect(xml).toContain('<watchdog model="ib700" action="pause"/>');
  });
});

describe('what libvirt leaves out', () => {
  test("GIVEN a TPM without model and version WHEN parsed THEN libvirt's TIS 1.2", () => {
    expect(parseDomainXml(libvirtXml("<tpm><backend type='emulator'/></tpm>")).tpm).toEqual({ model: 'tpm-tis', version: '1.2' });
  });

  test('GIVEN a watchdog without action WHEN parsed THEN reset; without model THEN it throws naming @model', () => {
    expect(parseDomainXml(libvirtXml("<watchdog model='i6300esb'/>")).watchdog).toEqual({ model: 'i6300esb', action: 'reset' });
    expect(() => parseDomainXml(libvirtXml("<watchdog action='reset'/>"))).toThrow(/watchdog\[0\]\/@model/);
  });

  test('GIVEN an RNG backend without a device WHEN parsed THEN /dev/random; a passthrough TPM THEN it throws', () => {
    expect(parseDomainXml(libvirtXml("<rng model='virtio'><backend model='random'/></rng>")).rng).toEqual({ source: '/dev/random' });
    expect(() => parseDomainXml(libvirtXml("<tpm model='tpm-tis'><backend type='passthrough'/></tpm>"))).toThrow(/backend\/@type/);
  });
});

describe('checks', () => {
  test.each<[string, Partial<DomainSpec>, (string | number)[]]>([
    ['an RNG source that is no absolute path', { rng: { source: 'dev/urandom' } }, ['rng', 'source']],
    ['an RNG rate period without a rate', { rng: { source: '/dev/urandom', ratePeriodMs: 1000 } }, ['rng', 'ratePeriodMs']],
    ['an RNG rate of 0 bytes', { rng: { source: '/dev/urandom', rateBytes: 0 } }, ['rng', 'rateBytes']],
    ['an input on the ps2 bus', { inputs: [{ type: 'tablet', bus: 'ps2' as 'usb' }] }, ['inputs', 0, 'bus']],
    ['a TPM version the table lacks', { tpm: { model: 'tpm-tis', version: '3.0' as '2.0' } }, ['tpm', 'version']],
  ])('GIVEN %s WHEN validated THEN one error names the field', (_, over, path) => {
    expect(validateDomainSpec({ ...BASE, ...over })).toEqual([expect.objectContaining({ severity: 'error', path })]);
  });

  test('GIVEN the itco watchdog on the q35 machine (secure boot) WHEN validated THEN no watchdog error', () => {
    const problems = validateDomainSpec({ ...BASE, firmware: 'efi', secureBoot: true, watchdog: { model: 'itco', action: 'reset' } });
    expect(problems.filter((d) => d.path?.[0] === 'watchdog')).toEqual([]);
  });
});
