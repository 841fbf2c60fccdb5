/**
 * Facts about a libvirt host from its capabilities XML (https://libvirt.org/formatcaps.html, `virsh capabilities`)
 * and domain capabilities XML (https://libvirt.org/formatdomaincaps.html, `virsh domcapabilities`). Pure; anything
 * the XML does not say is reported as absent, never guessed, except where noted.
 */
import { attr, child, children, newParser, text, type XmlNode } from '../xml';

function parse(xml: string, root: string): XmlNode | undefined {
  try {
    return child(newParser().parse(xml, true) as XmlNode, root);
  } catch {
    return undefined;
  }
}

/** `<capabilities><host>`: the host's UUID and its CPU's architecture and model name. */
export interface HostCapabilities {
  uuid?: string;
  arch?: string;
  cpuModel?: string;
}

/** Reads `<capabilities><host><uuid>` and `<host><cpu><arch>`/`<model>`. */
export function parseHostCapabilities(xml: string): HostCapabilities {
  const host = child(parse(xml, 'capabilities'), 'host');
  const cpu = child(host, 'cpu');
  const out: HostCapabilities = {};
  const uuid = text(child(host, 'uuid'));
  if (uuid) out.uuid = uuid;
  const arch = text(child(cpu, 'arch'));
  if (arch) out.arch = arch;
  const model = text(child(cpu, 'model'));
  if (model) out.cpuModel = model;
  return out;
}

/** What `<domainCapabilities><os>` says about boot firmware. */
export interface FirmwareCapabilities {
  /** The `<os><enum name='firmware'>` values (e.g. `efi`; libvirt lists firmware it found descriptors for). */
  firmware: string[];
  /** `<os><loader>` paths (UEFI code images). */
  loaders: string[];
  /** Whether `<os><loader><enum name='secure'>` offers `yes`. */
  secureBoot: boolean;
}

function enumValues(node: XmlNode | undefined, name: string): string[] {
  const e = children(node, 'enum').find((n) => attr(n, 'name') === name);
  return children(e, 'value').map((v) => text(v) ?? '');
}

/** Reads the firmware facts of a domain capabilities document (unsupported `<os>`: none). */
export function parseFirmwareCapabilities(xml: string): FirmwareCapabilities {
  const os = child(parse(xml, 'domainCapabilities'), 'os');
  if (!os || attr(os, 'supported') === 'no') return { firmware: [], loaders: [], secureBoot: false };
  const loader = child(os, 'loader');
  const loaderSupported = loader !== undefined && attr(loader, 'supported') !== 'no';
  return {
    firmware: enumValues(os, 'firmware'),
    loaders: loaderSupported ? children(loader, 'value').map((v) => text(v) ?? '') : [],
    secureBoot: loaderSupported && enumValues(loader, 'secure').includes('yes'),
  };
}

/** Architectures whose QEMU boots guests with SeaBIOS by default (libvirt lists no descriptor for it). */
const BIOS_ARCHES = ['x86_64', 'i686'];

/**
 * The firmware names a virtseed domain can use on the host (`bios`, `efi`): `bios` on x86 (QEMU's built-in
 * SeaBIOS) or when the domain capabilities name it; `efi` when they name it or offer a UEFI loader.
 */
export function availableFirmware(arch: string | undefined, caps: FirmwareCapabilities): string[] {
  const out: string[] = [];
  if ((arch !== undefined && BIOS_ARCHES.includes(arch)) || caps.firmware.includes('bios')) out.push('bios');
  if (caps.firmware.includes('efi') || caps.loaders.length > 0) out.push('efi');
  return out;
}

/** `major*1_000_000 + minor*1000 + release` (libvirt's version numbers) as `major.minor.release`. */
export function versionString(n: number): string {
  return `${Math.floor(n / 1_000_000)}.${Math.floor(n / 1000) % 1000}.${n % 1000}`;
}
