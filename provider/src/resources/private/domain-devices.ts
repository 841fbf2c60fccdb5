/**
 * `virtseed_domain`'s devices and settings of issue 22 (field table src/fields/domain.ts) ⇄ the domain model
 * (src/domain `DomainSpec`), pure: the derived defaults a plan fills in, the spec fields of a state, and the
 * state attributes of a spec libvirt describes. ./domain-state.ts calls these for the rest of the domain.
 */
import {
  DISK_OPTIONS,
  INPUT_OPTIONS,
  NIC_OPTIONS,
  RNG_OPTIONS,
  TOPOLOGY_OPTIONS,
  TPM_OPTIONS,
  WATCHDOG_OPTIONS,
  formatPciAddress,
  optionEntries,
  parsePciAddress,
  parseUsbAddress,
  type DomainDiskOptions,
  type DomainNicOptions,
  type OptionTable,
  type OptionValue,
  type OptionsOf,
} from '../../../../src/domain';
import type {
  DomainBandwidth,
  DomainBandwidthLimit,
  DomainBootDevice,
  DomainCharSource,
  DomainDisk,
  DomainGraphics,
  DomainHostdev,
  DomainInterface,
  DomainSpec,
} from '../../../../src/domain';
import { DOMAIN_FIELDS } from '../../../../src/fields';
import type { DomainDiskState, DomainInterfaceState, DomainState } from './model';
import { known, list, num, str } from './values';

/** A device's options of an option table as state attributes (snake_case), each null when the device has none. */
type OptionsStateOf<T extends OptionTable> = { -readonly [K in keyof T as T[K]['attribute']]: OptionValue<T[K]> | null };

const F = DOMAIN_FIELDS.fields;

type Element<B> = B extends (infer E)[] ? E : never;
type CharState = Element<DomainState['serial']>;
type HostdevState = Element<DomainState['hostdev']>;
type BandwidthState = Exclude<DomainInterfaceState['bandwidth'], symbol | null>;

/** The listen address a display gets unless it listens on a socket: this host only. */
const DEFAULT_GRAPHICS_LISTEN = '127.0.0.1';
/** The display adapter a domain with graphics gets unless `video` says otherwise. */
const DEFAULT_VIDEO_WITH_GRAPHICS = 'vga';
/** The address a tcp serial port or console listens on unless `host` says otherwise. */
const DEFAULT_CHAR_HOST = '127.0.0.1';

/** Fills the derived defaults of the device fields (the table's constant ones are filled already). */
export function withDeviceDefaults(out: DomainState, config: DomainState | null): void {
  const graphics = list(out.graphics);
  out.graphics = graphics.map((g, i) => {
    const configured = config ? list(config.graphics)[i] : g;
    return configured?.listen == null && g.listen == null && g.socket == null ? { ...g, listen: DEFAULT_GRAPHICS_LISTEN } : g;
  });
  if ((config ?? out).video == null) out.video = graphics.length ? DEFAULT_VIDEO_WITH_GRAPHICS : null;
  const charDefaults = (c: CharState): CharState => (c.type === 'tcp' && c.host == null ? { ...c, host: DEFAULT_CHAR_HOST } : c);
  out.serial = list(out.serial).map(charDefaults);
  out.console = list(out.console).map(charDefaults);
  out.network_interface = list(out.network_interface).map((n) =>
    n.direct != null && n.direct_mode == null ? { ...n, direct_mode: 'vepa' } : n.direct == null ? { ...n, direct_mode: null } : n,
  );
}

function charSource(c: CharState, channel = false): DomainCharSource {
  const path = str(c.path);
  switch (known(c.type)) {
    case 'file':
      return { type: 'file', path: path ?? '' };
    case 'unix':
      return path !== undefined || channel ? { type: 'unix', ...(path !== undefined ? { path } : {}) } : { type: 'unix', path: '' };
    case 'tcp':
      return { type: 'tcp', host: str(c.host) ?? DEFAULT_CHAR_HOST, port: num(c.port) ?? NaN };
    default:
      return { type: 'pty' };
  }
}

function charState(s: DomainCharSource): CharState {
  return {
    type: s.type,
    path: s.type === 'file' || s.type === 'unix' ? (s.path ?? null) : null,
    host: s.type === 'tcp' ? s.host : null,
    port: s.type === 'tcp' ? s.port : null,
  };
}

