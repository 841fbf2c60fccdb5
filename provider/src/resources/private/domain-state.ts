/**
 * `virtseed_domain` state ⇄ the shared domain model (src/domain `DomainSpec`), pure: defaults filled at plan, the
 * spec of a state given its resolved libvirt references, and the state of a spec libvirt describes given the
 * volume keys found for its sources. The libvirt lookups themselves are in ./domain-refs.
 */
import { createHash } from 'node:crypto';
import type { DomainDisk, DomainInterface, DomainSpec } from '../../../../src/domain';
import { METADATA_KEYS } from '../../../../src/domain';
import { DOMAIN_FIELDS, matchElements } from '../../../../src/fields';
import {
  deviceSpec,
  deviceState,
  diskOptionsSpec,
  diskOptionsState,
  nicOptionsSpec,
  nicOptionsState,
  withDeviceDefaults,
} from './domain-devices';
import { withTableDefaults } from './fields';
import type { DomainDiskState, DomainInterfaceState, DomainState } from './model';
import { bool, known, list, num, str, UNKNOWN } from './values';

/** The table's rules of the domain's fields (src/fields/domain.ts). */
const F = DOMAIN_FIELDS.fields;
const DISK = F.disk.fields;

/** The fw_cfg key Ignition reads on QEMU (Ignition docs "Supported platforms": qemu). */
export const IGNITION_FW_CFG_KEY = 'opt/com.coreos/config';

/** The serial console log file virtseed gives a domain (virtlogd writes it). */
function consoleLogPath(name: string): string {
  return `/var/log/libvirt/qemu/${name}-console.log`;
}

