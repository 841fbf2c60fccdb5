/**
 * Checks a DomainSpec before rendering: the rules libvirt/QEMU would reject at define or start time, reported as
 * diagnostics with paths in the spec's own keys (e.g. `['disks', 1, 'target']`). Pure.
 */
import { error, type AttributePath, type Diagnostic } from '../diagnostics';
import { DOMAIN_FIELDS, VOLUME_FORMATS, isOneOf, valuesOf } from '../fields';
import { isUuid } from '../uuid';
import { validateDiskOptions } from './disk-options';
import { validateNicOptions } from './nic-options';
import { validateDevices, validateInterfaceOptions } from './validate-devices';
import type { DomainDisk, DomainInterface, DomainSpec } from './model';

/** Longest domain name virtseed accepts (characters). */
export const DOMAIN_NAME_MAX = 64;
const NAME_RE = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,${DOMAIN_NAME_MAX - 1}}$`);
const MAC_RE = /^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/;
const TARGET_RE: Record<DomainDisk['bus'], RegExp> = { virtio: /^vd[a-z]{1,2}$/, sata: /^sd[a-z]{1,2}$/, scsi: /^sd[a-z]{1,2}$/ };
/** QEMU fw_cfg names are at most 55 characters (FW_CFG_MAX_FILE_PATH 56 with the terminating NUL). */
const FW_CFG_NAME_MAX = 55;
/** Control characters XML 1.0 cannot carry (or that attribute normalisation would change). */
const CONTROL_RE = /[\u0000-\u001f\u007f]/;
const TEXT_CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** The allowed values of the domain's fields: the table's own (src/fields/domain.ts). */
const DOMAIN_TYPES = valuesOf(DOMAIN_FIELDS.fields.type);
const FIRMWARES = valuesOf(DOMAIN_FIELDS.fields.firmware);
const DISK_BUSES = valuesOf(DOMAIN_FIELDS.fields.disk.fields.bus);
const quoted = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

export const MIN_MEMORY_MIB = 64;
export const MAX_VCPU = 255;

/**
 * Returns every problem found (empty when the spec is valid): name characters, uuid form, memory ≥ 64 MiB
 * (whole MiB), vcpu 1..255, cpu mode/model pairing, direct-boot paths, firmware (secure boot only with efi),
 * disk sources/targets (unique, `vdX` on virtio and `sdX` on sata/scsi), cdroms read-only and not on virtio, MAC addresses (unicast), fw_cfg names
 * (`opt/` prefix, ≤ 55 characters, unique), absolute host paths and no control characters in XML values; the
 * devices and settings of ./devices/model.ts by ./validate-devices.ts.
 */
export function validateDomainSpec(spec: DomainSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (typeof spec.name !== 'string' || !NAME_RE.test(spec.name)) {
    out.push(
      error(
        ['name'],
        'Invalid domain name',
        `Got ${JSON.stringify(spec.name)}; use 1-${DOMAIN_NAME_MAX} letters, digits, '.', '_' or '-', starting with a letter or digit.`,
      ),
    );
  }
  if (spec.uuid !== undefined && !isUuid(spec.uuid)) {
    out.push(
      error(
        ['uuid'],
        'Invalid UUID',
        `Got ${JSON.stringify(spec.uuid)}; expected the 8-4-4-4-12 hex form, or leave it out for libvirt to generate one.`,
      ),
    );
  }
  if (!DOMAIN_TYPES.includes(spec.type)) {
    out.push(error(['type'], 'Invalid domain type', `Got ${JSON.stringify(spec.type)}; expected ${quoted(DOMAIN_TYPES)}.`));
  }
  if (!Number.isInteger(spec.memoryMiB) || spec.memoryMiB < MIN_MEMORY_MIB) {
    out.push(
      error(['memoryMiB'], 'Invalid memory size', `Got ${spec.memoryMiB}; expected a whole number of MiB, at least ${MIN_MEMORY_MIB}.`),
    );
  }
  if (!Number.isInteger(spec.vcpu) || spec.vcpu < 1 || spec.vcpu > MAX_VCPU) {
    out.push(error(['vcpu'], 'Invalid vCPU count', `Got ${spec.vcpu}; expected a whole number from 1 to ${MAX_VCPU}.`));
  }
  if (spec.maxMemoryMiB !== undefined && (!Number.isInteger(spec.maxMemoryMiB) || spec.maxMemoryMiB < spec.memoryMiB)) {
    out.push(
      error(
        ['maxMemoryMiB'],
        'Invalid maximum memory',
        `Got ${spec.maxMemoryMiB}; expected a whole number of MiB, at least the memory (${spec.memoryMiB}).`,
      ),
    );
  }
  if (spec.maxVcpu !== undefined && (!Number.isInteger(spec.maxVcpu) || spec.maxVcpu < spec.vcpu || spec.maxVcpu > MAX_VCPU)) {
    out.push(
      error(
        ['maxVcpu'],
        'Invalid maximum vCPU count',
        `Got ${spec.maxVcpu}; expected a whole number from the vCPU count (${spec.vcpu}) to ${MAX_VCPU}.`,
      ),
    );
  }
  validateCpu(spec, out);
  validateOs(spec, out);
  validateFirmware(spec, out);
  validateDisks(spec.disks, out);
  validateInterfaces(spec.interfaces, out);
  if (spec.serialLogFile !== undefined) checkHostPath(['serialLogFile'], spec.serialLogFile, out);
  validateFwCfg(spec, out);
  validateDevices(spec, out);
  (spec.qemuCommandline ?? []).forEach((arg, i) => {
    if (CONTROL_RE.test(arg))
      out.push(error(['qemuCommandline', i], 'Invalid QEMU argument', 'Control characters cannot be passed through libvirt XML.'));
  });
  for (const [key, value] of Object.entries(spec.metadata ?? {})) {
    if (key === '' || CONTROL_RE.test(key)) {
      out.push(
        error(
          ['metadata', key],
          'Invalid metadata key',
          `Got ${JSON.stringify(key)}; keys must be non-empty and free of control characters.`,
        ),
      );
    }
    if (typeof value !== 'string' || TEXT_CONTROL_RE.test(value)) {
      out.push(
        error(
          ['metadata', key],
          'Invalid metadata value',
          'Values must be strings; only tab and newline are allowed among control characters.',
        ),
      );
    }
  }
  return out;
}

function validateCpu(spec: DomainSpec, out: Diagnostic[]): void {
  if (spec.cpuMode === 'custom' && !spec.cpuModel) {
    out.push(error(['cpuModel'], 'Missing CPU model', "cpuMode 'custom' needs cpuModel (e.g. 'qemu64')."));
  }
  if (spec.cpuModel !== undefined && spec.cpuMode !== 'custom') {
    out.push(
      error(
        ['cpuModel'],
        'CPU model without custom mode',
        "cpuModel is only used with cpuMode 'custom'; set cpuMode: 'custom' or drop cpuModel.",
      ),
    );
  }
  if (spec.cpuModel !== undefined && !/^[A-Za-z0-9._-]+$/.test(spec.cpuModel)) {
    out.push(
      error(['cpuModel'], 'Invalid CPU model', `Got ${JSON.stringify(spec.cpuModel)}; expected a QEMU CPU model name such as 'qemu64'.`),
    );
  }
  if (spec.type === 'qemu' && spec.cpuMode === 'host-passthrough') {
    out.push(
      error(
        ['cpuMode'],
        'host-passthrough needs KVM',
        "QEMU's TCG cannot pass the host CPU through; use cpuMode 'maximum' or leave it out for type 'qemu'.",
      ),
    );
  }
}

function validateOs(spec: DomainSpec, out: Diagnostic[]): void {
  const os = spec.os;
  if (!os) return;
  if (os.kernel !== undefined) checkHostPath(['os', 'kernel'], os.kernel, out);
  if (os.initrd !== undefined) checkHostPath(['os', 'initrd'], os.initrd, out);
  for (const key of ['initrd', 'cmdline'] as const) {
    if (os[key] !== undefined && os.kernel === undefined) {
      out.push(error(['os', key], `${key} without kernel`, `os.${key} only applies to direct kernel boot; set os.kernel too.`));
    }
  }
  if (os.cmdline !== undefined && CONTROL_RE.test(os.cmdline)) {
    out.push(error(['os', 'cmdline'], 'Invalid kernel command line', 'Control characters (including newlines) are not allowed.'));
  }
}

function validateFirmware(spec: DomainSpec, out: Diagnostic[]): void {
  if (spec.firmware !== undefined && !FIRMWARES.includes(spec.firmware)) {
    out.push(error(['firmware'], 'Invalid firmware', `Got ${JSON.stringify(spec.firmware)}; expected ${quoted(FIRMWARES)}.`));
  }
  if (spec.secureBoot === true && spec.firmware !== 'efi') {
    out.push(
      error(
        ['secureBoot'],
        'Secure boot needs UEFI',
        "secureBoot is only available with firmware 'efi' (OVMF); set firmware: 'efi' or drop secureBoot.",
      ),
    );
  }
}

function validateDisks(disks: DomainDisk[], out: Diagnostic[]): void {
  const seen = new Map<string, number>();
  disks.forEach((disk, i) => {
    const path: AttributePath = ['disks', i];
    if ('file' in disk.source) {
      checkHostPath([...path, 'source', 'file'], disk.source.file, out);
    } else if ('pool' in disk.source) {
      for (const key of ['pool', 'volume'] as const) {
        const value = disk.source[key];
        if (typeof value !== 'string' || value === '' || CONTROL_RE.test(value)) {
          out.push(error([...path, 'source', key], `Invalid ${key} name`, `Got ${JSON.stringify(value)}; expected a non-empty name.`));
        }
      }
    } else {
      out.push(error([...path, 'source'], 'Invalid disk source', 'Give either {file} or {pool, volume}.'));
    }
    if (!DISK_BUSES.includes(disk.bus)) {
      out.push(error([...path, 'bus'], 'Invalid disk bus', `Got ${JSON.stringify(disk.bus)}; expected ${quoted(DISK_BUSES)}.`));
    } else if (typeof disk.target !== 'string' || !TARGET_RE[disk.bus].test(disk.target)) {
      const prefix = disk.bus === 'virtio' ? 'vd' : 'sd';
      out.push(
        error(
          [...path, 'target'],
          'Invalid disk target',
          `Got ${JSON.stringify(disk.target)}; a ${disk.bus} disk is named '${prefix}a', '${prefix}b', ...`,
        ),
      );
    }
    const first = seen.get(disk.target);
    if (first !== undefined) {
      out.push(
        error(
          [...path, 'target'],
          'Duplicate disk target',
          `'${disk.target}' is already used by disks[${first}]; each disk needs its own target.`,
        ),
      );
    } else {
      seen.set(disk.target, i);
    }
    if (disk.device !== 'disk' && disk.device !== 'cdrom') {
      out.push(error([...path, 'device'], 'Invalid disk device', `Got ${JSON.stringify(disk.device)}; expected 'disk' or 'cdrom'.`));
    }
    if (disk.format !== undefined && !isOneOf(VOLUME_FORMATS, disk.format)) {
      out.push(
        error([...path, 'format'], 'Invalid disk format', `Got ${JSON.stringify(disk.format)}; expected ${quoted(VOLUME_FORMATS)}.`),
      );
    }
    validateDiskOptions(disk, path, out);
    if (disk.device === 'disk' && disk.readonly === true && disk.bus === 'sata')
      out.push(
        error(
          [...path, 'readonly'],
          'Read-only SATA disk',
          "Got readonly true on bus 'sata'; libvirt 9.0 refuses it (\"readonly sata disks are not supported\"). Expected bus 'virtio' or 'scsi' for a read-only disk, or readonly false.",
        ),
      );
    if (disk.device === 'cdrom') {
      if (disk.readonly !== true) {
        out.push(error([...path, 'readonly'], 'cdrom must be read-only', 'Set readonly: true on cdrom devices.'));
      }
      if (disk.bus === 'virtio') {
        out.push(error([...path, 'bus'], 'cdrom on virtio bus', "QEMU has no virtio cdrom; use bus 'sata' (target 'sda', ...) or 'scsi'."));
      }
    }
  });
}

function validateInterfaces(interfaces: DomainInterface[], out: Diagnostic[]): void {
  interfaces.forEach((iface, i) => {
    const path: AttributePath = ['interfaces', i];
    validateInterfaceOptions(iface, path, out);
    if (iface.type === 'network' || iface.type === 'bridge') {
      const value = iface.type === 'network' ? iface.network : iface.bridge;
      if (typeof value !== 'string' || value === '' || CONTROL_RE.test(value)) {
        out.push(error([...path, iface.type], `Invalid ${iface.type} name`, `Got ${JSON.stringify(value)}; expected a non-empty name.`));
      }
    } else if (iface.type !== 'user' && iface.type !== 'direct') {
      out.push(
        error(
          [...path, 'type'],
          'Invalid interface type',
          `Got ${JSON.stringify((iface as { type: unknown }).type)}; expected 'network', 'user', 'bridge' or 'direct'.`,
        ),
      );
    }
    validateNicOptions(iface, path, out);
    if (iface.mac !== undefined) {
      if (!MAC_RE.test(iface.mac)) {
        out.push(
          error(
            [...path, 'mac'],
            'Invalid MAC address',
            `Got ${JSON.stringify(iface.mac)}; expected six hex pairs separated by ':', e.g. '52:54:00:12:34:56'.`,
          ),
        );
      } else if (parseInt(iface.mac.slice(0, 2), 16) & 1) {
        out.push(
          error(
            [...path, 'mac'],
            'Multicast MAC address',
            `'${iface.mac}' has the multicast bit set; a NIC needs a unicast address (e.g. prefix 52:54:00).`,
          ),
        );
      }
    }
  });
}

function validateFwCfg(spec: DomainSpec, out: Diagnostic[]): void {
  const seen = new Set<string>();
  (spec.fwCfg ?? []).forEach((entry, i) => {
    const path: AttributePath = ['fwCfg', i];
    if (
      typeof entry.name !== 'string' ||
      !entry.name.startsWith('opt/') ||
      entry.name.length > FW_CFG_NAME_MAX ||
      CONTROL_RE.test(entry.name)
    ) {
      out.push(
        error(
          [...path, 'name'],
          'Invalid fw_cfg name',
          `Got ${JSON.stringify(entry.name)}; names must start with 'opt/' (e.g. 'opt/com.coreos/config') and have at most ${FW_CFG_NAME_MAX} characters.`,
        ),
      );
    } else if (seen.has(entry.name)) {
      out.push(error([...path, 'name'], 'Duplicate fw_cfg name', `'${entry.name}' is given more than once.`));
    }
    seen.add(entry.name);
    checkHostPath([...path, 'file'], entry.file, out);
  });
}

function checkHostPath(path: AttributePath, value: string, out: Diagnostic[]): void {
  if (typeof value !== 'string' || !value.startsWith('/') || CONTROL_RE.test(value)) {
    out.push(error(path, 'Invalid host path', `Got ${JSON.stringify(value)}; expected an absolute path on the libvirt host.`));
  }
}