function hostdevSpec(h: HostdevState): DomainHostdev {
  const address = str(h.address) ?? '';
  const managed = h.managed === false ? { managed: false } : {};
  if (h.type === 'usb') return { type: 'usb', ...parseUsbAddress(address), ...managed };
  return { type: 'pci', address: parsePciAddress(address), ...managed };
}

function limit(average: unknown, peak: unknown, burst: unknown): DomainBandwidthLimit | undefined {
  const a = num(average);
  if (a === undefined) return undefined;
  const [p, b] = [num(peak), num(burst)];
  return { average: a, ...(p !== undefined ? { peak: p } : {}), ...(b !== undefined ? { burst: b } : {}) };
}

function bandwidthSpec(b: DomainInterfaceState['bandwidth']): DomainBandwidth | undefined {
  if (!b || typeof b !== 'object') return undefined;
  const inbound = limit(b.inbound_average, b.inbound_peak, b.inbound_burst);
  const outbound = limit(b.outbound_average, b.outbound_peak, b.outbound_burst);
  return inbound || outbound ? { ...(inbound ? { inbound } : {}), ...(outbound ? { outbound } : {}) } : undefined;
}

function bandwidthState(b: DomainBandwidth | undefined): BandwidthState | null {
  if (!b) return null;
  return {
    inbound_average: b.inbound?.average ?? null,
    inbound_peak: b.inbound?.peak ?? null,
    inbound_burst: b.inbound?.burst ?? null,
    outbound_average: b.outbound?.average ?? null,
    outbound_peak: b.outbound?.peak ?? null,
    outbound_burst: b.outbound?.burst ?? null,
  };
}

/**
 * A block's options of an option table (src/domain/options.ts), as model fields: the known, non-null ones but
 * those at the entry's default (parse leaves those out too); a `required` one always, at its default when null or
 * unknown.
 */
function optionsSpec<T extends OptionTable>(table: T, block: object): OptionsOf<T> {
  const state = new Map<string, unknown>(Object.entries(block));
  const out: { [key: string]: string | number } = {};
  for (const [key, o] of optionEntries(table)) {
    const given = o.number ? num(state.get(o.attribute)) : str(state.get(o.attribute));
    const value = given === undefined || (o.values && given === '') ? (o.required ? o.default : undefined) : given;
    if (value !== undefined && (o.required || value !== o.default)) out[key] = value;
  }
  // Built entry by entry, each value of its entry's kind.
  return out as OptionsOf<T>;
}

/** A device's options of an option table as state attributes: null when the device has none (the default when the entry has one). */
function optionsState<T extends OptionTable>(table: T, device: object): OptionsStateOf<T> {
  const model = new Map<string, unknown>(Object.entries(device));
  // One attribute per entry, each value of its entry's kind.
  return Object.fromEntries(
    optionEntries(table).map(([key, o]) => [o.attribute, model.get(key) ?? o.default ?? null]),
  ) as OptionsStateOf<T>;
}

/** A disk block's options (src/domain/disk-options.ts `DISK_OPTIONS`), as model fields: the known, non-null ones. */
export function diskOptionsSpec(d: DomainDiskState): DomainDiskOptions {
  return optionsSpec(DISK_OPTIONS, d);
}

/** A disk's options, as state attributes (null when the disk has none). */
export function diskOptionsState(d: DomainDisk): OptionsStateOf<typeof DISK_OPTIONS> {
  return optionsState(DISK_OPTIONS, d);
}

/** A NIC block's options (src/domain/nic-options.ts `NIC_OPTIONS`) and bandwidth, as model fields. */
export function nicOptionsSpec(n: DomainInterfaceState): DomainNicOptions & Pick<DomainInterface, 'bandwidth'> {
  const bandwidth = bandwidthSpec(n.bandwidth);
  return { ...optionsSpec(NIC_OPTIONS, n), ...(bandwidth ? { bandwidth } : {}) };
}

/** A NIC's options, macvtap and bandwidth, as state attributes. */
export function nicOptionsState(
  n: DomainInterface,
): OptionsStateOf<typeof NIC_OPTIONS> & Pick<DomainInterfaceState, 'direct' | 'direct_mode' | 'bandwidth'> {
  return {
    ...optionsState(NIC_OPTIONS, n),
    direct: n.type === 'direct' ? n.dev : null,
    direct_mode: n.type === 'direct' ? n.mode : null,
    bandwidth: bandwidthState(n.bandwidth),
  };
}