/** `vda`, `vdb`, … for the i-th virtio disk. */
function diskTarget(index: number, bus: string): string {
  const prefix = bus === 'virtio' ? 'vd' : 'sd';
  let n = index;
  let suffix = '';
  do {
    suffix = String.fromCharCode(97 + (n % 26)) + suffix;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return prefix + suffix;
}

/** A stable MAC for the i-th interface of a named domain: QEMU's 52:54:00 prefix + 3 bytes of sha256(name/i). */
function derivedMac(domainName: string, index: number): string {
  const h = createHash('sha256').update(`${domainName}/${index}`).digest();
  return ['52', '54', '00', ...[h[0], h[1], h[2]].map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

/**
 * True when `uri` names a per-user session daemon (`qemu:///session`, `qemu+ssh://host/session`): its QEMU runs as
 * that user, who cannot write the system log folder, so such domains get no console log file (the console itself,
 * which `wait_for` reads as a libvirt stream, is there all the same).
 */
export function isSessionDaemon(uri: string | undefined): boolean {
  return uri !== undefined && /^[a-z0-9+]+:\/\/[^/?]*\/session(\?|$)/.test(uri);
}

/**
 * Fills defaults into a planned value: where `config` leaves an attribute null, the field table's default
 * (src/fields/domain.ts); the derived ones here: disk targets, NIC MACs and the console log (the domain type is
 * the host's, filled by the plan). `config` null: `planned`'s own nulls. `uri`: the provider's connection URI; a
 * session daemon's domains get no console log file (console_log null).
 */
export function withDefaults(
  planned: DomainState,
  prior: DomainState | null,
  uri?: string,
  config: DomainState | null = null,
): DomainState {
  const out = withTableDefaults(DOMAIN_FIELDS, planned, config);
  // No maximum configured: the guest has no room to grow without a restart (the maximum is the current value).
  if ((config ?? out).max_memory == null) out.max_memory = out.memory;
  if ((config ?? out).max_vcpu == null) out.max_vcpu = out.vcpu;
  const name = str(planned.name);
  out.disk = diskTargets(list(out.disk), list(config ? config.disk : out.disk), list(prior?.disk));
  out.network_interface = nicMacs(
    list(out.network_interface),
    list(config ? config.network_interface : out.network_interface),
    list(prior?.network_interface),
    name,
  );
  withDeviceDefaults(out, config);
  if (isSessionDaemon(uri)) out.console_log = null;
  else if (out.console_log === null || out.console_log === UNKNOWN)
    out.console_log = str(prior?.console_log) ?? (name ? consoleLogPath(name) : UNKNOWN);
  return out;
}

function isNullish(v: unknown): boolean {
  return v === null || v === undefined;
}

/**
 * The prior element each planned element of a block list is, told by what the configuration (`configured`, by
 * index) sets of the block's identity (src/fields/domain.ts `identity`; src/fields `matchElements`).
 */
function priorIndexes(configured: readonly object[], prior: readonly object[], identity: readonly string[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const p of matchElements(prior, configured, identity)) if (p.prior !== null && p.planned !== null) out.set(p.planned, p.prior);
  return out;
}

/**
 * Disk targets where the configuration sets none: the target of the same prior disk (by the table's identity:
 * its volume or file), so removing a disk leaves the others' devices as they are; else the first of `vda`, `vdb`, …
 * (`sda`, … on sata and scsi) from the disk's position on that no other disk has.
 */
function diskTargets(planned: DomainDiskState[], configured: DomainDiskState[], prior: DomainDiskState[]): DomainDiskState[] {
  const priorOf = priorIndexes(configured, prior, F.disk.identity);
  const bus = (d: DomainDiskState) => known(d.bus) ?? DISK.bus.default;
  // Configured targets (a value not known yet included) first, then the prior disks' own, then new ones.
  const free = planned.map((_, j) => isNullish(configured[j]?.target));
  const targets: DomainDiskState['target'][] = planned.map((d, j) => (free[j] ? null : d.target));
  const taken = () => targets.filter((t) => t !== null);
  planned.forEach((d, j) => {
    const p = priorOf.has(j) ? prior[priorOf.get(j) as number] : undefined;
    const kept = p && bus(p) === bus(d) ? str(p.target) : undefined;
    if (free[j] && targets[j] === null && kept && !taken().includes(kept)) targets[j] = kept;
  });
  planned.forEach((d, j) => {
    for (let k = j; targets[j] === null; k++) if (!taken().includes(diskTarget(k, bus(d)))) targets[j] = diskTarget(k, bus(d));
  });
  return planned.map((d, j) => ({ ...d, target: targets[j] }));
}

/**
 * NIC MACs where the configuration sets none: the MAC of the same prior NIC (by the table's identity: its
 * network or host interface, in order), so removing a NIC leaves the others' MACs as they are; else a MAC derived
 * from the domain name and the first position from the NIC's own on that no other NIC has (unknown while the name
 * is).
 */
function nicMacs(
  planned: DomainInterfaceState[],
  configured: DomainInterfaceState[],
  prior: DomainInterfaceState[],
  name: string | undefined,
): DomainInterfaceState[] {
  const priorOf = priorIndexes(configured, prior, F.network_interface.identity);
  // Configured MACs (a value not known yet included) first, then the prior NICs' own, then new ones.
  const free = planned.map((_, j) => isNullish(configured[j]?.mac));
  const macs: DomainInterfaceState['mac'][] = planned.map((n, j) => (free[j] ? null : n.mac));
  const taken = () => macs.filter((m) => m !== null);
  planned.forEach((_, j) => {
    const kept = priorOf.has(j) ? str(prior[priorOf.get(j) as number].mac) : undefined;
    if (free[j] && kept && !taken().includes(kept)) macs[j] = kept;
  });
  planned.forEach((_, j) => {
    for (let k = j; macs[j] === null; k++) macs[j] = !name ? UNKNOWN : taken().includes(derivedMac(name, k)) ? null : derivedMac(name, k);
  });
  return planned.map((n, j) => ({ ...n, mac: macs[j] }));
}

/** Host paths/volumes that a domain's state refers to, looked up at apply. */
export interface ResolvedRefs {
  readonly disks: { source: DomainDisk['source']; format?: DomainDisk['format'] }[];
  readonly seed?: { pool: string; volume: string };
  readonly ignitionFile?: string;
  /** The libvirt network name of each `network_interface` (its `network` may be a UUID). @default - `network` as given */
  readonly networks?: readonly (string | undefined)[];
  /** libvirt older than 6.5 has no `<sysinfo type='fwcfg'>`: pass the Ignition file with QEMU's `-fw_cfg`. */
  readonly fwCfgViaCommandline?: boolean;
}

/** First libvirt version with `<sysinfo type='fwcfg'>` (formatdomain "SMBIOS System Information"), 6.5.0. */
export const LIBVIRT_FWCFG_SYSINFO_VERSION = 6_005_000;

/** QEMU arguments passing a host file as the Ignition fw_cfg blob (for libvirt < 6.5). */
function ignitionFwCfgArgs(file: string): string[] {
  return ['-fw_cfg', `name=${IGNITION_FW_CFG_KEY},file=${file}`];
}

/** The Ignition file named by `-fw_cfg name=opt/com.coreos/config,file=...` among QEMU arguments, if any. */
export function ignitionFileFromArgs(args: readonly string[] | undefined): string | undefined {
  const prefix = `name=${IGNITION_FW_CFG_KEY},file=`;
  const a = args ?? [];
  for (let i = 0; i + 1 < a.length; i++) {
    if (a[i] === '-fw_cfg' && a[i + 1].startsWith(prefix)) return a[i + 1].slice(prefix.length);
  }
  return undefined;
}

/** The DomainSpec of a planned state, with refs resolved (or placeholders for validation at plan). */
export function toDomainSpec(s: DomainState, refs: ResolvedRefs, uuid?: string): DomainSpec {
  const disks: DomainDisk[] = list(s.disk).map((d, i) => ({
    source: refs.disks[i]?.source ?? { file: `/placeholder/disk${i}` },
    target: str(d.target) ?? diskTarget(i, known(d.bus) ?? DISK.bus.default),
    bus: known(d.bus) ?? DISK.bus.default,
    device: 'disk',
    format: refs.disks[i]?.format,
    ...(bool(d.readonly) ? { readonly: true } : {}),
    ...diskOptionsSpec(d),
  }));
  if (refs.seed) disks.push({ source: refs.seed, target: 'sda', bus: 'sata', device: 'cdrom', format: 'raw', readonly: true });
  const interfaces: DomainInterface[] = list(s.network_interface).map((n, i) => {
    const mac = str(n.mac);
    // A network not known yet (a virtseed_network created by the same plan) stands in by a placeholder name.
    const network = n.network === UNKNOWN ? 'network-known-after-apply' : str(n.network);
    const common = { ...(mac ? { mac } : {}), ...nicOptionsSpec(n) };
    const direct = str(n.direct);
    if (direct !== undefined) return { type: 'direct' as const, dev: direct, mode: known(n.direct_mode) ?? 'vepa', ...common };
    return n.user === true || !network
      ? { type: 'user' as const, ...(n.restrict !== false ? { restrict: true } : {}), ...common }
      : { type: 'network' as const, network: refs.networks?.[i] ?? network, ...common };
  });
  const metadata: Record<string, string> = { [METADATA_KEYS.reprovisionPolicy]: known(s.reprovision) ?? F.reprovision.default };
  const instanceId = str(s.instance_id);
  if (instanceId) metadata[METADATA_KEYS.instanceId] = instanceId;
  const antiAffinity = str(s.anti_affinity);
  if (antiAffinity) metadata[METADATA_KEYS.antiAffinity] = antiAffinity;
  const [kernel, initrd, cmdline, cpuMode, serialLogFile, firmware] = [
    str(s.kernel),
    str(s.initrd),
    str(s.cmdline),
    known(s.cpu_mode),
    str(s.console_log),
    known(s.firmware),
  ];
  return {
    name: str(s.name) ?? '',
    ...(uuid ? { uuid } : {}),
    type: known(s.type) ?? 'qemu',
    memoryMiB: num(s.memory) ?? 0,
    ...(num(s.max_memory) !== undefined ? { maxMemoryMiB: num(s.max_memory) } : {}),
    vcpu: num(s.vcpu) ?? F.vcpu.default,
    ...(num(s.max_vcpu) !== undefined ? { maxVcpu: num(s.max_vcpu) } : {}),
    ...(cpuMode ? { cpuMode } : {}),
    ...(firmware && firmware !== F.firmware.default ? { firmware } : {}),
    ...(s.secure_boot === true ? { secureBoot: true } : {}),
    ...(kernel ? { os: { kernel, ...(initrd ? { initrd } : {}), ...(cmdline ? { cmdline } : {}) } } : {}),
    disks,
    interfaces,
    ...(serialLogFile ? { serialLogFile } : {}),
    ...(s.qemu_agent === true ? { qemuAgent: true } : {}),
    ...(refs.ignitionFile && !refs.fwCfgViaCommandline ? { fwCfg: [{ name: IGNITION_FW_CFG_KEY, file: refs.ignitionFile }] } : {}),
    ...(refs.ignitionFile && refs.fwCfgViaCommandline ? { qemuCommandline: ignitionFwCfgArgs(refs.ignitionFile) } : {}),
    metadata,
    ...deviceSpec(s),
  };
}

/** The volume keys (or, when no volume holds them, the paths) libvirt's sources of a domain stand for. */
export interface ObservedRefs {
  /** Per `spec.disks[i]`: the volume key, or null with `file` set when the file is no volume. */
  readonly disks: readonly { key: string | null; file: string | null }[];
  /** The key (or path) of the Ignition file given through fw_cfg, if any. */
  readonly ignitionId: string | null;
}

/** The Ignition file a domain passes through fw_cfg (`<sysinfo type='fwcfg'>` or QEMU's `-fw_cfg`), if any. */
export function ignitionFileOf(spec: DomainSpec): string | undefined {
  return spec.fwCfg?.find((e) => e.name === IGNITION_FW_CFG_KEY)?.file ?? ignitionFileFromArgs(spec.qemuCommandline);
}

/** What libvirt says a domain is, as the state attributes virtseed manages (for read and import). The cdrom is
 *  the cloud-init seed; `refs` holds the volume keys found for the spec's sources. */
export function stateFromSpec(spec: DomainSpec, running: boolean, refs: ObservedRefs): DomainState {
  const disk: DomainDiskState[] = [];
  let seedId: string | null = null;
  spec.disks.forEach((d, i) => {
    const { key, file } = refs.disks[i] ?? { key: null, file: null };
    if (d.device === 'cdrom') seedId = key ?? file;
    else disk.push({ volume_id: key, file, target: d.target, bus: d.bus, readonly: d.readonly === true, ...diskOptionsState(d) });
  });
  return {
    name: spec.name,
    host: null, // where the domain is: known to the caller, not to libvirt
    uuid: spec.uuid ?? null,
    id: spec.uuid ?? null,
    memory: spec.memoryMiB,
    max_memory: spec.maxMemoryMiB ?? spec.memoryMiB,
    vcpu: spec.vcpu,
    max_vcpu: spec.maxVcpu ?? spec.vcpu,
    type: spec.type,
    cpu_mode: spec.cpuMode ?? null,
    firmware: spec.firmware ?? F.firmware.default,
    secure_boot: spec.secureBoot === true,
    kernel: spec.os?.kernel ?? null,
    initrd: spec.os?.initrd ?? null,
    cmdline: spec.os?.cmdline ?? null,
    disk,
    cloudinit_seed_id: seedId,
    ignition_id: refs.ignitionId,
    instance_id: spec.metadata?.[METADATA_KEYS.instanceId] ?? null,
    anti_affinity: spec.metadata?.[METADATA_KEYS.antiAffinity] ?? null,
    network_interface: spec.interfaces.map((n) => ({
      network: n.type === 'network' ? n.network : null,
      user: n.type === 'user',
      restrict: n.type === 'user' ? n.restrict === true : false,
      mac: n.mac ?? null,
      ...nicOptionsState(n),
    })),
    ...deviceState(spec),
    // The escape hatch is what the domain's metadata recorded (./domain-read.ts fills it in).
    xml: null,
    running,
    console_log: spec.serialLogFile ?? null,
    qemu_agent: spec.qemuAgent === true,
    // Not in libvirt's description: kept from the state (read) or set by import; addresses come from the guest,
    // autostart from virDomainGetAutostart.
    autostart: null,
    change_impact: null,
    change_impacts: null,
    reprovision: null,
    shutdown_timeout: null,
    wait_for: null,
    wait_timeout: null,
    snapshot_before: null,
    snapshot_keep: null,
    reprovision_action: null,
    previous_instance_id: null,
    addresses: null,
    ip_address: null,
  };
}