/** The model fields of the state's devices and settings (placeholders, like the rest, where values are unknown). */
export function deviceSpec(s: DomainState): Partial<DomainSpec> {
  const out: Partial<DomainSpec> = {};
  const title = str(s.title);
  if (title !== undefined) out.title = title;
  const description = str(s.description);
  if (description !== undefined) out.description = description;
  if (s.metadata && typeof s.metadata === 'object' && Object.keys(s.metadata).length) out.userMetadata = { ...s.metadata };
  const boot = Array.isArray(s.boot_devices) ? (s.boot_devices as DomainBootDevice[]) : undefined;
  if (boot) out.bootDevices = [...boot];
  if (s.boot_menu === true) {
    const timeout = num(s.boot_menu_timeout);
    out.bootMenu = timeout !== undefined ? { timeoutMs: timeout } : {};
  }
  const [onPoweroff, onReboot, onCrash] = [known(s.on_poweroff), known(s.on_reboot), known(s.on_crash)];
  if (onPoweroff && onPoweroff !== F.on_poweroff.default) out.onPoweroff = onPoweroff;
  if (onReboot && onReboot !== F.on_reboot.default) out.onReboot = onReboot;
  if (onCrash && onCrash !== F.on_crash.default) out.onCrash = onCrash;
  const topology = s.cpu_topology;
  if (topology && typeof topology === 'object') {
    const dies = num(topology.dies);
    out.cpuTopology = {
      sockets: num(topology.sockets) ?? 1,
      ...(dies !== undefined && dies !== 1 ? { dies } : {}),
      cores: num(topology.cores) ?? 1,
      threads: num(topology.threads) ?? 1,
    };
  }
  const graphics = list(s.graphics).map((g): DomainGraphics => {
    const socket = str(g.socket);
    const port = num(g.port);
    const password = str(g.password);
    return {
      type: known(g.type) ?? 'vnc',
      listen: socket !== undefined ? { type: 'socket', socket } : { type: 'address', address: str(g.listen) ?? DEFAULT_GRAPHICS_LISTEN },
      ...(port !== undefined ? { port } : {}),
      ...(password !== undefined ? { password } : {}),
    };
  });
  if (graphics.length) out.graphics = graphics;
  const video = known(s.video);
  if (video) out.video = { model: video };
  if (s.tpm && typeof s.tpm === 'object') out.tpm = optionsSpec(TPM_OPTIONS, s.tpm);
  const filesystems = list(s.filesystem).map((f) => {
    const [source, target] = [str(f.source) ?? '', str(f.target) ?? ''];
    if ((known(f.driver) ?? F.filesystem.fields.driver.default) === 'virtiofs') return { driver: 'virtiofs' as const, source, target };
    const accessMode = known(f.access_mode);
    return {
      driver: '9p' as const,
      source,
      target,
      ...(accessMode && accessMode !== 'passthrough' ? { accessMode } : {}),
      ...(f.readonly === true ? { readonly: true } : {}),
    };
  });
  if (filesystems.length) out.filesystems = filesystems;
  if (filesystems.some((f) => f.driver === 'virtiofs')) out.memoryBacking = { source: 'memfd', access: 'shared' };
  if (s.rng && typeof s.rng === 'object') out.rng = optionsSpec(RNG_OPTIONS, s.rng);
  if (s.watchdog && typeof s.watchdog === 'object') out.watchdog = optionsSpec(WATCHDOG_OPTIONS, s.watchdog);
  const serials = list(s.serial).map((c) => ({ source: charSource(c) }));
  if (serials.length) out.serials = serials;
  const consoles = list(s.console).map((c) => ({ source: charSource(c) }));
  if (consoles.length) out.consoles = consoles;
  const channels = list(s.channel).map((c) => {
    const type = known(c.type) ?? F.channel.fields.type.default;
    const path = str(c.path);
    const source = type === 'unix' ? { type, ...(path !== undefined ? { path } : {}) } : { type };
    return { name: str(c.name) ?? '', source } as NonNullable<DomainSpec['channels']>[number];
  });
  if (channels.length) out.channels = channels;
  const inputs = list(s.input).map((i) => optionsSpec(INPUT_OPTIONS, i));
  if (inputs.length) out.inputs = inputs;
  const hostdevs = list(s.hostdev).map(hostdevSpec);
  if (hostdevs.length) out.hostdevs = hostdevs;
  const extra = s.xml && typeof s.xml === 'object' ? str(s.xml.devices) : undefined;
  if (extra !== undefined) out.extraDevices = extra;
  return out;
}

/** The state attributes of a spec's devices and settings (for read and import); `xml` is the caller's. */
export function deviceState(
  spec: DomainSpec,
): Pick<
  DomainState,
  | 'title'
  | 'description'
  | 'metadata'
  | 'on_poweroff'
  | 'on_reboot'
  | 'on_crash'
  | 'boot_devices'
  | 'boot_menu'
  | 'boot_menu_timeout'
  | 'cpu_topology'
  | 'video'
  | 'graphics'
  | 'tpm'
  | 'filesystem'
  | 'rng'
  | 'watchdog'
  | 'serial'
  | 'console'
  | 'channel'
  | 'input'
  | 'hostdev'
> {
  const t = spec.cpuTopology;
  return {
    title: spec.title ?? null,
    description: spec.description ?? null,
    metadata: spec.userMetadata ? { ...spec.userMetadata } : null,
    on_poweroff: (spec.onPoweroff as DomainState['on_poweroff']) ?? F.on_poweroff.default,
    on_reboot: (spec.onReboot as DomainState['on_reboot']) ?? F.on_reboot.default,
    on_crash: spec.onCrash ?? F.on_crash.default,
    boot_devices: spec.bootDevices ? [...spec.bootDevices] : null,
    boot_menu: spec.bootMenu !== undefined,
    boot_menu_timeout: spec.bootMenu?.timeoutMs ?? null,
    cpu_topology: t ? optionsState(TOPOLOGY_OPTIONS, t) : null,
    video: spec.video?.model ?? null,
    graphics: (spec.graphics ?? []).map((g) => ({
      type: g.type,
      listen: g.listen.type === 'address' ? g.listen.address : null,
      socket: g.listen.type === 'socket' ? g.listen.socket : null,
      port: g.port ?? null,
      password: g.password ?? null,
      password_wo: null,
      password_keyed_digest: null,
      display_uri: null,
    })),
    tpm: spec.tpm ? optionsState(TPM_OPTIONS, spec.tpm) : null,
    filesystem: (spec.filesystems ?? []).map((f) => ({
      source: f.source,
      target: f.target,
      driver: f.driver,
      access_mode: (f.driver === '9p' ? f.accessMode : undefined) ?? F.filesystem.fields.access_mode.default,
      readonly: f.driver === '9p' && f.readonly === true,
    })),
    rng: spec.rng ? optionsState(RNG_OPTIONS, spec.rng) : null,
    watchdog: spec.watchdog ? optionsState(WATCHDOG_OPTIONS, spec.watchdog) : null,
    serial: (spec.serials ?? []).map((c) => charState(c.source)),
    console: (spec.consoles ?? []).map((c) => charState(c.source)),
    channel: (spec.channels ?? []).map((c) => ({
      name: c.name,
      type: c.source.type,
      path: c.source.type === 'unix' ? (c.source.path ?? null) : null,
    })),
    input: (spec.inputs ?? []).map((i) => optionsState(INPUT_OPTIONS, i)),
    hostdev: (spec.hostdevs ?? []).map((h) => ({
      type: h.type,
      address: h.type === 'pci' ? formatPciAddress(h.address) : `${h.bus}:${h.device}`,
      managed: h.managed !== false,
    })),
  };
}

/** True when the state asks for the escape hatch (extra devices or an XSLT transform). */
export function usesEscapeHatch(s: DomainState): boolean {
  return !!s.xml && typeof s.xml === 'object' && (str(s.xml.devices) !== undefined || str(s.xml.xslt) !== undefined);
}

/** The XSLT stylesheet of the state's escape hatch, if any. */
export function xsltOf(s: DomainState): string | undefined {
  return s.xml && typeof s.xml === 'object' ? str(s.xml.xslt) : undefined;
}
